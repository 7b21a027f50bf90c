// Argument guards: options that turn an innocent-looking allowed command into "run anything" or
// "write anywhere". They apply even when an allow rule matches; a word the rule itself spells out
// (`- shell: "sed -i *"` names `-i`) is the user's explicit choice and is not second-guessed,
// except for the interactive programs, which have no business in an unattended run.
import path from 'node:path';
import { nameProblem } from './bash-names.js';
import { gitGuard } from './git-guard.js';
import { sedGuard } from './sed-guard.js';
import { longOption, ownEntry } from './shell-options.js';
import { argumentFileGuard, curlGuard } from './argument-files.js';
import { compilerGuard, isCompilerDriver } from './compiler-guard.js';
import { composeGuard, containerGuard } from './container-guard.js';
import { makeDefinitionFindings } from './make-variables.js';
import { sshRunningOptions } from './ssh-options.js';

export interface GuardFinding {
  /** Position in argv of the word that trips the guard. */
  index: number;
  /** Short name for reasons: `git -c`, `find -exec`. */
  guard: string;
  message: string;
  /** Fires even when the rule spells the word out. */
  always?: boolean;
  /**
   * 'names': it opens files no word names (not a command it runs); 'scripts': it runs what the deny
   * rules check as a script of their own (make-variables.ts); 'code': it runs a program or loads a
   * library a file of the workspace may be (`gcc -B`, `-fplugin`: compiler-guard.ts), which deny
   * rules cannot see into, as a script file. Each the allowlist's concern only.
   */
  kind?: 'names' | 'scripts' | 'code';
}

export interface GuardContext {
  /** Why `p` (relative to the command's directory) is outside the workspace, or null. */
  outsideWorkspace(p: string): string | null;
  /** Why `p`, a file `program` opens, reaches a protected path (.git, workflows, the recipe, the run's output), or null. */
  protectedPath?(program: string, p: string): string | null;
}

type Guard = (argv: string[], context: GuardContext) => GuardFinding[];


const INTERACTIVE = ['less', 'more', 'most', 'pg', 'man', 'info', 'vi', 'vim', 'nvim', 'view', 'vimdiff', 'ex', 'ed', 'red', 'nano', 'pico', 'emacs', 'joe'];

