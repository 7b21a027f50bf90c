// --record FILE: every model turn of a run, written as it happens in the scripted provider's JSONL
// format, so a live run can be replayed offline (`--provider scripted --script FILE`).
// One appendFileSync per turn keeps the file whole-lined and useful even if the process dies.
// The workspace root inside text and call arguments becomes `{{workspace}}`, so the replay works
// in another directory.
import { appendFileSync, truncateSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { InputError, UserFacingError } from '../types/errors.js';
import { ExitCode } from '../types/outcome.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { makeDirs } from '../util/make-dirs.js';
import { checkOutputFile, type OutputInput } from '../util/user-output.js';
import type { GenerateOptions, ModelProvider, ModelRequest, ModelTurn } from './provider.js';
import { sameModelAs } from './provider.js';
import { WORKSPACE_PLACEHOLDER, trimTrailingSeparator, type ScriptedTurn } from './scripted.js';

/** `inputs`: files the run reads (the recipe, its script) that the recording must never replace. */
export function recordTurns(inner: ModelProvider, file: string, workspaceRoot: string, inputs: readonly OutputInput[] = []): ModelProvider {
  const dir = path.dirname(path.resolve(file));
  try {
    makeDirs(dir);
  } catch (error) {
    throw new InputError(`--record ${file}: cannot create its directory ${dir} (${errorCode(error)})`, 'name a file in a directory you can write: --record FILE');
  }
  checkOutputFile(file, '--record', inputs);
  try {
    // A link at the path is replaced, not followed: the turns are appended to a file of their own.
    writeFileAtomic(path.resolve(file), '');
  } catch (error) {
    throw new InputError(`--record ${file}: cannot write it (${errorCode(error)})`, 'name a file in a directory you can write: --record FILE');
  }
  const templatize = workspaceTemplater(workspaceRoot);
  // Bytes of whole lines written: a failed append (ENOSPC) may leave part of a line, cut back to here.
  let written = 0;
  let turns = 0;
  return {
    ...sameModelAs(inner),
    async generate(request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
      const turn = await inner.generate(request, options);
      const scripted = toScriptedTurn(turn, templatize);
      if (request.purpose) scripted.purpose = request.purpose;
      const line = `${JSON.stringify(scripted)}\n`;
      try {
        appendFileSync(file, line);
      } catch (error) {
        throw new RecordWriteError(file, error, keepWholeTurns(file, written, turns));
      }
      written += Buffer.byteLength(line);
      turns += 1;
      return turn;
    },
  };
}

/**
 * The recording cannot take a turn (disk full, its file gone): one of the run's own files, so the
 * run stops with exit 54 naming it, as for the transcript, never as a model failure (exit 1).
 */
export class RecordWriteError extends UserFacingError {
  readonly kind = 'io';
  readonly exitCode = ExitCode.fatalTool;
  constructor(file: string, cause: unknown, left: string) {
    super(`cannot write --record ${file}: ${errorCode(cause)}; ${left}`, 'free space there, or record elsewhere with --record FILE');
  }
}

/**
 * After a failed append: the file cut back to its whole turns, so --script can replay it, or removed
 * when it holds none (an empty recording replays nothing and only looks like one). Says which.
 */
function keepWholeTurns(file: string, bytes: number, turns: number): string {
  try {
    if (turns === 0) {
      unlinkSync(file);
      return 'nothing was recorded, and the empty file was removed';
    }
    truncateSync(file, bytes);
    return `it keeps the ${turns} whole turn${turns === 1 ? '' : 's'} before it`;
  } catch (error) {
    return `and it could not be cut back to its whole turns (${errorCode(error)}): its last line may be cut`;
  }
}

export function toScriptedTurn(turn: ModelTurn, templatize: (s: string) => string = (s) => s): ScriptedTurn {
  const out: ScriptedTurn = {};
  if (turn.text !== '' || turn.functionCalls.length === 0) out.text = templatize(turn.text);
  if (turn.functionCalls.length > 0) {
    out.calls = turn.functionCalls.map((call) => ({ name: call.name, args: mapStrings(call.args, templatize) }));
  }
  if (turn.finish.reason !== 'stop' && turn.finish.reason !== 'tool_calls') out.finish = turn.finish.reason;
  out.usage = { input: turn.usage.input, output: turn.usage.output };
  if (turn.usage.cached) out.usage.cached = turn.usage.cached;
  if (turn.usage.cache_write) out.usage.cache_write = turn.usage.cache_write;
  if (turn.usage.reasoning) out.usage.reasoning = turn.usage.reasoning;
  return out;
}

/** Replaces the root wherever it is a whole path: `/ws/a` and `cd /ws`, not `/ws-other`. */
function workspaceTemplater(workspaceRoot: string): (s: string) => string {
  const root = trimTrailingSeparator(workspaceRoot);
  if (root.length <= 1) return (s) => s;
  // Not followed by a name character: `/ws.` ends a sentence, `/ws.bak` and `/ws-old` are siblings.
  const pattern = new RegExp(`${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-]|\\.[\\w-])`, 'g');
  return (s) => s.replace(pattern, WORKSPACE_PLACEHOLDER);
}

function mapStrings<T>(value: T, fn: (s: string) => string): T {
  if (typeof value === 'string') return fn(value) as T;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, fn)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)])) as T;
  }
  return value;
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
