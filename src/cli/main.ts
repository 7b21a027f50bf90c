// The command's code, entered by the launcher (scripts/bin/unattended.cjs, which answers --version
// and help itself). The build makes this and everything it imports one CommonJS file,
// dist/cli/main.cjs; each command's module still initialises only when that command runs.
import { ExitCode } from '../types/outcome.js';
import { COMMANDS } from './command-names.js';

/** Runs the command `argv` names; resolves to the process's exit code. */
export async function main(argv: string[]): Promise<number> {
  (await import('./stdio.js')).guardStdio();
  // batch prints its own workflow commands (::group::) and stops them around each run's details itself.
  if (process.env.GITHUB_ACTIONS === 'true' && argv[0] !== 'batch') (await import('./workflow-guard.js')).suspendWorkflowCommands(process.env);
  // A run must leave a report whenever it is stopped, even while it is still starting.
  if (!startsRun(argv)) {
    // The launcher held signals as for a run: not one after all, so a signal kept ends it as it would have.
    const early = (await import('../runner/signals.js')).takeEarlySignal();
    if (early === 'SIGHUP') (await import('../util/hung-up-terminal.js')).noteHangUp();
    if (early && early !== 'timeout') process.exit((await import('../loop/stop.js')).signalExitCode(early));
  } else {
    const { holdSignals, exitOnFault, onEarlyFault } = await import('../runner/signals.js');
    holdSignals();
    // Before the run has a directory, a fault still answers in the format asked for (no module loads until one happens).
    onEarlyFault(async (error) => {
      const { requestedMachineFormat, printRefusal } = await import('./refused-stream.js');
      const format = requestedMachineFormat(argv, true);
      if (format) printRefusal(format, error, process.cwd(), (s) => void process.stdout.write(s));
    });
    // An error nothing caught still ends the run with its report (signals.ts), not in a stack trace.
    process.on('uncaughtException', exitOnFault);
    process.on('unhandledRejection', exitOnFault);
    // The sandbox probe (a bwrap process) runs on another core while the run's code loads.
    void (await import('../sandbox/detect.js')).detectSandboxSoon();
  }
  const { runCli } = await import('./cli.js');
  const code = await stdoutKept(await runCli(argv));
  // Stopped by a signal: the report is written and the flushes had their deadlines, so an export a
  // collector never answers does not hold the process past them (its own timeout could be 10 s).
  // A batch a signal stopped (its exit code says so) likewise: its last export had its deadline.
  const batchStopped = argv[0] === 'batch' && ([ExitCode.sigint, ExitCode.sigterm, ExitCode.sighup] as number[]).includes(code);
  // So does an export given up on at its flush deadline (a collector that does not answer): the
  // deadline, cut short once the collector is known not to answer, is what the command waits.
  const abandoned = (await import('../telemetry/unanswered.js')).exportsOutstanding();
  if (abandoned || batchStopped || (startsRun(argv) && (await import('../runner/signals.js')).stoppedBySignal())) setTimeout(() => process.exit(code), 100).unref();
  return code;
}

/**
 * Stdout redirected to a file that filled up (`--output-format json > report.json` on a full disk):
 * the report or answer a later step parses is not there, so the command exits 54, as a run whose
 * report file cannot be written does, and says so; a reader that went away (`| head -1`) is no loss.
 */
async function stdoutKept(code: number): Promise<number> {
  // A failed write is told a few ticks after it (the stream's error event): the last one too.
  await new Promise((resolve) => setImmediate(resolve));
  const lost = (await import('./stdio.js')).lostStdout();
  if (!lost || code === ExitCode.fatalTool) return code;
  process.stderr.write(`unattended: exit ${ExitCode.fatalTool}: the command ended with exit ${code}, but what it printed on stdout could not be written (${lost.message})\n`);
  return ExitCode.fatalTool;
}

/** `run`, or no command at all (`unattended -p "…"`, `unattended "…"`): not help, not another command. */
function startsRun(args: string[]): boolean {
  const first = args[0];
  if (first === 'run') return true;
  if (first === undefined || COMMANDS.has(first)) return false;
  return !args.some((a) => ['--help', '-h', '--version', '--get-yargs-completions'].includes(a));
}