const GUARDS: Record<string, Guard> = {
  git: gitGuard,
  sed: sedGuard,
  gsed: sedGuard,
  rg: ripgrepGuard,
  npm: (argv) => npmGuard(argv, false),
  npx: (argv) => npmGuard(argv, true),
  awk: awkGuard,
  gawk: awkGuard,
  mawk: awkGuard,
  nawk: awkGuard,
  tar: tarGuard,
  rsync: (argv) => [
    ...optionGuard(argv, 'rsync', { '--rsh': 'runs a remote shell program', '--rsync-path': 'runs a program on the remote side' }, /e/),
    ...namesFromGuard(argv, ['--files-from']),
    ...optionGuard(argv, 'rsync', { '--backup-dir': 'puts backups in a directory taken from the destination, not from here' }, null).map((finding) => ({ ...finding, kind: 'names' as const })),
  ],
  zip: zipGuard,
  ssh: sshGuard,
  curl: curlGuard,
  scp: sshGuard,
  sftp: sshGuard,
  ...Object.fromEntries(INTERACTIVE.map((name) => [name, interactiveGuard])),
  ...Object.fromEntries(['printf', 'read', 'test', '[', 'mapfile', 'readarray', 'getopts', 'wait', 'let'].map((name) => [name, bashNameGuard])),
  make: makeGuard,
  gmake: makeGuard,
  split: (argv) => optionGuard(argv, 'split', { '--filter': 'runs a command line for each piece' }, null),
  gsplit: (argv) => optionGuard(argv, 'gsplit', { '--filter': 'runs a command line for each piece' }, null),
  strace: traceGuard,
  ltrace: traceGuard,
  ...Object.fromEntries(['gcc', 'g++', 'cc', 'c++', 'clang', 'clang++'].map((name) => [name, compilerGuard])),
  gdb: interactiveGuard,
  lldb: interactiveGuard,
  sqlite3: sqliteGuard,
  ninja: ninjaGuard,
  install: (argv) => optionGuard(argv, 'install', { '--strip-program': 'runs a program of its choice to strip' }, null),
  jq: jqGuard,
  gh: ghGuard,
  docker: containerGuard,
  podman: containerGuard,
  'docker-compose': (argv) => composeGuard(argv),
  'podman-compose': (argv) => composeGuard(argv),
  wget: wgetGuard,
  unzip: unzipGuard,
  patch: patchGuard,
  find: (argv) => [...findGuard(argv), ...namesFromGuard(argv, ['-files0-from'], '', true)],
  file: (argv) => namesFromGuard(argv, ['--files-from'], 'f'),
  ...Object.fromEntries(['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum'].map((name) => [name, (argv: string[]) => namesFromGuard(argv, ['--check'], 'c')])),
  gojq: jqGuard,
  ...Object.fromEntries(['sort', 'wc', 'du'].map((name) => [name, (argv: string[]) => [...namesFromGuard(argv, ['--files0-from']), ...(name === 'sort' ? optionGuard(argv, 'sort', { '--compress-program': 'runs a compression program' }, null) : [])]])),
  xz: (argv) => namesFromGuard(argv, ['--files', '--files0']),
  unxz: (argv) => namesFromGuard(argv, ['--files', '--files0']),
  lzma: (argv) => namesFromGuard(argv, ['--files', '--files0']),
  cpio: (argv) => [{ index: 0, guard: 'cpio', message: 'cpio reads the names of the files it archives or copies from stdin', kind: 'names' }],
};

/**
 * Options that read the names of the files to open from stdin or a file (`sort --files0-from=-`,
 * `tar -T -`, `zip -@`): names no word of the line holds, so no path check sees them.
 */
function namesFromGuard(argv: string[], options: readonly string[], short = '', singleDash = false, others: readonly string[] = []): GuardFinding[] {
  const index = argv.findIndex((word, i) => {
    if (i === 0 || word === '--') return false;
    // find's options have one dash and no abbreviations.
    if (singleDash) return options.includes(word);
    // `others`: the program's own options that are also prefixes of one of these (tar's --file is no --files-from).
    if (word.startsWith('--')) return longOption(word.split('=')[0]!, options, new Set(others)) !== null;
    return short !== '' && /^-[^-]/.test(word) && [...word.slice(1)].some((letter) => short.includes(letter));
  });
  const option = argv[index]?.split('=')[0];
  return index < 0 ? [] : [{ index, guard: `${argv[0]} ${option}`, message: `${argv[0]} ${option} reads the names of files to open from input, which no path check sees`, kind: 'names' }];
}

function zipGuard(argv: string[]): GuardFinding[] {
  const findings: GuardFinding[] = [];
  argv.forEach((word, index) => {
    if (index === 0) return;
    // -TT takes its command attached too (`-TTcmd`), also inside a quoted word (`"-TTid x"`).
    if (word.startsWith('-TT') || longOption(word.split('=')[0]!, ['--unzip-command']) !== null) {
      findings.push({ index, guard: 'zip -TT', message: 'zip -TT runs a program to test the archive' });
    } else if (word === '-@' || /^-[ix]@/.test(word) || longOption(word.split('=')[0]!, ['--names-stdin']) !== null) {
      findings.push({ index, guard: `zip ${word}`, message: `zip ${word} reads the names of files to add from input, which no path check sees`, kind: 'names' });
    }
  });
  return findings;
}

/**
 * tar -P (--absolute-names) keeps a member's leading '/' and its '..': it writes where the
 * archive says, outside the workspace too. (Without it, tar strips them.)
 */
