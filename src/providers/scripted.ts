// The scripted provider: replays model turns from a file, for tests, demos and offline replays of
// a recorded run (recorder.ts writes the same format).
//
// YAML (a `turns:` document; JSON is YAML, so a `{"turns": [...]}` file works too):
//   turns:
//     - text: "Let me look around."          # optional: the model's text
//       calls:                               # optional: function calls, in order
//         - name: read_file
//           args: { absolute_path: "{{workspace}}/README.md" }
//       usage: { input: 1200, output: 40 }   # optional: token usage (cached optional)
//     - text: "Done."
//       finish: max_tokens                   # optional: how the turn ended (default stop/tool_calls)
//     - text: "So far: ..."
//       purpose: compaction_summary          # the answer to a side request (see below)
//
// JSONL: one turn per line, same fields: {"text":"Done.","usage":{"input":1300,"output":5}}.
// Blank lines are skipped.
//
// Which one a file is: .jsonl/.ndjson are JSONL; any other is JSONL when its first non-blank line
// is a JSON object without `turns` (what --record writes, whatever the name), YAML otherwise.
//
// Every generate() consumes the next turn, whatever the request says; running out is
// ProviderError('script_exhausted'). A turn with `purpose: compaction_summary` (what --record writes
// for the summary the runner asks for when it compacts the history) answers only such a side
// request: a replay that does not compact where the recording did skips it, and one that compacts
// where the recording did not gets an error, so its compaction drops the turns without a summary. `{{workspace}}` in any string of `text` or `args` becomes the
// run's workspace root, so a recording replays in another directory. Calls get ids
// `call_<turn>_<i>`. A turn must have text or calls (`text: ""` is a deliberate empty answer);
// unknown keys are errors (a typo such as `call:` would otherwise replay as an empty turn). Errors
// name the file, the turn and its line.
import { ConfigError } from '../types/errors.js';
import { readFileSync } from 'node:fs';
import { utf8TextWithoutBom } from '../util/utf8.js';
import { yaml } from '../util/yaml.js';
import type { FunctionCall, Part, TokenUsage } from '../types/content.js';
import type { FinishReason, GenerateOptions, ModelProvider, ModelRequest, ModelTurn, RequestPurpose } from './provider.js';
import { ProviderError } from './provider.js';

export const WORKSPACE_PLACEHOLDER = '{{workspace}}';

export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

export interface ScriptedTurn {
  text?: string;
  calls?: ScriptedCall[];
  usage?: { input: number; output: number; cached?: number; cache_write?: number; reasoning?: number };
  /** How the turn ended when not normally: replays a cut-off (`max_tokens`) or withheld answer. */
  finish?: FinishReason;
  /** The answer to a side request of the runner (a compaction summary), not an agent turn. */
  purpose?: RequestPurpose;
}

/** A script file that cannot be used; the message names the file, turn and line. */
export class ScriptError extends ConfigError {}

export interface ScriptedProviderOptions {
  file: string;
  workspaceRoot: string;
  model?: string;
}

