// The command line's grammar (yargs): every command, option, example and help text. Only defines;
// cli.ts dispatches a parsed command to its handler, and help.ts answers --help from the same
// grammar without loading anything a command needs.
import { choicesInOurWords } from './choice-errors.js';
import yargs, { type Argv } from 'yargs';
import { batchOptions, matrixOptions, mergeOptions, statusOptions } from './commands/batch-options.js';
import { runOptions } from './commands/run-options.js';
import { COMMANDS, SUBCOMMANDS } from './command-names.js';
import { missingPositional } from './missing-positionals.js';
import { HELP_EXAMPLES } from './examples.js';
import { withMisreadFlagsRefused } from './misread-flags.js';
import { peerCommandHint, peerFlagHint, unknownArgumentsOnce } from './peer-flags.js';
import { nearFlagHint } from './flag-typos.js';
import { runFlagHint } from './flag-homes.js';
import { multiGitterHint } from './batch-peer-flags.js';
import { dashPositionalHint } from './dash-positionals.js';

export interface CommandLine {
  parser: Argv;
  /** `unattended "…"` or `unattended -p "…"`: `run` was implied, not typed. */
  bare: boolean;
  /** The selected command's flags, once parsed: what an unknown one may be a typo of. */
  knownFlags: string[];
  /** `--out -x`: how to give a flag-shaped word as a flag's value, said if yargs refuses the line (misread-flags.ts). */
  dashHints: string[];
}

