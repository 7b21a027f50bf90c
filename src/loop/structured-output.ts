// Structured output (recipe `output.schema`): the run succeeds only with a final answer that is JSON
// (bare, or in one ```json fence) and validates against the schema. An answer that does not is sent
// back with what is wrong; after `output.max_attempts` answers in all, the run fails.
import { compileAnswerSchema, type SchemaValidator } from '../util/json-schema.js';
import type { AnswerVerdict } from './loop-hooks.js';

export type ParsedAnswer = { ok: true; value: unknown } | { ok: false; error: string };

const FENCE = /```[ \t]*(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/g;
/** The whole answer one fence on one line (```json {"a":1}```), as models write a short value. */
const ONE_LINE_FENCE = /^```[ \t]*(?:json|JSON)?[ \t]*([[{][^\n]*?)[ \t]*```$/;

const THINK_END = '</think>';

/**
 * The JSON value of an answer: the whole answer, or the one fenced block in it. Thinking a server
 * left in the text (Qwen3 or DeepSeek-R1 on vLLM without a reasoning parser: `<think>…</think>`,
 * or only the closing tag when the template opened it) is not part of the answer: its drafts and
 * fences would make a valid answer unreadable, every attempt.
 */
export function parseJsonAnswer(answer: string): ParsedAnswer {
  const text = answer.trim();
  const whole = tryParse(text);
  if (whole.ok) return whole;
  const thinkEnd = text.lastIndexOf(THINK_END);
  if (thinkEnd !== -1) return parseJsonAnswer(text.slice(thinkEnd + THINK_END.length));
  const blocks = [...text.matchAll(FENCE)].map((m) => m[1]!);
  if (blocks.length === 1) {
    const inner = tryParse(blocks[0]!.trim());
    return inner.ok ? inner : { ok: false, error: `the fenced block is not valid JSON (${inner.error})` };
  }
  if (blocks.length > 1) return { ok: false, error: `the answer has ${blocks.length} fenced blocks; give exactly one JSON value` };
  const oneLine = ONE_LINE_FENCE.exec(text);
  if (oneLine) {
    const inner = tryParse(oneLine[1]!);
    return inner.ok ? inner : { ok: false, error: `the fenced value is not valid JSON (${inner.error})` };
  }
  return { ok: false, error: `the answer is not JSON (${whole.error})` };
}

function tryParse(text: string): ParsedAnswer {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** The system instruction's section: short, it is sent on every turn. */
export function schemaInstruction(schema: Record<string, unknown>): string {
  return (
    '## Final answer format\n' +
    'End the run with a final answer that is only a JSON value (no prose; a ```json fence is fine) matching this JSON Schema:\n' +
    JSON.stringify(schema)
  );
}

export class StructuredOutput {
  private readonly validate: SchemaValidator;
  /** A sentence for each `format` in the schema that no one defines, so nothing checks it. */
  readonly unchecked: string[];
  private attempts = 0;
  /** The accepted value; undefined until an answer validates. */
  value: unknown = undefined;

  constructor(
    schema: Record<string, unknown>,
    private readonly maxAttempts: number,
  ) {
    ({ validate: this.validate, unchecked: this.unchecked } = compileAnswerSchema(schema));
  }

  readonly check = (answer: string): AnswerVerdict => {
    this.attempts++;
    const parsed = parseJsonAnswer(answer);
    const problem = parsed.ok ? this.describe(this.validate(parsed.value)) : parsed.error;
    if (problem === null) {
      this.value = parsed.ok ? parsed.value : undefined;
      return { verdict: 'accept' };
    }
    if (this.attempts >= this.maxAttempts) {
      return {
        verdict: 'fail',
        error: `the final answer does not match output.schema after ${this.attempts} attempt${this.attempts === 1 ? '' : 's'}: ${problem}`,
      };
    }
    return {
      verdict: 'retry',
      attempt: this.attempts,
      reason: problem,
      feedback:
        `Your final answer does not match the required JSON Schema: ${problem}. ` +
        `Answer again with only the corrected JSON value (attempt ${this.attempts + 1} of ${this.maxAttempts}).`,
    };
  };

  /** The validator speaks of parameters (it checks tool calls too); here the value is the answer. */
  private describe(problem: string | null): string | null {
    return problem === null ? null : problem.replace(/^params\b|(?<=; )params\b/g, 'the answer').replaceAll('parameter', 'property');
  }
}
