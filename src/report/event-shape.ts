// Whether a transcript record has the fields the report reads, each of the type the report takes.
// A transcript is a file: edited by hand, written by an older or newer version, or damaged. A record
// of a known type with a field of the wrong type (`"duration_ms": "abc"`, `"context": {"files": 5}`)
// is skipped and named, as a line that is not JSON is, instead of failing the whole report, or
// failing `run --continue`, which reads the same records to rebuild a conversation (conversation.ts).

/** `string`, `number`, `boolean`, `object`, `list`, `date` (an ISO time), `null`, `absent`, joined by `|`. */
type Kinds = string;
interface Nested {
  kinds: Kinds;
  fields?: Shape;
  items?: Spec;
}
type Spec = Kinds | Nested;
type Shape = Record<string, Spec>;

const object = (fields: Shape, also = ''): Nested => ({ kinds: `object${also}`, fields });
const list = (items: Spec, also = ''): Nested => ({ kinds: `list${also}`, items });

const USAGE = object({ input: 'number', output: 'number', total: 'number', cached: 'number|absent', cache_write: 'number|absent', reasoning: 'number|absent', cost_usd: 'number|absent', estimated: 'boolean|absent' });
const SUB = { parent_call_id: 'string|absent' };

/** The fields fold.ts, render-markdown.ts and conversation.ts read, per event type; other fields are not looked at. */
const SHAPES: Record<string, Shape> = {
  run_start: {
    // Fields the report has a stand-in for may be missing (a transcript of an older version lacks some).
    run_id: 'string|null|absent',
    started_at: 'date|null|absent',
    transcript: 'string|null|absent',
    recipe: 'string|null|absent',
    recipe_name: 'string|null|absent',
    provider: 'string|null|absent',
    model: 'string|null|absent',
    workspace: 'string|null|absent',
    sandbox: object({ mode: 'string', kind: 'string|null', reason: 'string|null', network: { kinds: 'boolean|list', items: 'string' } }, '|null|absent'),
    // A continued run sends the prompt and the context text again, and reads the transcript it continued.
    prompt: 'string|null|absent',
    context: object({ files: list(object({ path: 'string', bytes: 'number', truncated: 'boolean', skipped: 'string|absent', imported_by: 'string|absent' })), text: 'string|null|absent' }, '|null|absent'),
    continued_from: object({ run_id: 'string', transcript: 'string' }, '|null|absent'),
    mcp_servers: list(object({ name: 'string', status: 'string' }), '|absent'),
    // What a continued run is held to (continued-safety.ts).
    policy: object({ mode: 'string', allow: list('string'), deny: list('string') }, '|absent'),
    safety: object(
      {
        sandbox: object({ mode: 'string', network: { kinds: 'boolean|list', items: 'string' }, writable: list('string'), hide: list('string') }),
        tools: list('string'),
        mcp_servers: list('object'),
        tool_discovery: 'object|null',
        workspace: 'string',
        workspace_mode: 'string',
        plan: 'object',
        env_pass: list('string'),
        memory_file: 'string|null',
        git: 'object|null',
        checks: list('string'),
        provider: 'string',
        base_url: 'string|null',
      },
      '|absent',
    ),
  },
  model_request: SUB,
  model_response: {
    ...SUB,
    turn: 'number',
    usage: USAGE,
    finish_reason: 'string',
    finish_raw: 'string|null|absent',
    // The model's turn as a continued run sends it back to the provider.
    text: 'string|null|absent',
    function_calls: list(object({ name: 'string', id: 'string|null|absent', args: 'object|absent' })),
  },
  tool_call: { ...SUB, turn: 'number', call_id: 'string', name: 'string', args: 'object', decision: object({ decision: 'string', reason: 'string', rule: 'string|null|absent' }, '|null|absent') },
  // What the tool sent the model: text, or parts (a continued run sends their text again).
  tool_result: { ...SUB, turn: 'number', call_id: 'string', name: 'string', error_type: 'string|null|absent', truncated: 'boolean|absent', llm_content: list(object({ text: 'string|absent' }), '|string|object|null|absent') },
  answer_rejected: { ...SUB, reason: 'string', feedback: 'string|null|absent' },
  limit: { ...SUB, limit: 'string' },
  side_request: { ...SUB, usage: USAGE },
  compaction: { summary: 'string', reason: 'string', usage: { ...USAGE, kinds: 'object|null|absent' } },
  plan: { plan: 'string' },
  network_denied: { host: 'string', port: 'number|string' },
  warning: { message: 'string' },
  check: { attempt: 'number', kind: 'string', check: 'string', passed: 'boolean', exit_code: 'number|null', reason: 'string|null', duration_ms: 'number', output_tail: 'string' },
  todos: { todos: list(object({ id: 'string', content: 'string', status: 'string' })) },
  files_changed: { files: list(object({ path: 'string', status: 'string', diff: 'string' })) },
  git_handoff: {
    git: object({
      branch: 'string',
      commit: 'string|null|absent',
      pushed: 'boolean',
      files: list('string'),
      skipped: 'string|null|absent',
      error: 'string|null|absent',
      replaced: 'string|null|absent',
      push_error: 'string|null|absent',
      pull_request: 'object|null|absent',
    }),
    duration_ms: 'number|absent',
  },
  run_end: { status: 'string|null|absent', exit_code: 'number|null|absent', final_answer: 'string|null|absent', error: 'string|null', error_kind: 'string|null|absent', duration_ms: 'number' },
};

/** What is wrong with the record (`duration_ms is not a number`), or null when the report can read it. */
export function eventShapeProblem(event: { type: string } & Record<string, unknown>): string | null {
  const shape = SHAPES[event.type];
  return shape ? shapeProblem(event, shape, '') : null;
}

function shapeProblem(value: Record<string, unknown>, shape: Shape, at: string): string | null {
  for (const [key, spec] of Object.entries(shape)) {
    const problem = specProblem(value[key], typeof spec === 'string' ? { kinds: spec } : spec, `${at}${key}`);
    if (problem) return problem;
  }
  return null;
}

function specProblem(value: unknown, spec: Nested, at: string): string | null {
  const kinds = spec.kinds.split('|');
  const kind = kinds.find((k) => isKind(value, k));
  if (!kind) return `${at} ${value === undefined ? 'is missing' : `is not ${describe(kinds[0]!)}`}`;
  if (kind === 'object' && spec.fields) return shapeProblem(value as Record<string, unknown>, spec.fields, `${at}.`);
  if (kind === 'list' && spec.items !== undefined) {
    const items = value as unknown[];
    const item = typeof spec.items === 'string' ? { kinds: spec.items } : spec.items;
    for (let i = 0; i < items.length; i++) {
      const problem = specProblem(items[i], item, `${at}[${i}]`);
      if (problem) return problem;
    }
  }
  return null;
}

function isKind(value: unknown, kind: string): boolean {
  switch (kind) {
    case 'absent':
      return value === undefined;
    case 'null':
      return value === null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'list':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'date':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value));
    default:
      return typeof value === kind;
  }
}

function describe(kind: string): string {
  return kind === 'list' ? 'a list' : kind === 'date' ? 'a date' : kind === 'object' ? 'an object' : `a ${kind}`;
}