function absoluteNamesGuard(argv: string[]): GuardFinding[] {
  const index = argv.findIndex((word, i) => {
    if (i === 0 || word === '--') return false;
    if (word.startsWith('--')) return longOption(word.split('=')[0]!, ['--absolute-names']) !== null;
    // Old style (`tar xPf a.tar`): the first word's letters, without a dash.
    if (i === 1 && !word.startsWith('-')) return word.includes('P');
    if (!word.startsWith('-')) return false;
    const letters = word.slice(1);
    const valued = [...letters].findIndex((letter) => 'bCfFgHIKLNTVX'.includes(letter));
    return (valued < 0 ? letters : letters.slice(0, valued)).includes('P');
  });
  return index < 0 ? [] : [{ index, guard: 'tar -P', message: "tar -P keeps members' absolute names and '..', so it writes where the archive says", kind: 'names' }];
}

/** patch's backup names are a prefix joined to each file's name (`-B .gi` with `t/hooks/x`): names no word shows. */
function patchGuard(argv: string[]): GuardFinding[] {
  const index = argv.findIndex((word, i) => i > 0 && (/^-[A-Za-z]*[BY]/.test(word) || longOption(word.split('=')[0]!, ['--prefix', '--basename-prefix']) !== null));
  return index < 0 ? [] : [{ index, guard: 'patch -B', message: 'patch -B/-Y joins a prefix to each backup name, making names no word shows', kind: 'names' }];
}

/** tar's archive `host:file` is on another machine, reached with rsh or ssh, unless --force-local. */
function remoteArchiveGuard(argv: string[]): GuardFinding[] {
  if (argv.some((word) => word === '--force-local')) return [];
  const index = argv.findIndex((word, i) => {
    const previous = argv[i - 1] ?? '';
    const value = /^--file=/.test(word) ? word.slice('--file='.length) : (previous === '--file' || /^-[A-Za-z]*f$/.test(previous) || (i === 2 && /^[A-Za-z]*f[A-Za-z]*$/.test(argv[1] ?? ''))) ? word : null;
    return value !== null && /^[^/]*:/.test(value);
  });
  return index < 0 ? [] : [{ index, guard: 'tar host:file', message: `tar reads '${argv[index]}' from another machine with a remote shell; add --force-local if it is a local file` }];
}

/** unzip -: keeps a member's '../': it writes where the archive says, outside the workspace too. */
function unzipGuard(argv: string[]): GuardFinding[] {
  const index = argv.findIndex((word, i) => i > 0 && /^-[A-Za-z^]*:/.test(word));
  return index < 0 ? [] : [{ index, guard: 'unzip -:', message: "unzip -: keeps members' '../', so it writes where the archive says", kind: 'names' }];
}

/** jq's modules are read from a search path of its choice (`-L`, `import … {search: "/"}`). */
function jqGuard(argv: string[]): GuardFinding[] {
  const index = argv.findIndex((word, i) => i > 0 && (/^-L/.test(word) || longOption(word.split('=')[0]!, ['--library-path']) !== null || /\b(import|include)\b/.test(word)));
  return index < 0 ? [] : [{ index, guard: 'jq modules', message: 'jq reads modules from a search path of its choice, which may lead outside the workspace', kind: 'names' }];
}

