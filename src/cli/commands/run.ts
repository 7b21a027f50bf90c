// `unattended run` (and `unattended "…"`, `unattended -p "…"`): flags and stdin -> a RunRequest;
// the runner does the rest.
import fs from 'node:fs';
import path from 'node:path';
import type { RecipeOverrides } from '../../recipe/index.js';
import { messageAsModelProblem } from '../../recipe/model-aliases.js';
import { latestRunDir, runDirOfId } from '../../runner/continuation.js';
import { looksLikeRunId } from '../../runner/run-id.js';
import { executeRun } from '../../runner/execute-run.js';
import { holdSignals } from '../../runner/signals.js';
import { InputError } from '../../types/errors.js';
import { ExitCode } from '../../types/outcome.js';
import { classifyError, reportCliError } from '../errors.js';
import { classifyFirstArgument, looksLikePath, recipeFlagArgument, refuseMistypedCommand, refusePeerCommand } from '../first-argument.js';
import { readPipedStdin, stdinIsPiped } from '../stdin.js';
import { writeTo } from '../stdio.js';
import { colorEnabled } from '../../util/terminal.js';
import { numberFlag, type RunArgs } from './run-options.js';

export interface RunCommandOptions {
  /** No command was named (`unattended -p "…"`): with nothing to do, print usage rather than start a run. */
  bare: boolean;
  /** `io.stdin` given: used instead of the process's stdin (in-process callers). */
  io: { stdin?: string | null };
  /** The recipe was named with `--recipe` (goose's flag): a recipe, never the prompt. */
  recipeFlag?: boolean;
}

export async function runCommand(args: RunArgs, { bare, io, recipeFlag }: RunCommandOptions): Promise<number> {
  // Held since the CLI started (main.ts): a signal while stdin is read still ends in a report.
  const stop = holdSignals();
  const cwd = process.cwd();
  // Refused before the run had a directory: stream-json still opens with init and ends with result,
  // and json still prints the report.
  const refuse = async (error: unknown): Promise<number> => {
    if (args['output-format'] === 'stream-json') (await import('../refused-stream.js')).streamRefusedRun(error, cwd, (s) => writeTo(process.stdout, s));
    if (args['output-format'] === 'json') (await import('../refused-stream.js')).printRefusedReport(error, cwd, (s) => writeTo(process.stdout, s));
    return reportCliError(error);
  };
  let first;
  let continueFrom: string | null = null;
  try {
    // No value (`--out` last, `--out "$DIR"` with DIR unset) resolved to the current directory: the
    // run's transcript and reports went into it, among the user's files.
    if (args.out !== undefined && String(args.out).trim() === '') throw new InputError('--out names no directory: it was given an empty value', 'give --out DIR, or leave it out for .unattended/runs/<run-id>');
    // Empty, it recorded nothing, and said nothing of it.
    if (args.record !== undefined && String(args.record).trim() === '') throw new InputError('--record names no file: it was given an empty value', 'give --record FILE, or leave it out');
    const notModel = messageAsModelProblem(args.model);
    if (notModel) throw new InputError(notModel.message, notModel.hint);
    first = recipeFlag && args.recipe !== undefined ? recipeFlagArgument(args.recipe, args.words ?? [], cwd) : classifyFirstArgument(args.recipe, args.words ?? [], cwd);
    if (bare && first.kind === 'prompt') {
      refusePeerCommand(args.recipe, args.words ?? []);
      refuseMistypedCommand(args.recipe, args.words ?? [], cwd);
    }
    if (args.continue !== undefined) {
      const from = continueSource(args.continue, cwd);
      continueFrom = from.run ?? latestRunDir(cwd);
      if (from.prompt !== null) {
        if (first.kind === 'prompt') throw new InputError(`two prompts: '${from.prompt}' and '${first.text}'`, 'give the follow-up once');
        first = { kind: 'prompt' as const, text: from.prompt };
      }
    }
    if (first.kind === 'prompt' && args.prompt !== undefined) {
      throw new InputError(`two prompts: '${first.text}' and --prompt '${args.prompt}'`, 'give the task once: as the first argument or with -p');
    }
  } catch (error) {
    return refuse(error);
  }
  // `unattended` alone, on a terminal: there is nothing to run, and no run directory is made for it.
  const piped = io.stdin !== undefined ? io.stdin !== null : stdinIsPiped();
  if (bare && first.kind === 'none' && args.prompt === undefined && continueFrom === null && !(args.stdin && piped)) {
    // Piped, but --no-stdin keeps it unread: "pipe it on stdin" alone would send the user to the pipe.
    const unread = piped ? ' (stdin is piped, and --no-stdin says not to read it)' : '';
    const message = `give a task: unattended -p "…", unattended RECIPE.yaml, or pipe it on stdin${unread}`;
    // Asked for JSON (`unattended --output-format json` with nothing to run): the refusal, as any other.
    const format = args['output-format'];
    if (format === 'json' || format === 'stream-json') (await import('../refused-stream.js')).printRefusal(format, new InputError(message), cwd, (s) => writeTo(process.stdout, s));
    process.stderr.write(`unattended: ${message}\nRun 'unattended --help' for usage and examples.\n`);
    return ExitCode.badInput;
  }
  let stdinText: string | null;
  try {
    stdinText = !args.stdin ? null : io.stdin !== undefined ? io.stdin : await readPipedStdin(undefined, stop);
  } catch (error) {
    // Piped input refused (too big, not UTF-8 text): refused like any input before the run's
    // directory, so `--output-format json` still prints the report a script parses.
    return refuse(error);
  }
  // `-p -`: the prompt is standard input, as `unattended -` and `codex exec -` read it (not a prompt
  // of '-' with stdin as its context).
  const promptFromStdin = first.kind !== 'prompt' && args.prompt === '-';
  const stdinContext = promptFromStdin ? null : stdinText;
  if (promptFromStdin && !args.stdin) {
    return refuse(new InputError('-p -: the prompt is to be read from standard input, which --no-stdin says not to read', 'drop --no-stdin, or give the prompt as -p "…"'));
  }
  if (promptFromStdin && !stdinText?.trim()) {
    return refuse(new InputError('-p -: no prompt was piped on standard input', 'pipe it (echo "…" | unattended -p -), or give it as -p "…"'));
  }
  const overrides: RecipeOverrides = {
    prompt: first.kind === 'prompt' ? first.text : promptFromStdin ? (stdinText ?? '') : args.prompt,
    provider: args.provider,
    model: args.model,
    approval: args.approval,
    allow: args.allow,
    deny: args.deny,
    workspace: args.workspace,
    maxTurns: numberFlag(args['max-turns']),
    maxToolCalls: numberFlag(args['max-tool-calls']),
    maxTokens: numberFlag(args['max-tokens']),
    timeout: args.timeout,
    modelIdleTimeout: args['model-idle-timeout'],
    modelRetries: numberFlag(args['model-retries']),
    sandbox: args.sandbox,
    script: args.script,
    baseUrl: args['base-url'],
    maxDenials: numberFlag(args['max-denials']),
    failOnDenial: args['fail-on-denial'],
    checks: args.check,
    requireChanges: args['require-changes'],
    checkRetries: numberFlag(args['check-retries']),
    checkTimeout: args['check-timeout'],
    stream: args.stream,
    maxCostUsd: numberFlag(args['max-cost-usd']),
    tools: args.tools,
    mcpConfig: args['mcp-config'],
    appendSystemPrompt: args['append-system-prompt'],
    outputSchema: args['output-schema'],
    context: args.context,
  };
  let result;
  let printed = false;
  try {
    result = await executeRun({
      invocation: {
        cwd,
        recipe: first.kind === 'recipe' ? path.resolve(cwd, first.file) : null,
        params: args.param,
        overrides: withoutUnset(overrides),
      },
      continueFrom,
      stdinContext,
      stdinIgnored: !args.stdin,
      outDir: args.out ?? null,
      format: args['output-format'],
      record: args.record ?? null,
      env: process.env,
      streams: { stdout: (s) => {
          printed = true;
          writeTo(process.stdout, s);
        }, stderr: (s) => writeTo(process.stderr, s), color: colorEnabled(process.stderr, process.env) },
      classifySetupError: classifyError,
    });
  } catch (error) {
    // What executeRun throws comes before its outputs opened (an --out that holds a run); a stream
    // already begun is not given a second start.
    return printed ? reportCliError(error) : refuse(error);
  }
  return result.exitCode;
}

