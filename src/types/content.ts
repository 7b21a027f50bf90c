// The runner's one message model. It is shaped like Gemini's Content/Part types (the seed's API is
// written against them) but declared here, so that tools, policy, loop and transcript never load a
// provider SDK, and every provider maps to and from this shape at its own edge.

export interface InlineData {
  mimeType: string;
  /** base64 */
  data: string;
}

/**
 * A call the model asked for. Arguments that are not a JSON object (invalid JSON, an array, a call
 * cut off by a token limit) are still a call, of their own variant: the loop answers the model
 * with an error result for it instead of the run failing, and no tool ever runs with its `args`.
 */
export type FunctionCall = ParsedFunctionCall | MalformedFunctionCall;

interface FunctionCallBase {
  /** Provider call id when the provider has one; the loop assigns one otherwise. */
  id?: string;
  name: string;
}

export interface ParsedFunctionCall extends FunctionCallBase {
  args: Record<string, unknown>;
  unparsedArguments?: undefined;
}

export interface MalformedFunctionCall extends FunctionCallBase {
  /** Always empty: what the model sent is in `unparsedArguments`. */
  args: Record<string, never>;
  /** The arguments text as the model sent it. */
  unparsedArguments: string;
}

/** The call for an arguments text that is not a JSON object. */
export function malformedCall(name: string, raw: string, id?: string): MalformedFunctionCall {
  return id === undefined ? { name, args: {}, unparsedArguments: raw } : { id, name, args: {}, unparsedArguments: raw };
}

export interface FunctionResponse {
  id?: string;
  name: string;
  response: Record<string, unknown>;
}

export interface Part {
  text?: string;
  inlineData?: InlineData;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  /** Gemini "thought" parts and signatures are carried through untouched. */
  thought?: boolean;
  thoughtSignature?: string;
}

export type Role = 'user' | 'model';

export interface Content {
  role: Role;
  parts: Part[];
}

/** JSON Schema subset the providers accept for function parameters. */
export type JsonSchema = Record<string, unknown>;

export interface FunctionDeclaration {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface TokenUsage {
  input: number;
  output: number;
  total: number;
  /** Cached input tokens, when the provider reports them. */
  cached?: number;
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    total: a.total + b.total,
    cached: (a.cached ?? 0) + (b.cached ?? 0),
  };
}

export const ZERO_USAGE: TokenUsage = Object.freeze({ input: 0, output: 0, total: 0, cached: 0 });
