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
}

/** In front of two fakes: summary requests go to `summaries`, the rest to `turns`; big bodies are refused. */
async function startGate(turns: FakeOpenAI, summaries: FakeOpenAI): Promise<Gate> {
  const gate: Gate = { url: '', passed: [], refused: [], orphans: [] };
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
        const tokens = Math.ceil(raw.length / 4);
        return refuse(`This model's maximum context length is ${MAX_BODY_BYTES / 4} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`, 'context_length_exceeded');
      }
      gate.passed.push(raw.length);
      const asksSummary = JSON.stringify(body.messages.at(-1)?.content ?? '').includes(SUMMARY_REQUEST.slice(0, 60));
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

const lines = (name: string) => Array.from({ length: 28 }, (_, i) => `${name} line ${i} ${'y'.repeat(40)}`).join('\n');

describe('a context-length refusal from an OpenAI-compatible endpoint', () => {
  it('compacts and retries once: the run survives, with the right answer and edit', { timeout: 30_000 }, async () => {
    const names = 'abcdefgh'.split('');
    let workspace = '';
    const read = (n: string): FakeStep => ({ toolCalls: [{ id: `call_${n}`, name: 'read_file', arguments: { absolute_path: `${workspace}/${n}.txt` } }] });
    const turnSteps = (): FakeStep[] => [
      ...names.map(read),
      { toolCalls: [{ id: 'call_edit', name: 'edit', arguments: { file_path: `${workspace}/src.ts`, old_string: '41', new_string: '42' } }] },
      { text: 'The answer is 42 now.' },
    ];
    // Steps refer to the workspace, known once the harness made it: the fakes start inside `tools`.
    let turns: FakeOpenAI | null = null;
    const summaries = await startFakeOpenAI(Array.from({ length: 5 }, () => ({ text: 'SUMMARY: read the files a to e; src.ts holds answer 41, to become 42.' })));
    closers.push(() => summaries.close());
    let gate: Gate | null = null;
    const lazy = {
      name: 'openai',
      model: 'fake-model',
      generate: async (...args: Parameters<Awaited<ReturnType<typeof createProvider>>['generate']>) => {
        if (!turns) {
          turns = await startFakeOpenAI(turnSteps());
          const started = turns;
          closers.push(() => started.close());
          gate = await startGate(turns, summaries);
          inner = await createProvider({ name: 'openai', model: 'fake-model', script: null, baseUrl: gate.url, env: { OPENAI_API_KEY: 'k' }, workspaceRoot: workspace });
        }
        return inner!.generate(...args);
      },
    };
    let inner: Awaited<ReturnType<typeof createProvider>> | null = null;
    const run = await runInProcess({
      recipe: 'tools: [read_file, edit]\nconfirmation: { mode: auto-approve }',
      files: { ...Object.fromEntries(names.map((n) => [`${n}.txt`, lines(n)])), 'src.ts': 'export const answer = 41;\n' },
      tools: (root) => {
        workspace = root;
        return [];
      },
      provider: lazy,
      turns: [],
    });

    expect(run.result).toMatchObject({ status: 'success', finalAnswer: 'The answer is 42 now.', error: null });
    expect(run.read('src.ts')).toBe('export const answer = 42;\n');
    const g = gate!;
    expect(g.refused.length).toBeGreaterThan(0);
    expect(g.orphans).toEqual([]);
    expect(Math.max(...g.passed)).toBeLessThanOrEqual(MAX_BODY_BYTES);
    const compactions = run.events.filter((e) => e.type === 'compaction');
    expect(compactions[0]).toMatchObject({ reason: 'context_error', summary: 'written', window: MAX_BODY_BYTES / 4 });
    expect(compactions[0]!.type === 'compaction' && compactions[0]!.error).toMatch(/maximum context length/);
    expect(run.events.some((e) => e.type === 'retry' && /compacted the history/.test(e.reason))).toBe(true);
    expect(run.report.compactions.after_context_error).toBeGreaterThan(0);
    expect(run.report.compactions.total).toBe(compactions.length);
    // Every turn the model scripted was used, and every accepted request reached the model.
    expect(turns!.remaining()).toBe(0);
  });
});