/**
 * `--continue RUN_DIR`, `--continue RUN_ID`, `--continue` (the latest run), and `--continue "Now fix
 * it"` (the latest run with that follow-up, as `codex exec resume --last "…"` reads): the value is a
 * run when it exists, looks like a path or like a run id, the follow-up prompt otherwise. A run id
 * that names no run is refused: taken for a prompt, a typo would start a paid run from another one.
 */
function continueSource(value: string, cwd: string): { run: string | null; prompt: string | null } {
  if (value === '') return { run: null, prompt: null };
  if (fs.existsSync(path.resolve(cwd, value)) || looksLikePath(value)) return { run: value, prompt: null };
  if (looksLikeRunId(value)) return { run: runDirOfId(value, cwd), prompt: null };
  // Codex's `-c model="o3"` sets a config value; taken as a follow-up it would start a paid run on
  // the prompt "model=o3" (or be "two prompts" beside -p): no follow-up is one key=value word.
  if (/^[A-Za-z_][\w.-]*=\S*$/.test(value)) {
    throw new InputError(
      `--continue (-c) '${value}': here -c is --continue, as in Claude Code (go on from an earlier run), not Codex's -c key=value`,
      'give settings as flags (-m NAME, --approval MODE, --sandbox MODE, --max-turns N) or in a recipe; a follow-up prompt goes with -p',
    );
  }
  return { run: null, prompt: value };
}

/** Flags not given are absent, so the recorded invocation says only what the user said. */
function withoutUnset(overrides: RecipeOverrides): RecipeOverrides {
  const set = Object.entries(overrides).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0));
  return Object.fromEntries(set) as RecipeOverrides;
}
