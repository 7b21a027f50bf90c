// Thinking a server left in the answer's text. A reasoning model served without a reasoning parser
// (Qwen3, QwQ or DeepSeek-R1 on vLLM or SGLang without --reasoning-parser, llama.cpp without
// --reasoning-format, MiniMax M2 by design) sends its thinking as `<think>…</think>` at the start of
// `content`, or only the closing tag when the chat template opened it. Taken as it is, a final
// answer began with pages of drafts, and an answer that was nothing but thinking counted as one.
//
// The history keeps the text as the server sent it (MiniMax asks for its thinking back, and the
// others' templates drop it); only what the run takes as the answer leaves it out.

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * The answer in `text`: without a leading `<think>…</think>` block, or what comes before a
 * `</think>` no `<think>` opened. An unclosed `<think>` is all thinking: the answer is empty.
 */
export function withoutInlineThinking(text: string): { answer: string; thought: boolean } {
  const start = text.length - text.trimStart().length;
  if (text.startsWith(OPEN, start)) {
    const close = text.indexOf(CLOSE, start + OPEN.length);
    return { answer: close === -1 ? '' : text.slice(close + CLOSE.length), thought: true };
  }
  const close = text.indexOf(CLOSE);
  if (close !== -1 && !text.slice(0, close).includes(OPEN)) return { answer: text.slice(close + CLOSE.length), thought: true };
  return { answer: text, thought: false };
}

/**
 * Why a turn that ended at the output-token limit holds no answer, and what to change: a reasoning
 * model can spend the whole budget thinking, and asking again spends it the same way.
 * `thinkingBudget`: the provider takes provider_options.thinking_budget (anthropic). `notOurCap`:
 * the run sent no cap, and what ended the answer instead (ModelTurn.notOurCap): nothing to raise.
 */
export function noAnswerWithinOutputLimit(finish: string, thought: boolean, thinkingBudget = false, notOurCap?: string): string {
  const spent = thought ? ', all of it spent thinking' : '';
  if (notOurCap) return `a limit ended the model's answer before any text or tool call (finish reason ${finish})${spent}: ${notOurCap}`;
  const fix = thinkingBudget ? 'raise provider_options.max_output_tokens, or lower provider_options.thinking_budget' : 'raise provider_options.max_output_tokens';
  return `the model's output-token limit ended its answer before any text or tool call (finish reason ${finish})${spent}: ${fix}`;
}
