// Each model family's tool-call markup, as its chat template writes it (the templates vLLM ships
// under examples/ and the models' own tokenizer configs), found in an answer's text when it calls
// a tool the request offers; prose about tools is not.
import { describe, expect, it } from 'vitest';
import { leakedToolCall } from '../../src/providers/leaked-tool-call.js';

const offers = (name: string) => name === 'read_file';

describe('a tool call left in the text', () => {
  it.each([
    ['Hermes / Qwen', 'Reading.\n<tool_call>\n{"name": "read_file", "arguments": {"absolute_path": "/w/a"}}\n</tool_call>'],
    ['Qwen3-Coder', '<tool_call>\n<function=read_file>\n<parameter=absolute_path>\n/w/a\n</parameter>\n</function>\n</tool_call>'],
    ['Llama 3.1', '<|python_tag|>{"name": "read_file", "parameters": {"absolute_path": "/w/a"}}'],
    ['Llama 4', '<|python_start|>{"name": "read_file", "parameters": {"absolute_path": "/w/a"}}<|python_end|>'],
    ['Mistral, JSON list', '[TOOL_CALLS][{"name": "read_file", "arguments": {"absolute_path": "/w/a"}}]'],
    ['Mistral, newer tokenizers', '[TOOL_CALLS]read_file[ARGS]{"absolute_path": "/w/a"}'],
    ['Llama as Groq prompts it', '<function=read_file{"absolute_path": "/w/a"}</function>'],
    ['MiniMax M2', '<minimax:tool_call>\n<invoke name="read_file">\n<parameter name="absolute_path">/w/a</parameter>\n</invoke>\n</minimax:tool_call>'],
    ['DeepSeek V3', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n{"absolute_path": "/w/a"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'],
    ['DeepSeek V3.1', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"absolute_path": "/w/a"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'],
    ['Kimi K2', '<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"absolute_path": "/w/a"}<|tool_call_end|><|tool_calls_section_end|>'],
    ['gpt-oss', '<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"absolute_path": "/w/a"}<|call|>'],
    ['pythonic', '[read_file(absolute_path="/w/a")]'],
  ])('%s', (_family, text) => {
    expect(leakedToolCall(text, offers)).toBe('read_file');
  });

  it('is not prose about tools, nor markup naming a tool the run does not offer', () => {
    expect(leakedToolCall('I used read_file to read /w/a: it says hello.', offers)).toBeNull();
    expect(leakedToolCall('[read_file] was called (see above).', offers)).toBeNull();
    expect(leakedToolCall('<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call>', offers)).toBeNull();
  });
});
