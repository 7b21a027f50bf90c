// git can run programs and read files far beyond what a rule like `git diff *` suggests: through
// configuration given on the command line, diff drivers, transports, pagers and subcommands
// that exist to run commands. These are refused even when a rule matches.
import type { GuardContext, GuardFinding } from './shell-guards.js';
import { longOption, ownEntry } from './shell-options.js';

/** Global options (before the subcommand) that cannot change what git runs or where it looks. */
const HARMLESS_GLOBAL = new Set([
  '--no-pager', '-p', '--paginate', '-P', '--no-replace-objects', '--bare', '--literal-pathspecs',
  '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks',
  '--no-lazy-fetch', '--no-advice', '--version', '-v', '--help', '-h', '--html-path', '--man-path',
  '--info-path',
]);

/** Anywhere after the subcommand: options that run a program, write elsewhere, or leave the repository. */
const FORBIDDEN_OPTIONS: Record<string, string> = {
  '--output': 'writes its output to a file of its choice',
  '--output-directory': 'writes files to a directory of its choice',
  '--ext-diff': 'runs an external diff program',
  '--textconv': 'runs text conversion filters',
  '--no-index': 'compares files outside the repository',
  '--upload-pack': 'runs a program of its choice as upload-pack',
  '--receive-pack': 'runs a program of its choice as receive-pack',
  '--exec': 'runs a program of its choice',
  '--open-files-in-pager': 'runs a pager program',
  '--config': 'sets configuration that can run programs',
  '--template': 'copies hooks from a template directory',
  '--separate-git-dir': 'moves the repository elsewhere',
  '--unsafe-paths': 'applies a patch to paths outside the work tree',
  '--cacheinfo': 'adds index entries under names no path check sees (a later checkout writes them)',
  '--index-info': 'adds index entries under names read from input (a later checkout writes them)',
};

/** Real options that are also prefixes of a forbidden one. */
const EXACT_OPTIONS: ReadonlySet<string> = new Set(['--text']);

/** Subcommands whose purpose is to run other programs or hand out secrets. */
const FORBIDDEN_SUBCOMMANDS: Record<string, string> = {
  difftool: 'runs an external diff tool',
  mergetool: 'runs an external merge tool',
  'filter-branch': 'runs shell filters',
  'send-email': 'sends mail and can run a program as SMTP server',
  instaweb: 'starts a web server',
  credential: 'prints stored credentials',
  'credential-store': 'prints and stores credentials',
  'credential-cache': 'prints and stores credentials',
  daemon: 'serves the repository over the network',
  help: 'runs a manual page viewer or a browser',
  'imap-send': 'runs a tunnel program of its choice',
  'remote-ext': 'runs a program of its choice',
  'remote-fd': 'talks over descriptors of its choice',
  'submodule--helper': 'runs what submodule does, shell commands included',
  'web--browse': 'runs a browser',
};

/**
 * git's own commands (git 2.39 and later, porcelain and plumbing; help and guides excluded). Any
 * other subcommand is an alias or a `git-NAME` program from PATH, which may run anything: refused
 * unless the rule names it (`- shell: "git lfs *"`).
 */
export const GIT_COMMANDS: ReadonlySet<string> = new Set(
  `add am annotate apply archive bisect blame branch bugreport bundle cat-file check-attr check-ignore check-mailmap check-ref-format checkout
  checkout-index cherry cherry-pick clean clone column commit commit-graph commit-tree config count-objects describe diagnose diff diff-files
  diff-index diff-tree fast-export fast-import fetch fetch-pack fmt-merge-msg for-each-ref for-each-repo format-patch fsck gc get-tar-commit-id
  grep hash-object hook index-pack init interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base
  merge-file merge-index merge-tree mktag mktree multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id prune
  prune-packed pull push range-diff read-tree rebase reflog remote repack replace request-pull rerere reset restore rev-list rev-parse revert rm
  send-pack shortlog show show-branch show-index show-ref sparse-checkout stash status stripspace submodule switch symbolic-ref tag
  unpack-file unpack-objects update-index update-ref update-server-info var verify-commit verify-pack verify-tag version whatchanged worktree
  write-tree lfs ${Object.keys({ difftool: 0, mergetool: 0, 'filter-branch': 0, 'send-email': 0, instaweb: 0, credential: 0, daemon: 0 }).join(' ')}`
    .split(/\s+/)
    .filter(Boolean),
);

