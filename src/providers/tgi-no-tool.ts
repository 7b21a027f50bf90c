// Text Generation Inference (TGI) answers `tool_choice: auto` by offering the model one more tool
// of its own: when the model chooses no tool, TGI 2.0–2.3 returns a call to `notify_error` whose
// `error` argument is the model's answer, and some later builds a call to `no_tool` whose `content`
// is (huggingface/text-generation-inference#2597 unrolled it into text from 2.4 on). Taken as a
// call, it reached the model as an unknown tool and the run went round until its turn limit. A
// call to either, alone in its turn and to no tool the run offered, is the model's text.
import type { FunctionCall } from '../types/content.js';

/** The pseudo-tools and the argument that holds the model's text. */
const PSEUDO_TOOLS: ReadonlyMap<string, string> = new Map([
  ['notify_error', 'error'],
  ['no_tool', 'content'],
]);

/** The text a lone pseudo-tool call stands for, or null when `calls` are real calls. */
export function pseudoToolText(calls: readonly FunctionCall[], offers: (name: string) => boolean): string | null {
  if (calls.length !== 1) return null;
  const [call] = calls as [FunctionCall];
  const argument = PSEUDO_TOOLS.get(call.name);
  if (argument === undefined || offers(call.name)) return null;
  const text = call.args?.[argument];
  return typeof text === 'string' && text.trim() !== '' ? text : null;
}
