// A tool call the server did not parse, left in the answer's text. A server turns the model's
// tool-call markup into `tool_calls` only when its parser is the model's (vLLM's
// --tool-call-parser, llama.cpp's --jinja templates, Ollama's model template); otherwise, or when
// the model garbles one call, the markup comes back as plain `content` with finish_reason "stop"
// (vllm-project/vllm#17161, #16214; NousResearch/hermes-agent#39099). Taken as the final answer, a
// run that never did its work ended as a success. Found by the markup of each model family naming
// a tool the request offers, so prose about tools is left alone.

/** Each family's call markup, capturing the function's name. */
const MARKUP: readonly RegExp[] = [
  /<tool_call>\s*\{\s*"name"\s*:\s*"([^"]+)"/, // Hermes, Qwen 2.5/3
  /<tool_call>\s*<function=([^>\s]+)>/, // Qwen3-Coder
  /<\|python_(?:tag|start)\|>\s*\{\s*"name"\s*:\s*"([^"]+)"/, // Llama 3.x, Llama 4 JSON
  /\[TOOL_CALLS\]\s*\[\s*\{\s*"name"\s*:\s*"([^"]+)"/, // Mistral, JSON list
  /\[TOOL_CALLS\]\s*([\w.-]+)\s*\[(?:ARGS|CALL_ID)\]/, // Mistral, newer tokenizers
  /<function=([\w.-]+)\s*[>{(]/, // Llama 3.x as Groq and others prompt it
  /<minimax:tool_call>\s*<invoke name="([^"]+)"/, // MiniMax M2
  // DeepSeek V3, V3.1: <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME, its bars fullwidth (U+FF5C) and its
  // spaces U+2581, written as escapes: the bundle stays ASCII (scripts/build.mjs says why).
  /<\uFF5Ctool\u2581call\u2581begin\uFF5C>\s*(?:function<\uFF5Ctool\u2581sep\uFF5C>)?([^<\s]+?)\s*(?:<\uFF5Ctool\u2581sep\uFF5C>|\n)/,
  /<\|tool_call_begin\|>\s*(?:functions\.)?([\w.-]+?)(?::\d+)?\s*<\|tool_call_argument_begin\|>/, // Kimi K2
  /<\|channel\|>[^<]*\bto=functions\.([\w.-]+)/, // gpt-oss (harmony)
  /^\s*\[\s*([A-Za-z_][\w.-]*)\(/, // pythonic (Llama 3.2, Llama 4): the whole answer a list of calls
];

/** The name of the offered tool a leaked call in `text` calls, or null. */
export function leakedToolCall(text: string, offers: (name: string) => boolean): string | null {
  for (const pattern of MARKUP) {
    const name = pattern.exec(text)?.[1];
    if (name !== undefined && offers(name)) return name;
  }
  return null;
}

// A call the server did parse, its name cut where its parser slipped. gpt-oss writes a call in
// harmony as `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}<|call|>`;
// vLLM, LM Studio and Ollama builds return some with the rest of that markup in the name
// (`create_event<|channel|>commentary`, `read_file<|constrain|>json`, `functions.read_file`;
// vllm-project/vllm#22578). Taken as it came, the call was 'Unknown tool' and cost a turn.

/** Where a name holding template markup is worth a look: nothing else is touched, nor scanned further. */
const MARKED = /<\||^functions\./;

/**
 * The offered tool a call's `name` stands for, once template markup around it is cut: the name
 * before the first `<|`, without harmony's `functions.` namespace. `name` itself when it is no
 * such name, or when what is left is no tool the request offers (then 'Unknown tool' says so).
 */
export function nameWithoutTemplateTokens(name: string, offers: (name: string) => boolean): string {
  if (!MARKED.test(name) || offers(name)) return name;
  const cut = name.split('<|', 1)[0]!.trim().replace(/^functions\./, '');
  return cut !== '' && offers(cut) ? cut : name;
}