/** Read-only forms of `git config`; any other form can set aliases, pagers or hooks. */
const CONFIG_READ_FORMS = new Set(['--get', '--get-all', '--get-regexp', '--list', '-l', 'get', 'list']);

/** Options of `git config KEY` that only say where to look or how to print: none writes or edits. */
const CONFIG_READ_OPTIONS = new Set(['--global', '--local', '--system', '--worktree', '--show-origin', '--show-scope', '--null', '-z', '--name-only', '--includes', '--no-includes', '--bool', '--int', '--path', '--bool-or-int', '--expiry-date']);

/** `git config user.email`: one key and nothing to set, which git reads as --get does. */
function readsOneKey(rest: readonly string[]): boolean {
  return rest.filter((arg) => !arg.startsWith('-')).length === 1 && rest.every((arg) => !arg.startsWith('-') || CONFIG_READ_OPTIONS.has(arg) || /^--(type|default)=/.test(arg));
}

export function gitGuard(argv: string[], context: GuardContext): GuardFinding[] {
  const findings: GuardFinding[] = [];
  let i = 1;
  for (; i < argv.length && argv[i]!.startsWith('-'); i++) {
    const option = argv[i]!;
    const name = option.split('=')[0]!;
    if (option === '-C') {
      i++;
      const target = argv[i];
      const problem = target === undefined ? 'needs a directory' : context.outsideWorkspace(target);
      if (problem) findings.push({ index: i, guard: 'git -C', message: `git -C ${problem}` });
    } else if (name.startsWith('-c') && !name.startsWith('--')) {
      findings.push({ index: i, guard: 'git -c', message: 'git -c sets configuration that can run programs (pager, aliases, hooks)' });
      if (option === '-c') i++;
    } else if (['--config-env', '--exec-path', '--git-dir', '--work-tree', '--namespace', '--attr-source'].includes(name)) {
      findings.push({ index: i, guard: `git ${name}`, message: `git ${name} changes which programs, repository or files git uses` });
      if (!option.includes('=') && name !== '--exec-path') i++;
    } else if (!HARMLESS_GLOBAL.has(option)) {
      findings.push({ index: i, guard: 'git global option', message: `the git option '${option}' before the subcommand is not known to be harmless` });
    }
  }
  const subcommand = argv[i];
  if (subcommand === undefined) return findings;
  const rest = argv.slice(i + 1);
  const at = (j: number) => i + 1 + j;

  const forbiddenSub = ownEntry(FORBIDDEN_SUBCOMMANDS, subcommand);
  if (forbiddenSub) findings.push({ index: i, guard: `git ${subcommand}`, message: `git ${subcommand} ${forbiddenSub}` });
  else if (!GIT_COMMANDS.has(subcommand)) {
    findings.push({ index: i, guard: `git ${subcommand}`, message: `'${subcommand}' is no git command: git runs an alias or a git-${subcommand} program of that name, which may run anything` });
  }
  if (subcommand === 'config' && !rest.some((arg) => CONFIG_READ_FORMS.has(arg)) && !readsOneKey(rest)) {
    findings.push({ index: i, guard: 'git config', message: 'git config can set aliases, pagers and hooks that later run programs; only --get/--list forms are accepted' });
  }
  if (subcommand === 'submodule' && rest.includes('foreach')) {
    findings.push({ index: at(rest.indexOf('foreach')), guard: 'git submodule foreach', message: 'git submodule foreach runs a shell command' });
  }
  // register/unregister write the user's global config (maintenance.repo), start/stop also the
  // user's crontab or systemd timers: outside the workspace, and jobs that run after the run.
  const maintenance = subcommand === 'maintenance' ? rest.find((arg) => !arg.startsWith('-')) : undefined;
  if (maintenance !== undefined && ['register', 'unregister', 'start', 'stop'].includes(maintenance)) {
    findings.push({ index: at(rest.indexOf(maintenance)), guard: `git maintenance ${maintenance}`, message: `git maintenance ${maintenance} writes the user's global git config${maintenance === 'start' || maintenance === 'stop' ? ' and crontab or systemd timers, whose jobs run git later, outside the run' : ''}, outside the workspace` });
  }
  if (subcommand === 'bisect' && rest.includes('run')) {
    findings.push({ index: at(rest.indexOf('run')), guard: 'git bisect run', message: 'git bisect run runs a program' });
  }

  rest.forEach((arg, j) => {
    const option = longOption(arg.split('=')[0]!, Object.keys(FORBIDDEN_OPTIONS), EXACT_OPTIONS);
    if (option) findings.push({ index: at(j), guard: `git ${option}`, message: `git ${option} ${ownEntry(FORBIDDEN_OPTIONS, option)}` });
    if (subcommand === 'grep' && grepPagerCluster(arg)) {
      findings.push({ index: at(j), guard: 'git grep -O', message: 'git grep -O runs a pager program' });
    }
    // A prefix is joined to each name as it is: `--prefix=.gi` with `t/hooks/x` writes .git/hooks/x.
    const prefix = /^--prefix=(.*)$/.exec(arg)?.[1] ?? (arg === '--prefix' ? rest[j + 1] : undefined);
    if ((subcommand === 'checkout-index' || subcommand === 'read-tree') && prefix !== undefined && !prefix.endsWith('/')) {
      findings.push({ index: at(j), guard: `git ${subcommand} --prefix`, message: `git ${subcommand} --prefix joins '${prefix}' to each name, making names no word shows; end it with '/'` });
    }
    if (subcommand === 'clone' && inCluster(arg, 'c', CLONE_VALUED)) {
      findings.push({ index: at(j), guard: 'git clone -c', message: 'git clone -c sets configuration of the new repository that can run programs (aliases, pagers, hooks)' });
    }
    // A file:// URL is a path: a repository outside the workspace is read through it.
    const url = /^file:\/\/(?:localhost)?(\/.*)$/i.exec(arg);
    const outside = url ? context.outsideWorkspace(decodeURIComponent(url[1]!)) : null;
    if (outside) findings.push({ index: at(j), guard: 'git file:// URL', message: `the URL '${arg}' leads outside the workspace: ${outside}` });
    if ((subcommand === 'clone' || subcommand === 'ls-remote') && inCluster(arg, 'u', CLONE_VALUED)) {
      findings.push({ index: at(j), guard: `git ${subcommand} -u`, message: `git ${subcommand} -u runs a program of its choice as upload-pack` });
    }
    if (subcommand === 'rebase' && (arg === '-x' || /^-[a-zA-Z]*x/.test(arg) && !arg.startsWith('--'))) {
      findings.push({ index: at(j), guard: 'git rebase -x', message: 'git rebase -x runs a shell command after each commit' });
    }
    if (/(^|[=:])(ext|fd)::/i.test(arg)) {
      findings.push({ index: at(j), guard: 'git ext:: transport', message: `the git transport in '${arg}' runs a program` });
    }
  });
  return findings;
}

/**
 * Whether `arg` holds git grep's -O (open the matching files with a pager program): alone, or in
 * a cluster of short options (`-nO`, `-iOsh`: -i, then -O with the program `sh`), up to a letter
 * that takes the rest of the word as its value (`-e`, `-f`, `-A`, `-B`, `-C`, `-m`).
 */
function grepPagerCluster(arg: string): boolean {
  return inCluster(arg, 'O', 'efABCm');
}

/** clone's and ls-remote's short options that take a value (`-qc k=v` is -q, then -c). */
const CLONE_VALUED = 'obucj';

/** Whether the short-option cluster `arg` holds `letter`, read as parse-options does: up to the first letter in `valued`. */
function inCluster(arg: string, letter: string, valued: string): boolean {
  if (!/^-[^-]/.test(arg)) return false;
  for (const found of arg.slice(1)) {
    if (found === letter) return true;
    if (valued.includes(found)) return false;
  }
  return false;
}
