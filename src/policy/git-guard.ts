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
  daemon: 'serves the repository over the network',
};

/** Read-only forms of `git config`; any other form can set aliases, pagers or hooks. */
const CONFIG_READ_FORMS = new Set(['--get', '--get-all', '--get-regexp', '--list', '-l', 'get', 'list']);

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
  if (subcommand === 'config' && !rest.some((arg) => CONFIG_READ_FORMS.has(arg))) {
    findings.push({ index: i, guard: 'git config', message: 'git config can set aliases, pagers and hooks that later run programs; only --get/--list forms are accepted' });
  }
  if (subcommand === 'submodule' && rest.includes('foreach')) {
    findings.push({ index: at(rest.indexOf('foreach')), guard: 'git submodule foreach', message: 'git submodule foreach runs a shell command' });
  }
  if (subcommand === 'bisect' && rest.includes('run')) {
    findings.push({ index: at(rest.indexOf('run')), guard: 'git bisect run', message: 'git bisect run runs a program' });
  }

  rest.forEach((arg, j) => {
    const option = longOption(arg.split('=')[0]!, Object.keys(FORBIDDEN_OPTIONS), EXACT_OPTIONS);
    if (option) findings.push({ index: at(j), guard: `git ${option}`, message: `git ${option} ${ownEntry(FORBIDDEN_OPTIONS, option)}` });
    if (subcommand === 'grep' && /^-O/.test(arg)) {
      findings.push({ index: at(j), guard: 'git grep -O', message: 'git grep -O runs a pager program' });
    }
    if ((subcommand === 'clone' || subcommand === 'ls-remote') && arg === '-u') {
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
