// The command line (yargs): argv -> options -> a command's handler -> exit code. Thin on purpose.
import yargs, { type Argv } from 'yargs';
import { ExitCode } from '../loop/outcome.js';
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
          .option('json', { type: 'boolean', default: false, describe: 'Print the function declarations as JSON' }),
      async (args) => setExit(await (await import('./commands/tools.js')).toolsCommand(args.recipe ?? null, args.json)),
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
    .demandCommand(1, 'Name a command: run, validate, tools or policy check.')
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
