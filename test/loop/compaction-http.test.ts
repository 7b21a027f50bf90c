// A provider's refusal for length, over real HTTP with the real OpenAI SDK: an endpoint that
// refuses every request body past N bytes with OpenAI's context_length_exceeded error (and, like
// OpenAI, any tool result whose call is not in the message before it). The run compacts, tries
// once more, and finishes with the right answer and the right edit.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/create.js';
import { SUMMARY_REQUEST } from '../../src/loop/compaction-history.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeStep } from '../helpers/fake-openai.js';
import { removeHarnessDirs, runInProcess } from './harness.js';

afterAll(removeHarnessDirs);

const MAX_BODY_BYTES = 12_000;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface Gate {
  url: string;
  /** Sizes of the bodies passed on to the model, and of those refused. */
  passed: number[];
  refused: number[];
  /** Requests refused for an orphaned tool result (must stay empty). */
  orphans: string[];
  /** The summary requests' bodies, as sent. */
  summaryBodies: string[];
}

/** How the gate refuses a body that is too big: a status and a JSON body. */
type Refusal = (bytes: number) => { status: number; body: object };

/** OpenAI's own refusal, naming the window. */
const openaiRefusal: Refusal = (bytes) => ({
  status: 400,
  body: { error: { message: `This model's maximum context length is ${MAX_BODY_BYTES / 4} tokens. However, your messages resulted in ${Math.ceil(bytes / 4)} tokens. Please reduce the length of the messages.`, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
});

/** In front of two fakes: summary requests go to `summaries`, the rest to `turns`; big bodies are refused. */
async function startGate(turns: FakeOpenAI, summaries: FakeOpenAI, refusal: Refusal = openaiRefusal): Promise<Gate> {
  const gate: Gate = { url: '', passed: [], refused: [], orphans: [], summaryBodies: [] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8')) as { messages: Array<{ role: string; content?: unknown; tool_call_id?: string; tool_calls?: Array<{ id: string }> }> };
      const refuse = (message: string, code: string) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', param: 'messages', code } }));
      };
      const orphan = orphanedToolResult(body.messages);
      if (orphan) {
        gate.orphans.push(orphan);
        return refuse(`Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (${orphan}).`, 'invalid_request');
      }
      if (raw.length > MAX_BODY_BYTES) {
        gate.refused.push(raw.length);
        const refused = refusal(raw.length);
        res.writeHead(refused.status, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(refused.body));
      }
      gate.passed.push(raw.length);
      const asksSummary = JSON.stringify(body.messages.at(-1)?.content ?? '').includes(SUMMARY_REQUEST.slice(0, 60));
      if (asksSummary) gate.summaryBodies.push(raw.toString('utf8'));
      const upstream = await fetch(`${(asksSummary ? summaries : turns).url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      for await (const chunk of upstream.body!) res.write(chunk);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())));
  gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return gate;
}

/** The id of a tool message whose call is not in the assistant message before the tool messages. */
function orphanedToolResult(messages: Array<{ role: string; tool_call_id?: string; tool_calls?: Array<{ id: string }> }>): string | null {
  let open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') open = new Set((message.tool_calls ?? []).map((c) => c.id));
    else if (message.role === 'tool') {
      if (!message.tool_call_id || !open.has(message.tool_call_id)) return message.tool_call_id ?? '(no id)';
    } else open = new Set();
  }
  return null;
}

const lines = (name: string, count = 28) => Array.from({ length: count }, (_, i) => `${name} line ${i} ${'y'.repeat(40)}`).join('\n');

interface RefusedRun {
  run: Awaited<ReturnType<typeof runInProcess>>;
  gate: Gate;
  turns: FakeOpenAI;
}

/**
 * A run that reads the files `names` (28 lines each, or `content`), edits src.ts
 * and answers, through a gate that refuses bodies over MAX_BODY_BYTES with `refusal`.
 */
async function runRefused(opts: { names: string[]; refusal?: Refusal; content?: (name: string, index: number) => string; recipe?: string; answer?: string }): Promise<RefusedRun> {
  const { names } = opts;
  let workspace = '';
  const read = (n: string): FakeStep => ({ toolCalls: [{ id: `call_${n}`, name: 'read_file', arguments: { absolute_path: `${workspace}/${n}.txt` } }] });
  const answer = opts.answer ?? 'The answer is 42 now.';
  const turnSteps = (): FakeStep[] => [
    ...names.map(read),
    { toolCalls: [{ id: 'call_edit', name: 'edit', arguments: { file_path: `${workspace}/src.ts`, old_string: '41', new_string: '42' } }] },
    { text: answer },
  ];
  // Steps refer to the workspace, known once the harness made it: the fakes start inside `tools`.
  let turns: FakeOpenAI | null = null;
  const summaries = await startFakeOpenAI(Array.from({ length: 5 }, () => ({ text: 'SUMMARY: read the files a to e; src.ts holds answer 41, to become 42.' })));
  closers.push(() => summaries.close());
  let gate: Gate | null = null;
  let inner: Awaited<ReturnType<typeof createProvider>> | null = null;
  const lazy = {
    name: 'openai',
    model: 'fake-model',
    generate: async (...args: Parameters<Awaited<ReturnType<typeof createProvider>>['generate']>) => {
      if (!turns) {
        turns = await startFakeOpenAI(turnSteps());
        const started = turns;
        closers.push(() => started.close());
        gate = await startGate(turns, summaries, opts.refusal);
        inner = await createProvider({ name: 'openai', model: 'fake-model', script: null, baseUrl: gate.url, env: { OPENAI_API_KEY: 'k' }, workspaceRoot: workspace });
      }
      return inner!.generate(...args);
    },
  };
  const run = await runInProcess({
    recipe: opts.recipe ?? 'tools: [read_file, edit]\nconfirmation: { mode: auto-approve }',
    files: {
      ...Object.fromEntries(names.map((n, i) => [`${n}.txt`, opts.content ? opts.content(n, i) : lines(n)])),
      'src.ts': 'export const answer = 41;\n',
    },
    tools: (root) => {
      workspace = root;
      return [];
    },
    provider: lazy,
    turns: [],
  });
  return { run, gate: gate!, turns: turns! };
}

/** The run survived its refusals: right answer, right edit, no orphaned tool result, every scripted turn used. */
function expectSurvived({ run, gate, turns }: RefusedRun, answer = 'The answer is 42 now.'): void {
  expect(run.result).toMatchObject({ status: 'success', finalAnswer: answer, error: null });
  expect(run.read('src.ts')).toBe('export const answer = 42;\n');
  expect(gate.refused.length).toBeGreaterThan(0);
  expect(gate.orphans).toEqual([]);
  expect(Math.max(...gate.passed)).toBeLessThanOrEqual(MAX_BODY_BYTES);
  expect(run.events.some((e) => e.type === 'retry' && /compacted the history/.test(e.reason))).toBe(true);
  expect(turns.remaining()).toBe(0);
}

describe('a context-length refusal from an OpenAI-compatible endpoint', () => {
  it('compacts and retries once: the run survives, with the right answer and edit', { timeout: 30_000 }, async () => {
    const refused = await runRefused({ names: 'abcdefgh'.split('') });
    expectSurvived(refused);
    const { run } = refused;
    const compactions = run.events.filter((e) => e.type === 'compaction');
    expect(compactions[0]).toMatchObject({ reason: 'context_error', summary: 'written', window: MAX_BODY_BYTES / 4 });
    expect(compactions[0]!.type === 'compaction' && compactions[0]!.error).toMatch(/maximum context length/);
    expect(run.report.compactions.after_context_error).toBeGreaterThan(0);
    expect(run.report.compactions.total).toBe(compactions.length);
  });

  // llama.cpp, Ollama and a proxy name no window: the refused request's size bounds it.
  it.each<[string, Refusal]>([
    ['llama.cpp, without its counts', () => ({ status: 400, body: { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } } })],
    ['Ollama', () => ({ status: 400, body: { error: { message: 'prompt too long; exceeded max context length by 120 tokens', type: 'api_error' } } })],
    ['a proxy\'s 413', () => ({ status: 413, body: { error: { message: 'Request Entity Too Large' } } })],
    ['early llama.cpp, with a 500 and its counts', (bytes) => ({ status: 500, body: { error: { code: 500, message: 'the request exceeds the available context size. try increasing the context size or enable context shift', type: 'exceed_context_size_error', n_prompt_tokens: Math.ceil(bytes / 4), n_ctx: MAX_BODY_BYTES / 4 } } })],
  ])('%s: a refusal early in the run still compacts', { timeout: 30_000 }, async (_name, refusal) => {
    // Two reads of 5 KB fill the 12 KB limit: the first refusal comes at the third request, when
    // only the first read is older than the last two turns.
    const refused = await runRefused({ names: 'abcde'.split(''), content: (n) => lines(n, 100), refusal });
    expectSurvived(refused);
  });

  it('so does one whose window the recipe overstates', { timeout: 30_000 }, async () => {
    const refused = await runRefused({
      names: 'abcde'.split(''),
      content: (n) => lines(n, 100),
      refusal: () => ({ status: 400, body: { error: { message: 'prompt too long; exceeded max context length by 120 tokens' } } }),
      recipe: 'tools: [read_file, edit]\nconfirmation: { mode: auto-approve }\nlimits: { context_tokens: 1000000 }',
    });
    expectSurvived(refused);
    // Ollama names no window: the warning gives the refused request's size as the bound.
    const warnings = refused.run.events.flatMap((e) => (e.type === 'warning' && /refused/.test(e.message) ? [e.message] : []));
    expect(warnings).toEqual([expect.stringMatching(/^the provider refused a request of about \d+ tokens as too long, naming no window: the server's is smaller than limits\.context_tokens \(1000000 tokens\); .*set limits\.context_tokens to at most \d+$/)]);
  });

  it('the summary is asked for with what the model read, even outputs too long to keep', { timeout: 30_000 }, async () => {
    // Six reads of 3 KB, each with a fact on its first line: at the refusal, the turns to summarise
    // do not fit in the summary request whole, so each output goes with its head.
    const fact = (n: string) => `FACT-${n}: the ${n} value is ${n.charCodeAt(0)}`;
    const refused = await runRefused({ names: 'abcdef'.split(''), content: (n) => `${fact(n)}\n${lines(n, 60)}` });
    expectSurvived(refused);
    const body = refused.gate.summaryBodies[0]!;
    expect(body).toBeDefined();
    for (const n of 'abc') expect(body).toContain(fact(n));
    expect(body).toContain('more characters not shown here');
  });
});