/** Programs an innocent-looking option of which runs a command line, guarded here for deny rules too (shell-hidden-runners.ts). */
export const COMMAND_LINE_OPTIONS: readonly string[] = ['make', 'gmake', 'split', 'gsplit', 'strace', 'ltrace', 'gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'gdb', 'lldb', 'sqlite3', 'ninja'];

function makeGuard(argv: string[]): GuardFinding[] {
  const index = argv.findIndex((word, i) => i > 0 && (word === '-E' || /^-E./.test(word) || longOption(word.split('=')[0]!, ['--eval']) !== null));
  if (index > 0) return [{ index, guard: `${argv[0]} --eval`, message: `${argv[0]} ${argv[index]} evaluates makefile text, whose recipes the shell runs` }];
  // Variable definitions the deny rules check as scripts (`make 'x!=CMD'`): findings of their own kind.
  return [...stdinScriptGuard(argv, ['-f', '--file', '--makefile'], 'a makefile, whose recipes the shell runs'), ...makeDefinitionFindings(argv)];
}

/** ninja's build file from stdin names the commands it runs. */
function ninjaGuard(argv: string[]): GuardFinding[] {
  return stdinScriptGuard(argv, ['-f'], 'a build file, whose commands it runs');
}

/** A script option given stdin (`-f -`, `-f /dev/stdin`): the line's heredoc or pipe is the script, which cannot be checked. */
function stdinScriptGuard(argv: string[], options: readonly string[], what: string): GuardFinding[] {
  const stdin = (value: string | undefined) => value !== undefined && /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/.test(value);
  const index = argv.findIndex((word, i) => {
    if (options.includes(word)) return stdin(argv[i + 1]);
    const eq = word.indexOf('=');
    if (eq > 0 && options.includes(word.slice(0, eq))) return stdin(word.slice(eq + 1));
    return word.startsWith('-f') && !word.startsWith('--') && word.length > 2 && options.includes('-f') && stdin(word.slice(2));
  });
  return index < 0 ? [] : [{ index, guard: `${argv[0]} ${argv[index]}`, message: `${argv[0]} reads ${what} from stdin` }];
}

/** strace's and ltrace's short options that take a value; an -o in a cluster (`-fo '|cmd'`) is read as getopt does. */
const TRACE_VALUED = 'abeEIoOpPsSuUXADFlnwx';

function traceGuard(argv: string[]): GuardFinding[] {
  const output = (word: string, next: string | undefined) => {
    if (!/^-[^-]/.test(word)) return false;
    for (let at = 1; at < word.length; at++) {
      if (!TRACE_VALUED.includes(word[at]!)) continue;
      return word[at] === 'o' && /^[|!]/.test(word.slice(at + 1) || (next ?? ''));
    }
    return false;
  };
  const index = argv.findIndex((word, i) => output(word, argv[i + 1]) || /^--output=[|!]/.test(word));
  return index < 0 ? [] : [{ index, guard: `${argv[0]} -o`, message: `${argv[0]} -o with '|' or '!' pipes its output to a command line` }];
}

/**
 * wget starts the program `--use-askpass` names at once (to ask for a user name), and so does the
 * wgetrc command `use_askpass` given with `-e` or in a `--config` file no check reads: `wget
 * --use-askpass=./deploy.sh URL` runs the repository's script.
 */
function wgetGuard(argv: string[]): GuardFinding[] {
  const findings = optionGuard(argv, 'wget', { '--use-askpass': 'runs the program it names', '--config': 'reads wgetrc commands from a file, which may run a program (use_askpass)' }, null);
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    const long = word.startsWith('--') ? longOption(word.split('=')[0]!, ['--execute']) : null;
    const short = long === null && /^-[^-]/.test(word) ? word.indexOf('e') : -1;
    if (long === null && short < 0) continue;
    const attached = long !== null ? (word.includes('=') ? word.slice(word.indexOf('=') + 1) : null) : word.slice(short + 1) || null;
    const command = attached ?? argv[++i] ?? '';
    // wgetrc commands ignore case, `_` and `-`: USE-ASKPASS is use_askpass.
    if (command.split('=')[0]!.replace(/[-_\s]/g, '').toLowerCase() === 'useaskpass') {
      findings.push({ index: i, guard: 'wget -e use_askpass', message: 'wget -e use_askpass runs the program it names' });
    }
  }
  return findings;
}

