// The history edits compaction makes (compaction.ts decides when). Both keep every tool call
// paired with its result, which providers require (an orphaned result is a 400):
// - long tool outputs in older turns become a one-line note inside the same function response
//   (same name and id), so the part layout — and the indexes stale-reads.ts keeps — do not move;
// - whole older turns are cut from a model entry up to the entry before a later model entry, so a
//   call and its results leave together.
// History entries are replaced, never changed in place (context-estimate.ts measures each once).
import type { Content, Part } from '../types/content.js';
import type { TodoItem } from '../types/changes.js';

/** A tool output (function response) longer than this, in bytes of JSON, is dropped from older turns. */
export const LONG_OUTPUT_BYTES = 2048;

/** Index of the first entry of the last `keep` model turns: the start of what stays verbatim (>= 1). */
export function tailStart(contents: readonly Content[], keep: number): number {
  let seen = 0;
  for (let i = contents.length - 1; i >= 1; i--) {
    if (contents[i]!.role === 'model' && ++seen === keep) return i;
  }
  return 1;
}

/** Replaces long tool outputs and media in entries [from, to) with a note; returns how many. */
export function dropLongOutputs(contents: Content[], from: number, to: number): number {
  let dropped = 0;
  for (let i = from; i < to; i++) {
    const content = contents[i]!;
    if (content.role !== 'user') continue;
    let changed = false;
    const parts = content.parts.map((part): Part => {
      if (part.inlineData) {
        changed = true;
        dropped++;
        return { text: `[${part.inlineData.mimeType} content omitted to fit the context window]` };
      }
      const response = part.functionResponse;
      if (!response) return part;
      const bytes = Buffer.byteLength(JSON.stringify(response.response));
      if (bytes <= LONG_OUTPUT_BYTES) return part;
      changed = true;
      dropped++;
      const note = `[${bytes} bytes of ${response.name} output omitted to fit the context window; call it again if you need it.]`;
      return { functionResponse: { ...response, response: { output: note } } };
    });
    if (changed) contents[i] = { role: content.role, parts };
  }
  return dropped;
}

/** What the summary request shows in place of the rest of an output, or of media. */
const FOR_SUMMARY = {
  rest: (chars: number) => `[… ${chars} more characters not shown here]`,
  media: (mimeType: string) => `[${mimeType} content not shown here]`,
};

/** What the model reads where an output of its last turns was cut to fit the context window. */
export const TO_FIT = {
  rest: (chars: number) =>
    `[… ${chars} more characters of this output cut to fit the context window: ask for a smaller part of it (a range of lines, a narrower search or command) if you need the rest]`,
  media: (mimeType: string) => `[${mimeType} content omitted to fit the context window]`,
};

/**
 * `content` with each tool output (`output` or `error` text) longer than `cap` characters cut to
 * its first `cap`, and media, each followed or replaced by `notes`' words: for a request that must
 * fit, every output keeps its head rather than the oldest losing all. The same object when
 * nothing is longer.
 */
export function capOutputs(content: Content, cap: number, notes: typeof TO_FIT = FOR_SUMMARY): Content {
  if (content.role !== 'user') return content;
  let changed = false;
  const parts = content.parts.map((part): Part => {
    if (part.inlineData) {
      changed = true;
      return { text: notes.media(part.inlineData.mimeType) };
    }
    const response = part.functionResponse;
    if (!response) return part;
    const capped: Record<string, unknown> = { ...response.response };
    let cut = false;
    for (const key of ['output', 'error']) {
      const text = capped[key];
      if (typeof text !== 'string' || text.length <= cap) continue;
      capped[key] = `${text.slice(0, cap)}\n${notes.rest(text.length - cap)}`;
      cut = true;
    }
    if (!cut) return part;
    changed = true;
    return { functionResponse: { ...response, response: capped } };
  });
  return changed ? { role: content.role, parts } : content;
}

/** The longest tool output (`output` or `error` text) in `content`, in characters. */
export function longestOutput(content: Content): number {
  let longest = 0;
  for (const part of content.parts) {
    const response = part.functionResponse?.response;
    for (const text of [response?.output, response?.error]) if (typeof text === 'string') longest = Math.max(longest, text.length);
  }
  return longest;
}

/** Model turns among entries [from, to). */
export function modelTurnsIn(contents: readonly Content[], from: number, to: number): number {
  let turns = 0;
  for (let i = from; i < to; i++) if (contents[i]!.role === 'model') turns++;
  return turns;
}

export interface PinnedState {
  turn: number;
  droppedTurns: number;
  keptTurns: number;
  /** The model's summary; null when none could be written. */
  summary: string | null;
  filesChanged: readonly string[];
  todos: readonly TodoItem[];
  /** A continued run's own request (its prompt came after the earlier runs' turns); null in a first run. */
  latestRequest: string | null;
}

/** What stands after the prompt once older turns are gone: the summary, the files changed and the todo list. */
export function pinnedText(state: PinnedState): string {
  const verbatim = state.latestRequest === null ? 'the prompt above' : 'the first prompt above, the latest request below';
  const lines = [
    `[Context compacted at turn ${state.turn}: ${state.droppedTurns} earlier turns were removed to fit the context window; ${verbatim} and the last ${state.keptTurns} turns are verbatim.]`,
    '',
  ];
  // The request being worked on now: the first prompt's task may be done already.
  if (state.latestRequest !== null) lines.push('## The latest request (the one to act on)', state.latestRequest, '');
  lines.push('## Summary of the work so far', state.summary?.trim() || '(No summary could be written: read the files again where you need their current content.)');
  if (state.filesChanged.length > 0) lines.push('', '## Files changed so far', ...state.filesChanged.map((file) => `- ${file}`));
  if (state.todos.length > 0) lines.push('', '## Todo list', ...state.todos.map((todo) => `- [${todo.status}] ${todo.content}`));
  return lines.join('\n');
}

export const SUMMARY_REQUEST =
  'The conversation above is about to be shortened to fit the context window: everything but the prompt and the last turns will be replaced by your summary. ' +
  'Write that summary now, so that you can continue the task without the older turns: what the task is, what you found (paths, names, facts), ' +
  'what you changed and why, what failed, what remains to do and what you were about to do next. Be specific. Do not call any tool: answer with the summary only.';

/** A copy of `content` with a text part added (so the request ends with one user entry). */
export function withText(content: Content, text: string): Content {
  return { role: content.role, parts: [...content.parts, { text }] };
}