/** The parser for argv; onFail gets yargs' message when argv does not parse (unknown option, …). */
export function commandLine(argv: string[], onFail: (message: string) => void): CommandLine {
  // `unattended "…"` and `unattended -p "…"` are `unattended run …`, as `claude -p` and `gemini -p`
  // are. Added here rather than as yargs' default command, whose ~45 options would then be measured
  // and laid out for every top-level --help (~0.1-0.3 s of string-width on this machine).
  const bare = argv.length === 0 || (!COMMANDS.has(argv[0]!) && !TOP_LEVEL_FLAGS.has(argv[0]!));
  const words = bare ? ['run', ...argv] : argv;
  const parser: Argv = yargs(words)
    .scriptName('unattended')
    .usage('$0 [PROMPT | RECIPE] [options]\n$0 <command> [options]\n\nRun an LLM coding agent with nobody at the keyboard.')
    .command(
      'run [recipe] [words..]',
      'Run a recipe, or a prompt with flags, to the end, and write its transcript and report (the default command)',
      runOptions,
    )
    .command(
      'validate <recipes..>',
      'Check recipes against the schema and their semantics; problems as file:line:col: message',
      (y) => y.positional('recipes', { type: 'string', array: true, demandOption: true }),
    )
    .command(
      'tools [recipe]',
      'List the tools the model would get, with their schemas',
      (y) =>
        y
          .positional('recipe', { type: 'string' })
          .option('json', { type: 'boolean', default: false, describe: 'Print the function declarations as JSON' })
          .option('param', { type: 'string', array: true, default: [] as string[], describe: 'Recipe parameter k=v (repeatable)' })
          // run's flags that change what the model is offered: the list shows what that run would get.
          .option('tools', { type: 'string', array: true, describe: "The built-in tools offered, as run's --tools: 'read_file,grep,edit' ('' offers none)" })
          .option('mcp-config', { type: 'string', array: true, describe: "MCP servers from a JSON file in the mcpServers format, as run's --mcp-config (repeatable)" }),
    )
    .command('policy', 'Test the confirmation policy without any model', (y) =>
      y
        .command('check [recipe]', 'What the policy decides for one call, as JSON {decision, reason, rule}', (c) =>
          c
            // Without one, the policy of a run given no recipe: its --approval, --allow and --deny alone.
            .positional('recipe', { type: 'string', describe: "The recipe; without one, a run's flags alone (as run -p with them)" })
            .option('tool', { type: 'string', demandOption: true, describe: 'Tool name, e.g. shell' })
            .option('args', { type: 'string', default: '{}', describe: 'The call arguments as JSON' })
            .option('param', { type: 'string', array: true, default: [], describe: 'Recipe parameter k=v' })
            .option('workspace', { type: 'string', describe: 'Workspace directory (overrides the recipe)' })
            // The same policy flags as run, so a run's --approval/--allow/--deny can be checked too.
            .option('approval', { choices: ['auto-approve', 'deny', 'allowlist'] as const, describe: 'Confirmation policy mode (overrides the recipe)' })
            .option('allow', { type: 'string', array: true, default: [] as string[], describe: "Allow rule, 'tool' or 'tool:pattern' (repeatable), added as run adds it" })
            .option('deny', { type: 'string', array: true, default: [] as string[], describe: "Deny rule, 'tool' or 'tool:pattern' (repeatable), added as run adds it" }),
        )
        .demandCommand(1, 'Name a policy command: check.'),
    )
    .command('convert <recipe>', 'Rewrite a goose recipe in this format, saying what was ignored (`run` also takes goose recipes as they are)', (y) =>
      y
        .positional('recipe', { type: 'string', demandOption: true, describe: 'A goose recipe (YAML or JSON)' })
        .option('out', { type: 'string', describe: 'Write to FILE instead of stdout' }),
    )
    .command('report <source>', 'Re-render the report of a run from its transcript alone (a run directory or transcript.jsonl)', (y) =>
      y
        .positional('source', { type: 'string', demandOption: true, describe: 'RUN_DIR or TRANSCRIPT' })
        .option('format', { choices: ['md', 'json'] as const, default: 'md' as const, describe: 'report.md or report.json' })
        .option('out', { type: 'string', describe: 'Write to FILE instead of stdout' }),
    )
    .command('batch', 'Run a recipe over many repositories; fan out across CI jobs (matrix) and merge their reports', (y) =>
      y
        .command('$0 <recipe>', 'Run RECIPE on every target (--targets, --org, --topic, --search), each in its own workspace and child process', batchOptions)
        .command('matrix', 'Print a GitHub Actions matrix of shards for --targets', matrixOptions)
        .command('merge <dirs..>', 'Combine the batch reports of several jobs (shards) into one', mergeOptions)
        .command('status <dir>', "Each target's pull request now: open, merged or closed, and its checks", statusOptions),
    )
    .completion('completion', 'Print a bash/zsh completion script (unattended completion >> ~/.bashrc)', (_current: string, _argv: unknown, defaults: (then: (error: Error | null, words: string[] | undefined) => void) => void, done: (words: string[]) => void) => {
      // yargs offers batch's default command as `$0`, and a one-letter alias after `--` as `--p`.
      defaults((_error, words) => done(tidyCompletions(words ?? [])));
    })
    .strict()
    .version()
    .help()
    .alias('h', 'help')
    .epilogue('Peers\' habits work: claude -p / gemini -p / qwen -p "…" is unattended -p "…"; codex exec "…" is unattended run "…".')
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((message, error) => {
      if (error) throw error;
      onFail(message);
    })
    .exitProcess(false);
  const dashHints: string[] = [];
  withMisreadFlagsRefused(parser, words, bare ? 1 : 0, dashHints);
  // yargs calls a middleware with the selected command's instance (misread-flags.ts), before it
  // refuses an unknown flag: its options are what a typo is compared with.
  const knownFlags: string[] = [];
  const noteFlags = (_parsed: unknown, instance: { getOptions(): { key: Record<string, unknown> } }) => {
    knownFlags.splice(0, knownFlags.length, ...Object.keys(instance.getOptions().key));
  };
  parser.middleware(noteFlags as never, true);
  for (const [command, description] of HELP_EXAMPLES) parser.example(command, description);
  skipHelpCaching(parser);
  return { parser, bare, knownFlags, dashHints };
}

/**
 * The parser that completes `unattended batch RECIPE --<TAB>`: batch's default command is yargs'
 * `$0 <recipe>` inside `batch`, whose builder yargs never runs for a completion, so its flags
 * (--targets, --org, --dry-run...) were never offered, only --help and --version. Here the same
 * flags hang on `batch <recipe>` itself; used for completion only (help.ts decides when).
 */