/**
 * gh's own configuration holds commands it runs later: an alias that starts with `!` (or is set
 * with `--shell`) is a shell line, the editor, pager and browser are programs, and an extension is
 * a program gh runs as a subcommand. Set by one call, run by the next `gh x`, which `gh *` approves.
 */
function ghGuard(argv: string[]): GuardFinding[] {
  const words = argv.map((word, index) => ({ word, index })).filter(({ word, index }) => index > 0 && !word.startsWith('-'));
  const [group, action] = [words[0]?.word, words[1]?.word];
  const writes =
    (group === 'alias' && (action === 'set' || action === 'import')) ||
    (group === 'config' && action === 'set') ||
    ((group === 'extension' || group === 'extensions' || group === 'ext') && (action === 'install' || action === 'create' || action === 'exec'));
  if (!writes) return [];
  return [{ index: words[1]!.index, guard: `gh ${group} ${action}`, message: `gh ${group} ${action} sets up a command (an alias, an editor, pager or browser, an extension) that a later gh call runs` }];
}

function sqliteGuard(argv: string[]): GuardFinding[] {
  const index = argv.findIndex((word, i) => i > 0 && (/(^|\s|;)\.(shell|system|sh|once|output|import|read|load)\b/.test(word) || /\bedit\s*\(/i.test(word)));
  if (index > 0) return [{ index, guard: 'sqlite3 dot-command', message: `sqlite3 is given a dot-command or edit() that runs a program or opens a file` }];
  // With no SQL in its words it reads stdin, where a dot-command may run a program.
  const operands = argv.slice(1).filter((word) => !word.startsWith('-'));
  return operands.length < 2 ? [{ index: 0, guard: 'sqlite3 stdin', message: 'sqlite3 with no SQL in its words reads stdin, where a dot-command may run a program' }] : [];
}

/** A builtin given a name bash evaluates or a variable it runs (bash-names.ts): `printf -v 'a[$(x)]'` runs x. */
function bashNameGuard(argv: string[]): GuardFinding[] {
  const problem = nameProblem(argv);
  return problem === null ? [] : [{ index: 0, guard: argv[0]!, always: true, message: problem }];
}

/** The findings for one command; the program is looked up by its base name. */
export function argumentGuards(argv: string[], context: GuardContext): GuardFinding[] {
  const program = argv[0];
  if (program === undefined) return [];
  const name = path.posix.basename(program);
  const guard = ownEntry(GUARDS, name) ?? (isCompilerDriver(name) ? compilerGuard : undefined);
  return [...(guard ? guard(argv, context) : []), ...argumentFileGuard(argv)];
}

function interactiveGuard(argv: string[]): GuardFinding[] {
  return [{ index: 0, guard: argv[0]!, always: true, message: `${argv[0]} is interactive and has shell escapes; it has no place in an unattended run` }];
}

function findGuard(argv: string[]): GuardFinding[] {
  const findings: GuardFinding[] = [];
  argv.forEach((arg, index) => {
    if (index === 0) return;
    if (['-exec', '-execdir', '-ok', '-okdir'].includes(arg)) {
      findings.push({ index, guard: `find ${arg}`, message: `find ${arg} runs a command for each file` });
    } else if (arg === '-delete') {
      findings.push({ index, guard: 'find -delete', message: 'find -delete removes files' });
    } else if (/^-fprint/.test(arg) || arg === '-fls') {
      findings.push({ index, guard: `find ${arg}`, message: `find ${arg} writes to a file of its choice` });
    }
  });
  return findings;
}

function ripgrepGuard(argv: string[]): GuardFinding[] {
  const long = {
    '--pre': 'runs a preprocessor program on every file',
    '--pre-glob': 'selects files for a preprocessor program',
    '--search-zip': 'runs decompression programs',
    '--hostname-bin': 'runs a program to get the host name',
  };
  return optionGuard(argv, 'rg', long, /z/);
}

/** npm/npx options that point npm at other configuration, programs or directories. */
function npmGuard(argv: string[], npx: boolean): GuardFinding[] {
  const program = npx ? 'npx' : 'npm';
  const long: Record<string, string> = {
    '--script-shell': 'runs scripts with a shell of its choice',
    '--node-options': 'passes options (such as --require) to node',
    '--prefix': 'works in another directory',
    '--userconfig': 'reads another configuration file',
    '--globalconfig': 'reads another configuration file',
    '--editor': 'runs an editor program',
    '--browser': 'runs a browser program',
    '--shell': 'runs a shell of its choice',
    '--viewer': 'runs a viewer program',
    '--global': 'installs or runs outside the workspace',
    '--location': 'installs or runs outside the workspace',
    '--call': 'runs a shell command',
  };
  const findings = optionGuard(argv, program, long, null);
  argv.forEach((arg, index) => {
    if (arg === '-C') findings.push({ index, guard: `${program} -C`, message: `${program} -C works in another directory` });
    if (arg === '-g') findings.push({ index, guard: `${program} -g`, message: `${program} -g installs or runs outside the workspace` });
    // `npx -c` and `npm exec -c` run a shell command string.
    if (arg === '-c' && (npx || argv.includes('exec') || argv.includes('x'))) {
      findings.push({ index, guard: `${program} -c`, message: `${program} -c runs a shell command` });
    }
  });
  const sub = argv.findIndex((arg, index) => index > 0 && !arg.startsWith('-'));
  if (!npx && sub > 0 && (argv[sub] === 'set' || (argv[sub] === 'config' && ['set', 'edit', 'delete'].includes(argv[sub + 1] ?? '')))) {
    findings.push({ index: sub, guard: 'npm config', message: 'npm config changes settings that later run programs (script-shell, node-options)' });
  }
  return findings;
}

/**
 * awk programs can run commands and write files. Every argument is checked as if it were the
 * program: option parsing differs between awks (and gawk takes abbreviations like `--so` for
 * `--source`), so guessing which word is the program would be a way around the guard.
 */
function awkGuard(argv: string[]): GuardFinding[] {
  const program = argv[0]!;
  const findings: GuardFinding[] = [];
  const loaders = ['--file', '--include', '--load', '--exec'];
  let skipValue = false;
  argv.forEach((arg, i) => {
    // Field separators and -v values are data, not program text (`-F'|'` is common).
    if (i === 0 || skipValue || /^-[Fv]./.test(arg) || /^--(field-separator|assign)=/.test(arg)) {
      skipValue = false;
      return;
    }
    if (['-F', '-v', '--field-separator', '--assign'].includes(arg)) {
      skipValue = true;
      return;
    }
    const name = arg.split('=')[0]!;
    const loader = longOption(name, loaders) ?? (['-f', '-i', '-l', '-E', '-W'].includes(name) || /^-[filEW]./.test(arg) ? name.slice(0, 2) : null);
    if (loader) {
      findings.push({ index: i, guard: `${program} ${loader}`, message: `${program} ${loader} loads program text or code from a file` });
      return;
    }
    const problem = awkProgramProblem(arg);
    if (problem) findings.push({ index: i, guard: `${program} program`, message: `the ${program} program ${problem}` });
  });
  return findings;
}

/** Conservative: a false alarm costs a denial, a miss costs a shell. */
export function awkProgramProblem(program: string): string | null {
  // A backslash before a newline joins the lines (`system\⏎(…)`).
  const text = program.replace(/\\\r?\n/g, ' ');
  if (/\bsystem\s*\(/.test(text)) return 'calls system()';
  if (/\bARG[VC]\b/.test(text)) return 'sets ARGV or ARGC, which choose the files it reads';
  if (/\bgetline\b/.test(text)) return 'uses getline, which can run commands and read files';
  if (text.includes('|')) return "uses '|', which can run commands";
  if (text.includes('@')) return "uses a gawk '@' directive (@load, @include)";
  // Output redirection `print ... > "file"`: a `>` anywhere after a print or printf (a `;` in a
  // string does not end the statement, so statements are not split).
  const printAt = text.search(/\bprintf?\b/);
  if (printAt >= 0 && text.indexOf('>', printAt) > printAt) return "redirects print output to a file ('>')";
  return null;
}

function tarGuard(argv: string[]): GuardFinding[] {
  const long = {
    '--to-command': 'pipes each file to a command',
    '--checkpoint-action': 'can run a command at checkpoints',
    '--use-compress-program': 'runs a compression program',
    '--info-script': 'runs a script at the end of each volume',
    '--new-volume-script': 'runs a script at the end of each volume',
    '--rsh-command': 'runs a remote shell program',
    '--rmt-command': 'runs a remote tape program',
  };
  const findings = [
    ...optionGuard(argv, 'tar', long, /[IF]/),
    ...namesFromGuard(argv, ['--files-from'], 'T', false, ['--file']),
    ...absoluteNamesGuard(argv),
    // Names rewritten as they are extracted: what the listing shows is not what is written.
    ...optionGuard(
      argv,
      'tar',
      {
        '--transform': 'rewrites the names it writes',
        '--xform': 'rewrites the names it writes',
        '--one-top-level': 'writes into a directory named after the archive',
        '--strip-components': 'drops leading parts of the names it writes',
        '--multi-volume': 'reads more than one archive',
        '--incremental': 'deletes what an incremental dump does not hold',
        '--listed-incremental': 'deletes what an incremental dump does not hold',
      },
      /[MGg]/,
    ).map((finding) => ({ ...finding, kind: 'names' as const })),
    ...remoteArchiveGuard(argv),
  ];
  // Old-style first argument (`tar xIf ...`) carries options without a dash.
  const first = argv[1];
  if (first !== undefined && !first.startsWith('-') && /[IF]/.test(first)) {
    findings.push({ index: 1, guard: 'tar I/F', message: 'tar -I/-F runs a program of its choice' });
  }
  return findings;
}

/** Options in any cluster (`-vo ProxyCommand=…`) that run a local program or load code (ssh-options.ts). */
function sshGuard(argv: string[]): GuardFinding[] {
  return sshRunningOptions(argv).map(({ index, letter }) => ({
    index,
    guard: `${argv[0]} -${letter}`,
    message: `${argv[0]} -${letter} ${SSH_LETTERS[letter] ?? 'can run local commands'}`,
  }));
}

const SSH_LETTERS: Readonly<Record<string, string>> = {
  o: 'can run local commands (ProxyCommand, LocalCommand) or load a library (PKCS11Provider)',
  F: 'reads a configuration file that can run local commands (ProxyCommand, LocalCommand)',
  S: 'names another ssh program (or control socket) to run',
  I: 'loads a PKCS#11 library of its choice',
  D: 'starts a local sftp server program of its choice',
  b: "reads a batch file whose '!' lines run local shell commands",
};

/**
 * Long options (with or without `=value`) and, when `shortFlags` is given, short-option
 * clusters holding one of its letters (`rg -iz` as well as `rg -z`).
 */
function optionGuard(argv: string[], program: string, long: Record<string, string>, shortFlags: RegExp | null): GuardFinding[] {
  const findings: GuardFinding[] = [];
  argv.forEach((arg, index) => {
    if (index === 0) return;
    const name = arg.split('=')[0]!;
    const option = Object.hasOwn(long, name) ? name : longOption(name, Object.keys(long));
    if (option) findings.push({ index, guard: `${program} ${option}`, message: `${program} ${option} ${ownEntry(long, option)}` });
    else if (shortFlags && /^-[^-]/.test(arg) && shortFlags.test(arg.slice(1))) {
      findings.push({ index, guard: `${program} ${arg}`, message: `${program} ${arg} uses an option that runs other programs` });
    }
  });
  return findings;
}
