#!/usr/bin/env node
// The `unattended` command (package.json "bin"; the build copies this file to dist/cli/). CommonJS,
// not an ES module, so the quick answers come before Node starts its ES module loader: `--version`
// here (39 instead of 51 ms on the 2-core machine this is built on; a bare `node -e 0`: 32 ms), help
// and shell completion from help.cjs, the command line's grammar alone (src/cli/help.ts). Everything
// else is dist/cli/main.js, imported as it is.
'use strict';

const args = process.argv.slice(2);
// The bundle takes Node's builtins through process.getBuiltinModule (Node 20.16+; package.json's
// engines says 20.19). Older, every command would die in a stack trace: say so instead.
if (typeof process.getBuiltinModule !== 'function') {
  process.stderr.write(`unattended: Node.js ${process.version} is too old: unattended needs Node.js 20.19 or newer\n`);
  process.exitCode = 52;
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  process.stdout.write(`${require('../../package.json').version}\n`);
} else if (asksForHelp(args)) {
  require('./help.cjs')
    .answerHelp(args)
    .then((code) => (code === undefined ? runMain() : (process.exitCode = code)));
} else {
  runMain();
}

function runMain() {
  let settled = false;
  import('./main.js').then(
    () => (settled = true),
    (error) => {
      settled = true;
      throw error;
    },
  );
  // main.js awaits the whole command at its top level. Run as the entry module, Node exits 13 if
  // that await is still pending when nothing is left to wait for; imported, it would exit 0, a
  // success that never happened. Keep the 13.
  process.on('exit', (code) => {
    if (!settled && code === 0) process.exitCode = 13;
  });
}

/** `--help`/`-h` anywhere before a `--`, `completion` alone, or a shell asking for completions. */
function asksForHelp(argv) {
  if (argv[0] === '--get-yargs-completions' || (argv[0] === 'completion' && argv.length === 1)) return true;
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  return options.includes('--help') || options.includes('-h');
}
