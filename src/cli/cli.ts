// The command line (yargs): argv -> options -> a command's handler -> exit code. Thin on purpose.
import yargs, { type Argv } from 'yargs';
import { ExitCode } from '../loop/outcome.js';
import { batchOptions, matrixOptions, mergeOptions } from './commands/batch-options.js';
import { runOptions } from './commands/run-options.js';
import { reportCliError } from './errors.js';

export async function runCli(argv: string[]): Promise<number> {
  let exitCode: number = ExitCode.success;
  const setExit = (code: number) => {
    exitCode = code;
  };
  const parser: Argv = yargs(argv)
    .scriptName('unattended')
    .usage('$0 <command> [options]\n\nRun an LLM coding agent with nobody at the keyboard.')
    .command(
      'run [recipe]',
      'Run a recipe (or an ad-hoc one made from flags) to the end, and write its transcript and report',
      runOptions,
      async (args) => setExit(await (await import('./commands/run.js')).runCommand(args)),
    )
    .command(
      'validate <recipes..>',
      'Check recipes against the schema and their semantics; problems as file:line:col: message',
      (y) => y.positional('recipes', { type: 'string', array: true, demandOption: true }),
      async (args) => setExit(await (await import('./commands/validate.js')).validateCommand(args.recipes as string[])),
    )
    .command(
      'tools [recipe]',
      'List the tools the model would get, with their schemas',
      (y) =>
        y
          .positional('recipe', { type: 'string' })
          .option('json', { type: 'boolean', default: false, describe: 'Print the function declarations as JSON' })
          .option('param', { type: 'string', array: true, default: [] as string[], describe: 'Recipe parameter k=v (repeatable)' }),
      async (args) => setExit(await (await import('./commands/tools.js')).toolsCommand(args.recipe ?? null, args.json, args.param)),
    )
    .command(
      'policy check <recipe>',
      'What the policy decides for one call, as JSON {decision, reason, rule}, without any model',
      (y) =>
        y
          .positional('recipe', { type: 'string', demandOption: true })
          .option('tool', { type: 'string', demandOption: true, describe: 'Tool name, e.g. shell' })
          .option('args', { type: 'string', default: '{}', describe: 'The call arguments as JSON' })
          .option('param', { type: 'string', array: true, default: [], describe: 'Recipe parameter k=v' })
          .option('workspace', { type: 'string', describe: 'Workspace directory (overrides the recipe)' }),
      async (args) =>
        setExit(
          await (await import('./commands/policy-check.js')).policyCheckCommand({
            recipe: args.recipe,
            tool: args.tool,
            args: args.args,
            params: args.param,
            workspace: args.workspace ?? null,
          }),
        ),
    )
    .command('batch', 'Run a recipe over many repositories; fan out across CI jobs (matrix) and merge their reports', (y) =>
      y
        .command(
          '$0 <recipe>',
          'Run RECIPE on every target of --targets, each in its own workspace and child process',
          batchOptions,
          async (args) => setExit(await (await import('./commands/batch.js')).batchCommand(args)),
        )
        .command('matrix', 'Print a GitHub Actions matrix of shards for --targets', matrixOptions, async (args) =>
          setExit((await import('./commands/batch-fleet.js')).matrixCommand(args)),
        )
        .command('merge <dirs..>', "Combine the batch reports of several jobs (shards) into one", mergeOptions, async (args) =>
          setExit((await import('./commands/batch-fleet.js')).mergeCommand({ dirs: args.dirs as string[], out: args.out })),
        ),
    )
    .demandCommand(1, 'Name a command: run, validate, tools, policy check or batch.')
    .strict()
    .version()
    .help()
    .alias('h', 'help')
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((message, error) => {
      if (error) throw error;
      process.stderr.write(`unattended: ${message}\nRun 'unattended --help' for usage.\n`);
      setExit(ExitCode.badInput);
    })
    .exitProcess(false);
  try {
    await parser.parseAsync();
  } catch (error) {
    return reportCliError(error);
  }
  return exitCode;
}