export function createScriptedProvider(opts: ScriptedProviderOptions): ModelProvider {
  let source: string;
  try {
    source = utf8TextWithoutBom(readFileSync(opts.file));
  } catch (err) {
    throw new ScriptError(`cannot read model script ${opts.file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const turns = parseScript(source, opts.file);
  return new ScriptedProvider(turns, opts.workspaceRoot, opts.file, opts.model ?? 'scripted');
}

export class ScriptedProvider implements ModelProvider {
  readonly name = 'scripted';
  private next = 0;
  private readonly workspaceRoot: string;

  constructor(
    private readonly turns: readonly ScriptedTurn[],
    workspaceRoot: string,
    private readonly file: string,
    readonly model: string = 'scripted',
  ) {
    this.workspaceRoot = trimTrailingSeparator(workspaceRoot);
  }

  async generate(request: ModelRequest, options: GenerateOptions): Promise<ModelTurn> {
    options.signal.throwIfAborted();
    // The recording compacted here and this replay did not: its summary is not an agent turn.
    while (request.purpose === undefined && this.turns[this.next]?.purpose !== undefined) this.next++;
    const index = this.next;
    const turn = this.turns[index];
    if (request.purpose !== undefined && turn?.purpose !== request.purpose) {
      throw new ProviderError('bad_request', `model script ${this.file} has no ${request.purpose} turn at turn ${index + 1}: the recorded run did not ask for one here`);
    }
    if (!turn) {
      throw new ProviderError(
        'script_exhausted',
        `model script ${this.file} has no turn ${index + 1}: all ${this.turns.length} recorded turns were used and the run asked for another`,
      );
    }
    this.next++;
    const text = turn.text === undefined ? undefined : fillWorkspace(turn.text, this.workspaceRoot);
    const functionCalls: FunctionCall[] = (turn.calls ?? []).map((call, i) => ({
      id: `call_${index + 1}_${i}`,
      name: call.name,
      args: fillWorkspace(call.args, this.workspaceRoot),
    }));
    const parts: Part[] = [];
    if (text) parts.push({ text });
    for (const call of functionCalls) parts.push({ functionCall: call });
    if (text && options.onText) options.onText(text);
    const reason = turn.finish ?? (functionCalls.length ? 'tool_calls' : 'stop');
    return { parts, text: text ?? '', functionCalls, usage: toUsage(turn.usage), finish: { reason, raw: turn.finish ?? null } };
  }
}

/** Parses and validates a script (YAML or JSONL, see the top of this file). */
export function parseScript(source: string, file: string): ScriptedTurn[] {
  if (isJsonl(source, file)) return parseJsonl(source, file);
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const line = first.linePos?.[0]?.line;
    throw new ScriptError(`${file}${line ? `:${line}` : ''}: invalid YAML: ${first.message.split('\n')[0]}`);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // An alias bomb: yaml refuses aliases that expand too far.
    throw new ScriptError(`${file}: invalid YAML: ${(error as Error).message}`);
  }
  if (!isObject(data) || !Array.isArray(data.turns)) {
    throw new ScriptError(`${file}: a model script needs a top-level \`turns:\` list (or one JSON turn per line)`);
  }
  const extra = Object.keys(data).filter((key) => key !== 'turns');
  if (extra.length > 0) throw new ScriptError(`${file}: unknown top-level key "${extra[0]}" (expected only \`turns\`)`);
  const items = (doc.get('turns', true) as { items?: { range?: [number, number, number] }[] } | undefined)?.items ?? [];
  return data.turns.map((raw, i) => {
    const offset = items[i]?.range?.[0];
    const line = offset === undefined ? undefined : lineCounter.linePos(offset).line;
    return validateTurn(raw, `${file}${line ? `:${line}` : ''}: turn ${i + 1}`);
  });
}

/**
 * JSONL by its content, whatever the file is called (`--record x.yaml` writes JSONL): a first line
 * that is one JSON object other than `{turns: ...}`. A YAML script needs a top-level `turns:` key, so
 * nothing valid is read the wrong way.
 */
function isJsonl(source: string, file: string): boolean {
  if (/\.(jsonl|ndjson)$/i.test(file)) return true;
  const firstLine = source.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
  if (!firstLine.startsWith('{')) return false;
  try {
    const value = JSON.parse(firstLine) as unknown;
    return isObject(value) && !('turns' in value);
  } catch {
    return false;
  }
}

function parseJsonl(source: string, file: string): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  source.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${file}:${i + 1}: turn ${turns.length + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new ScriptError(`${where}: invalid JSON (${(err as Error).message})`);
    }
    turns.push(validateTurn(value, where));
  });
  return turns;
}