export function batchRunCompletionParser(argv: string[]): Argv {
  return yargs(argv)
    .scriptName('unattended')
    .command('batch <recipe>', 'Run RECIPE on every target', batchOptions)
    .completion('completion', false, (_current: string, _argv: unknown, defaults: (then: (error: Error | null, words: string[] | undefined) => void) => void, done: (words: string[]) => void) => {
      defaults((_error, words) => done(tidyCompletions(words ?? [])));
    })
    .version()
    .help()
    .exitProcess(false);
}

/** Completions a shell can use: no `$0`, and a one-letter alias with its one dash (`-p`, not `--p`). */
export function tidyCompletions(words: readonly string[]): string[] {
  const tidy = words
    .filter((w) => w !== '$0' && !w.startsWith('$0:'))
    .map((w) => w.replace(/^--([A-Za-z])(?=$|:)/, '-$1'))
    // The on/off flags as they are used and documented: --no-stream, not --stream, which is on already.
    .map((w) => w.replace(/^--(context|stream|stdin)(?=$|:)/, '--no-$1'));
  return [...new Set(tidy)];
}

/** How a command line that does not parse is told: the message, and where to look. */
export function printUsageError(message: string, argv: readonly string[] = [], knownFlags: readonly string[] = [], dashHints: readonly string[] = []): void {
  // The help of the command that was typed (`unattended report --help`), not the whole list.
  const sub = argv[1] !== undefined && SUBCOMMANDS.has(argv[1]) ? `${argv[1]} ` : '';
  const command = argv[0] !== undefined && COMMANDS.has(argv[0]) ? `${argv[0]} ${sub}` : '';
  // A flag run takes, given to another command, is no typo: where it belongs, before "did you mean".
  const home = command && peerCommandHint(argv) === null ? runFlagHint(message, command.trim()) : null;
  // A peer's flag answered with one of run's (`--yolo`: --approval auto-approve), which batch does not take either: where it goes for a batch.
  // multi-gitter's flags to batch (`-m` its commit message, `-C` its concurrency): answered as that tool's before any other's.
  const gitter = command.trim() === 'batch' ? multiGitterHint(message, argv) : null;
  const peerHint = gitter === null ? peerFlagHint(message, argv) : null;
  const forBatch = peerHint && command.trim() === 'batch' ? "batch does not take run's flags: every target's run takes the recipe's settings (confirmation: {mode: …}, model, limits, ...)" : null;
  // `--out -x`: the flag-shaped value is named as what it may be, after what it may mean as a flag.
  const dashHint = /^Unknown arguments?: /.test(message) ? (dashHints[0] ?? null) : dashPositionalHint(message, argv.slice(command === '' ? 0 : command.trim().split(' ').length), knownFlags);
  const peer = [peerCommandHint(argv), gitter ?? peerHint ?? home ?? nearFlagHint(message, knownFlags), forBatch, dashHint].filter((h) => h !== null).join('\n');
  const said = missingPositional(message, command.trim()) ?? unknownArgumentsOnce(choicesInOurWords(message));
  process.stderr.write(`unattended: ${said}\n${peer ? `${peer}\n` : ''}Run 'unattended ${command}--help' for usage.\n`);
}

const TOP_LEVEL_FLAGS: ReadonlySet<string> = new Set(['--help', '-h', '--version', '-v', '--get-yargs-completions']);

/**
 * yargs renders and caches the whole help text every time it selects a command, in case the
 * handler shows help later (~25 ms of every start-up, which is measured). Nothing here shows help
 * after a command started, so the cache is skipped; help itself renders as usual.
 */
function skipHelpCaching(parser: Argv): void {
  const internals = (parser as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } })
    .getInternalMethods?.()
    .getUsageInstance?.();
  if (internals?.cacheHelpMessage) internals.cacheHelpMessage = () => {};
}
