#!/usr/bin/env node
// The `unattended` command (package.json "bin"; the build copies this file to dist/cli/ and stamps
// BUILD below). CommonJS, not an ES module: Node's ES module loader never starts for a run.
// `--version` is answered here, help and shell completion by help.cjs (the command line's grammar
// alone, src/cli/help.ts), and everything else by dist/cli/main.cjs, the command's code as one
// CommonJS file, compiled with a V8 code cache when there is one (code-cache.cjs says why and where).
'use strict';

/** The build's id (a hash of main.cjs), stamped by scripts/build.mjs: it names the code cache. */
const BUILD = null;
/** The commands besides `run` (src/cli/command-names.ts): each has a code cache of its own. */
const OTHER_COMMANDS = new Set(['validate', 'tools', 'policy', 'convert', 'report', 'batch', 'completion']);

const args = helpWord(process.argv.slice(2));
// The bundle takes Node's builtins through process.getBuiltinModule (Node 20.16+; package.json's
// engines says 20.19). Older, every command would die in a stack trace: say so instead.
if (typeof process.getBuiltinModule !== 'function') {
  process.stderr.write(`unattended: Node.js ${process.version} is too old: unattended needs Node.js 20.19 or newer\n`);
  process.exitCode = 52;
} else if (!cwdExists()) {
  // A shell standing in a directory that was removed (a branch switch, an `rm -rf` of a temporary
  // checkout): every command reads the current directory (the default --out and workspace, relative
  // paths), and Node's process.cwd() would end it in a stack trace.
  process.stderr.write('unattended: the current directory no longer exists (it was removed after the shell entered it)\ncd to a directory that exists and run the command again\n');
  process.exitCode = 42;
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === 'version')) {
  keepStdoutHonest();
  process.stdout.write(`${require('../../package.json').version}\n`);
} else if (asksForHelp(args)) {
  keepStdoutHonest();
  require('./help.cjs')
    .answerHelp(args)
    .then((code) => (code === undefined ? runMain() : (process.exitCode = code)));
} else {
  runMain();
}

function runMain() {
  let settled = false;
  const command = OTHER_COMMANDS.has(args[0]) ? args[0] : 'run';
  if (command === 'run') holdEarlySignals();
  const { main } = require('./code-cache.cjs').load(require('node:path').join(__dirname, 'main.cjs'), BUILD, command);
  main(args).then(
    (code) => {
      settled = true;
      process.exitCode = code;
    },
    (error) => {
      settled = true;
      throw error;
    },
  );
  // A command whose promise never settles, once nothing is left to wait for, would end as exit 0:
  // a success that never happened. Exit 13, as Node does for an entry module's unsettled
  // top-level await.
  process.on('exit', (code) => {
    if (!settled && code === 0) process.exitCode = 13;
  });
}

/**
 * A run must leave a report when it is stopped, even while its code loads (a few hundred ms, more
 * on a busy machine): until then Node's own handler would end the process by the signal, with
 * nothing written. The first signal is kept for the run (src/runner/signals.ts takes it over); a
 * second ends the process at once, as a second one does before anything is written.
 */
function holdEarlySignals() {
  const names = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  const early = { first: null, release: () => handlers.forEach(([name, handler]) => process.off(name, handler)) };
  const handlers = names.map((name) => [name, () => (early.first === null ? (early.first = name) : process.exit(codes[name]))]);
  handlers.forEach(([name, handler]) => process.on(name, handler));
  globalThis[Symbol.for('unattended.earlySignals')] = early;
}

/**
 * What the launcher answers itself (--version, help, the completion script) is printed as the
 * command's code prints (src/cli/stdio.ts): a reader gone (`| head -1`) is no loss, but output lost
 * where it was to be kept (`unattended completion >> ~/.bashrc` on a full disk: ENOSPC, EDQUOT,
 * EFBIG) exits 54 and says so, not 0 over a cut script, nor 1 in a stack trace.
 */
function keepStdoutHonest() {
  let lost = null;
  process.stdout.on('error', (error) => {
    if (['ENOSPC', 'EDQUOT', 'EFBIG'].includes(error.code)) lost = lost || error;
  });
  process.on('exit', (code) => {
    if (!lost || code === 54) return;
    process.stderr.write(`unattended: exit 54: the command ended with exit ${code}, but what it printed on stdout could not be written (${lost.message})\n`);
    process.exitCode = 54;
  });
}

function cwdExists() {
  try {
    process.cwd();
    return true;
  } catch {
    return false;
  }
}

/**
 * `unattended help` and `unattended help batch merge`, as codex, goose, git and gh take them: that
 * help, not a run (a paid one) whose prompt is "help", which the default command's positional
 * prompt made of it. More words than a command's name (`help me fix the test`) stay a prompt.
 */
function helpWord(argv) {
  if (argv[0] !== 'help') return argv;
  const [command, sub, ...more] = argv.slice(1);
  const commands = new Set(['run', ...OTHER_COMMANDS]);
  const subcommands = { policy: ['check'], batch: ['status', 'matrix', 'merge'] };
  if (command === undefined) return ['--help'];
  if (!commands.has(command) || more.length > 0) return argv;
  if (sub === undefined) return [command, '--help'];
  return (subcommands[command] ?? []).includes(sub) ? [command, sub, '--help'] : argv;
}

/** `--help`/`-h` anywhere before a `--`, `completion` alone, or a shell asking for completions. */
function asksForHelp(argv) {
  if (argv[0] === '--get-yargs-completions' || (argv[0] === 'completion' && argv.length === 1)) return true;
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  return options.includes('--help') || options.includes('-h');
}