function validateTurn(raw: unknown, where: string): ScriptedTurn {
  if (!isObject(raw)) throw new ScriptError(`${where}: a turn must be an object with text and/or calls`);
  const unknownKey = Object.keys(raw).find((key) => !['text', 'calls', 'usage', 'finish', 'purpose'].includes(key));
  if (unknownKey) throw new ScriptError(`${where}: unknown key "${unknownKey}" (expected text, calls, usage, finish, purpose)`);
  const turn: ScriptedTurn = {};
  if (raw.text !== undefined && raw.text !== null) {
    if (typeof raw.text !== 'string') throw new ScriptError(`${where}: text must be a string`);
    turn.text = raw.text;
  }
  if (raw.calls !== undefined && raw.calls !== null) {
    if (!Array.isArray(raw.calls)) throw new ScriptError(`${where}: calls must be a list`);
    turn.calls = raw.calls.map((call, i) => validateCall(call, `${where}: calls[${i}]`));
  }
  if (turn.text === undefined && !turn.calls?.length) throw new ScriptError(`${where}: has neither text nor calls`);
  if (raw.usage !== undefined && raw.usage !== null) turn.usage = validateUsage(raw.usage, where);
  if (raw.finish !== undefined && raw.finish !== null) {
    if (typeof raw.finish !== 'string' || !FINISH_REASONS.includes(raw.finish as FinishReason)) {
      throw new ScriptError(`${where}: finish must be one of ${FINISH_REASONS.join(', ')}`);
    }
    turn.finish = raw.finish as FinishReason;
  }
  if (raw.purpose !== undefined && raw.purpose !== null) {
    if (raw.purpose !== 'compaction_summary') throw new ScriptError(`${where}: purpose must be compaction_summary`);
    turn.purpose = raw.purpose;
  }
  return turn;
}

const FINISH_REASONS: readonly FinishReason[] = ['stop', 'tool_calls', 'max_tokens', 'safety', 'recitation', 'refusal', 'other'];

function validateCall(raw: unknown, where: string): ScriptedCall {
  if (!isObject(raw)) throw new ScriptError(`${where}: a call must be an object {name, args}`);
  const unknownKey = Object.keys(raw).find((key) => key !== 'name' && key !== 'args');
  if (unknownKey) throw new ScriptError(`${where}: unknown key "${unknownKey}" (expected name, args)`);
  if (typeof raw.name !== 'string' || raw.name.trim() === '') throw new ScriptError(`${where}: name must be a non-empty string`);
  const args = raw.args ?? {};
  if (!isObject(args)) throw new ScriptError(`${where}: args must be an object`);
  return { name: raw.name, args };
}

function validateUsage(raw: unknown, where: string): NonNullable<ScriptedTurn['usage']> {
  if (!isObject(raw)) throw new ScriptError(`${where}: usage must be an object {input, output}`);
  const count = (key: string): number | undefined => {
    const value = raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new ScriptError(`${where}: usage.${key} must be a non-negative integer`);
    }
    return value;
  };
  const unknownKey = Object.keys(raw).find((key) => !OPTIONAL_USAGE.includes(key as never) && key !== 'input' && key !== 'output');
  if (unknownKey) throw new ScriptError(`${where}: unknown key "usage.${unknownKey}" (expected input, output, ${OPTIONAL_USAGE.join(', ')})`);
  const usage: NonNullable<ScriptedTurn['usage']> = { input: count('input') ?? 0, output: count('output') ?? 0 };
  for (const key of OPTIONAL_USAGE) {
    const value = count(key);
    if (value !== undefined) usage[key] = value;
  }
  return usage;
}

function toUsage(usage: ScriptedTurn['usage']): TokenUsage {
  const input = usage?.input ?? 0;
  const output = usage?.output ?? 0;
  const out: TokenUsage = { input, output, total: input + output };
  for (const key of OPTIONAL_USAGE) if (usage?.[key] !== undefined) out[key] = usage[key];
  return out;
}

/** Counts a turn may carry besides input and output, so a recorded run replays with its cache and thinking figures (and is priced alike). */
const OPTIONAL_USAGE = ['cached', 'cache_write', 'reasoning'] as const;

/** Replaces `{{workspace}}` in every string, however deeply nested. */
function fillWorkspace<T>(value: T, root: string): T {
  if (typeof value === 'string') return value.split(WORKSPACE_PLACEHOLDER).join(root) as T;
  if (Array.isArray(value)) return value.map((item) => fillWorkspace(item, root)) as T;
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillWorkspace(v, root)])) as T;
  }
  return value;
}

export function trimTrailingSeparator(root: string): string {
  return root.length > 1 ? root.replace(/[\\/]+$/, '') || root : root;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
