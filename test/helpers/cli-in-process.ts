// The CLI's own entry (runCli: yargs, the commands, the runner, the outputs) called inside the test
// process, for table-driven cases: the same code path as dist/cli/main.js minus the process, whose
// start costs 0.3-0.5 s of a two-core machine each time. Every file that uses it keeps at least one
// case on the built CLI (helpers/cli.ts), which is what ships.
//
// What a process gives for free is provided here: its own working directory, environment, stdout,
// stderr and signal handlers. Calls are queued, since those are the process's globals, and each is
// restored afterwards. Piped stdin is given as a string (`stdin`; default none, as on a terminal),
// never read from the test process's own. Not provided: process.exit (the commands return their
// code; only a second signal exits).
import type { RunLauncher } from '../../src/batch/launch-run.js';
import { runCli } from '../../src/cli/cli.js';
import { baseEnv, type CliOptions, type CliResult, ROOT } from './cli.js';

let queue: Promise<unknown> = Promise.resolve();

export interface InProcessOptions extends Omit<CliOptions, 'input'> {
  /** What a pipe would give the run on stdin; null or absent: nothing is piped. */
  stdin?: string | null;
  /** How `batch` starts each target's run (default: a child process, as the CLI does). */
  launchRun?: RunLauncher;
}

export function cliInProcess(args: string[], opts: InProcessOptions = {}): Promise<CliResult> {
  const result = queue.then(() => once(args, opts));
  queue = result.catch(() => undefined);
  return result;
}

type Write = typeof process.stdout.write;

async function once(args: string[], opts: InProcessOptions): Promise<CliResult> {
  const saved = {
    cwd: process.cwd(),
    env: { ...process.env },
    stdout: process.stdout.write,
    stderr: process.stderr.write,
    log: console.log,
    sigint: process.listeners('SIGINT'),
    sigterm: process.listeners('SIGTERM'),
    sighup: process.listeners('SIGHUP'),
  };
  const stdout: string[] = [];
  const stderr: string[] = [];
  const capture = (into: string[]): Write => ((chunk: string | Uint8Array) => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as Write;
  try {
    process.chdir(opts.cwd ?? ROOT);
    replaceEnv(baseEnv(opts.env));
    process.stdout.write = capture(stdout);
    process.stderr.write = capture(stderr);
    // yargs prints help and completions with console.log, which the test runner takes over.
    console.log = (...parts: unknown[]) => void stdout.push(`${parts.join(' ')}\n`);
    const code = await runCli(args, { stdin: opts.stdin ?? null, ...(opts.launchRun ? { launchRun: opts.launchRun } : {}) });
    // As cli() gives them: execa strips one final newline.
    return { code, stdout: stripFinalNewline(stdout.join('')), stderr: stripFinalNewline(stderr.join('')) };
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    console.log = saved.log;
    replaceEnv(saved.env);
    process.chdir(saved.cwd);
    // A run leaves handlers that exit with its code on a late signal: right for a process, not here.
    for (const [name, before] of [['SIGINT', saved.sigint], ['SIGTERM', saved.sigterm], ['SIGHUP', saved.sighup]] as const) {
      for (const listener of process.listeners(name)) if (!before.includes(listener)) process.off(name, listener);
    }
  }
}

const stripFinalNewline = (text: string) => text.replace(/\r?\n$/, '');

/** The test runner's own variables stay: its worker reads them while a case is running. */
const RUNNER_VARIABLE = /^(VITEST|VITE_|NODE_ENV$|TEST$)/;

function replaceEnv(next: Record<string, string | undefined>): void {
  for (const key of Object.keys(process.env)) if (!(key in next) && !RUNNER_VARIABLE.test(key)) delete process.env[key];
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}
