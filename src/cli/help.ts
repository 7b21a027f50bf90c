// `--help`, `-h` and shell completion, answered from the command line's grammar alone. The launcher
// (scripts/bin/unattended.cjs) requires this file's CommonJS bundle, dist/cli/help.cjs, for those
// requests: no ES module loader, no command code, so `unattended --help` takes ~80 instead of
// ~105 ms on the 2-core machine this is built on (a bare `node -e 0`: 33 ms).
import { ExitCode } from '../types/outcome.js';
import { batchRunCompletionParser, commandLine, printUsageError } from './parser.js';

/**
 * The exit code once help or completions are printed; undefined when argv turned out not to ask for
 * them (nothing printed then: the caller runs the command line in full).
 */
export async function answerHelp(argv: string[]): Promise<number | undefined> {
  argv = completingTheRunCommand(argv);
  let failure: string | undefined;
  if (completingTheBatchRun(argv)) {
    await batchRunCompletionParser(argv).parseAsync();
    return ExitCode.success;
  }
  const { parser } = commandLine(argv, (message) => (failure = message));
  if (argv[0] === 'completion' && argv.length === 1) {
    parser.showCompletionScript();
    return ExitCode.success;
  }
  // yargs' completion command has no help of its own: it printed the script, then refused `completion`.
  if (argv[0] === 'completion' && argv.slice(1).every((a) => a === '--help' || a === '-h')) {
    process.stdout.write(COMPLETION_HELP);
    return ExitCode.success;
  }
  const args = await parser.parseAsync();
  if (!args.help && args['get-yargs-completions'] === undefined) return undefined;
  if (failure === undefined) return ExitCode.success;
  printUsageError(failure);
  return ExitCode.badInput;
}

/**
 * `unattended -p x --output-format <TAB>` runs the default command, `run`, as peers' users type it:
 * completed as `unattended run -p x --output-format`, so its flags and their values are offered
 * (yargs offered the command names there). A first word that is no option still completes commands.
 */
function completingTheRunCommand(argv: string[]): string[] {
  if (argv[0] !== '--get-yargs-completions' || argv.length < 3) return argv;
  const [flag, program, first, ...rest] = argv;
  // The completion script passes the words as typed, the command's own name first.
  if (!/(^|\/)unattended(\.c?js)?$/.test(program!)) return argv;
  return first!.startsWith('-') ? [flag!, program!, 'run', first!, ...rest] : argv;
}

const BATCH_SUBCOMMANDS: ReadonlySet<string> = new Set(['matrix', 'merge', 'status']);

/**
 * `unattended batch r.yaml --<TAB>` or `unattended batch --<TAB>`: batch's default command, run on a
 * recipe. A first word still being typed (`unattended batch m<TAB>`) completes the subcommands,
 * and a subcommand typed (`batch merge d --<TAB>`) completes its own flags, as yargs does.
 */
function completingTheBatchRun(argv: string[]): boolean {
  if (argv[0] !== '--get-yargs-completions') return false;
  const [command, first, ...more] = argv.slice(2);
  if (command !== 'batch' || first === undefined) return false;
  if (BATCH_SUBCOMMANDS.has(first)) return false;
  return more.length > 0 || first.startsWith('-');
}

const COMPLETION_HELP = `unattended completion

Print a bash/zsh completion script for unattended. Add it to your shell once:

  unattended completion >> ~/.bashrc     (zsh: >> ~/.zshrc)

The script calls \`unattended\` on PATH: with a checkout used through npx, link it first (npm link).
`;
