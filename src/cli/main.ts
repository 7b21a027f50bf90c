#!/usr/bin/env node
// Entry point. `--version` is answered before anything else loads (it is measured: <= 100 ms);
// each command's module is imported only when that command runs.
import { readFileSync } from 'node:fs';
import { COMMANDS } from './command-names.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  process.stdout.write(`${pkg.version}\n`);
} else {
  (await import('./stdio.js')).guardStdio();
  // A run must leave a report whenever it is stopped, even while it is still starting.
  if (startsRun(argv)) {
    (await import('../runner/signals.js')).holdSignals();
    // The sandbox probe (a bwrap process) runs on another core while the run's code loads.
    void (await import('../sandbox/detect.js')).detectSandboxSoon();
  }
  const { runCli } = await import('./cli.js');
  process.exitCode = await runCli(argv);
}

/** `run`, or no command at all (`unattended -p "…"`, `unattended "…"`): not help, not another command. */
function startsRun(args: string[]): boolean {
  const first = args[0];
  if (first === 'run') return true;
  if (first === undefined || COMMANDS.has(first)) return false;
  return !args.some((a) => ['--help', '-h', '--version', '--get-yargs-completions'].includes(a));
}
