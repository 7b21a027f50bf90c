// The runner's one message model. It is shaped like Gemini's Content/Part types (the seed's API is
// written against them) but declared here, so that tools, policy, loop and transcript never load a
// provider SDK, and every provider maps to and from this shape at its own edge.

export interface InlineData {
  mimeType: string;
  /** base64 */
  data: string;
}

export interface FunctionCall {
  /** Provider call id when the provider has one; the loop assigns one otherwise. */
  id?: string;
  name: string;
  args: Record<string, unknown>;
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

/**
 * Arguments that were not a JSON object (invalid JSON, cut off by a token limit) arrive as
 * `{ __invalid_json__: raw }`, so the loop can answer the model with an error instead of failing.
 */
export const INVALID_ARGUMENTS_KEY = '__invalid_json__';

/** The raw arguments text when the model sent arguments that are not a JSON object; else null. */
export function invalidArgumentsOf(call: FunctionCall): string | null {
  const raw = call.args[INVALID_ARGUMENTS_KEY];
  return Object.keys(call.args).length === 1 && typeof raw === 'string' ? raw : null;
}
