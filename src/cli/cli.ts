// The command line: argv -> options (parser.ts) -> a command's handler -> exit code. Thin on purpose.
// yargs parses and validates; the handler is dispatched here after parsing. A plain `run` line is
// parsed without loading yargs (run-argv.ts), to the same arguments.
import type { RunLauncher } from '../batch/launch-run.js';
import { ExitCode } from '../types/outcome.js';
import { attachDashValues, withWordsAfterDashes } from './dash-words.js';
import { InputError } from '../types/errors.js';
import { reportCliError } from './errors.js';
import { plainRunArgs } from './run-argv.js';
import { writeTo } from './stdio.js';

/** What an in-process caller (a test, an embedding program) gives instead of the process's own. */
export interface CliIo {
  /** Piped input; null: none, as on a terminal. */
  stdin?: string | null;
  /** How `batch` starts each target's run; default: a child process of this CLI (batch/launch-run.ts). */
  launchRun?: RunLauncher;
}

export async function runCli(typed: string[], io: CliIo = {}): Promise<number> {
  const argv = attachDashValues(typed);
  const plain = plainRunArgs(argv);
  if (plain) {
    try {
      return await (await import('./commands/run.js')).runCommand(plain.args, { bare: plain.bare, io });
    } catch (error) {
      return reportCliError(error);
    }
  }
  const { commandLine, printUsageError } = await import('./parser.js');
  // One line however many yargs reports: a missing positional comes as "Not enough non-option
  // arguments" and then "Missing required argument: source", which names it.
  const failures: string[] = [];
  const { parser, bare, knownFlags, dashHints } = commandLine(argv, (message) => failures.push(message));
  // A run's line the parser refused still answers in the format it asked for (a script parsing
  // stdout as JSON reads the refusal, not nothing), as a line refused after parsing does (run.ts).
  const refusedAs = async (error: unknown): Promise<void> => {
    const { requestedMachineFormat, printRefusal } = await import('./refused-stream.js');
    const format = requestedMachineFormat(argv, bare || argv[0] === 'run');
    if (format) printRefusal(format, error, process.cwd(), (s) => writeTo(process.stdout, s));
  };
  let dispatched = false;
  try {
    if (argv[0] === 'completion' && argv.length === 1) {
      parser.showCompletionScript();
      return ExitCode.success;
    }
    const args = await parser.parseAsync();
    if (failures.length > 0) {
      const failure = failures.find((m) => m.startsWith('Missing required argument')) ?? failures[0]!;
      printUsageError(failure, argv, knownFlags, dashHints);
      await refusedAs(new InputError(failure));
      return ExitCode.badInput;
    }
    if (args.help || args.version) return ExitCode.success;
    // yargs printed the completion script or the completions themselves.
    if (args['get-yargs-completions'] !== undefined) return ExitCode.success;
    const [name, ...rest] = args._.map(String);
    // Words after `--` stay in `_`: for run they are its recipe or prompt, never a command name.
    if (name === 'run') {
      dispatched = true;
      const recipeFlag = (await import('./first-argument.js')).recipeFlagTyped(argv);
      return await (await import('./commands/run.js')).runCommand(withWordsAfterDashes(args as { recipe?: string; words?: string[] }, rest) as never, { bare, io, recipeFlag });
    }
    const command = [name, ...rest].join(' ');
    const handler = HANDLERS[command];
    if (!handler) {
      process.stderr.write(`unattended: unknown command '${command}'\nRun 'unattended --help' for usage.\n`);
      return ExitCode.badInput;
    }
    return await handler(args, io);
  } catch (error) {
    // `--timeout -1s`: parsed again as `--timeout=-1s`, so the flag's own check says what is wrong.
    const { DashValuesJoined } = await import('./misread-flags.js');
    if (error instanceof DashValuesJoined) return runCli(error.argv, io);
    const code = reportCliError(error);
    if (!dispatched) await refusedAs(error);
    return code;
  }
}

type Args = Record<string, any>;

/** Each command's module is imported only when that command runs. */
const HANDLERS: Record<string, (args: Args, io: CliIo) => Promise<number> | number> = {
  validate: async (a) => (await import('./commands/validate.js')).validateCommand(a.recipes as string[]),
  tools: async (a) => (await import('./commands/tools.js')).toolsCommand(a.recipe ?? null, a.json, a.param, { tools: a.tools, mcpConfig: a['mcp-config'] }),
  'policy check': async (a) =>
    (await import('./commands/policy-check.js')).policyCheckCommand({
      recipe: a.recipe ?? null,
      tool: a.tool,
      args: a.args,
      params: a.param,
      workspace: a.workspace ?? null,
      approval: a.approval ?? null,
      allow: a.allow,
      deny: a.deny,
    }),
  convert: async (a) => (await import('./commands/convert.js')).convertCommand({ recipe: a.recipe, out: a.out ?? null }),
  report: async (a) => (await import('./commands/report.js')).reportCommand({ source: a.source, format: a.format, out: a.out ?? null }),
  batch: async (a, io) => (await import('./commands/batch.js')).batchCommand(a as never, io),
  'batch matrix': async (a) => (await import('./commands/batch-fleet.js')).matrixCommand(a as never),
  'batch status': async (a) => (await import('./commands/batch-fleet.js')).statusCommand({ dir: a.dir as string, json: a.json }),
  'batch merge': async (a) => (await import('./commands/batch-fleet.js')).mergeCommand({ dirs: a.dirs as string[], out: a.out, allowPartial: a['allow-partial'], allowFailures: a['allow-failures'] }),
};
