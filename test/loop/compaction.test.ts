// Runs that outlive the context window (issue 13 §5), in process: the scripted model, the real
// tools and policy, and a small `limits.context_tokens` so that a few file reads fill the window.
import { afterAll, describe, expect, it } from 'vitest';
import { removeHarnessDirs, runInProcess, type HarnessRun, type HarnessTurn } from './harness.js';
import type { Content } from '../../src/types/content.js';
import type { RunEvent } from '../../src/types/events.js';
import { SUMMARY_REQUEST } from '../../src/loop/compaction-history.js';
import { ProviderError } from '../../src/providers/provider.js';

afterAll(removeHarnessDirs);

const RECIPE = (limits: string) => `tools: [read_file, edit, todo_write]
confirmation: { mode: auto-approve }
limits: { ${limits} }`;

/** A file of `kb` kilobytes, its lines numbered so that nothing is repeated. */
const big = (name: string, kb: number) => Array.from({ length: kb * 16 }, (_, i) => `${name} line ${String(i).padStart(4, '0')} ${'x'.repeat(40)}`).join('\n');

const read = (file: string): HarnessTurn => ({ calls: [{ name: 'read_file', args: { absolute_path: `{{workspace}}/${file}` } }] });
const compactions = (run: HarnessRun) => run.events.filter((e): e is Extract<RunEvent, { type: 'compaction' }> => e.type === 'compaction');
const bytes = (contents: Content[]) => Buffer.byteLength(JSON.stringify(contents));

/** Every function response answers a call of the model entry right before it; every call is answered. */
function expectPaired(contents: Content[]): void {
  contents.forEach((content, i) => {
    const responses = content.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse.id] : []));
    if (responses.length === 0) return;
    const previous = contents[i - 1];
    expect(previous?.role, `entry ${i} answers calls, so entry ${i - 1} must be the model's`).toBe('model');
    expect(previous!.parts.flatMap((p) => (p.functionCall ? [p.functionCall.id] : []))).toEqual(responses);
  });
}

describe('compaction before a request would pass compact_at of the window', () => {
  it('drops old turns for a summary, keeping the prompt, todos, files changed and the last turns verbatim', async () => {
    // Outputs of 1.5 KB: too short to drop one by one, so only a summary makes room.
    const names = 'abcdefghijklmn'.split('');
    const files = Object.fromEntries(names.map((n) => [`${n}.txt`, big(n, 1.5)]));
    files['src.ts'] = 'export const answer = 41;\n';
    const run = await runInProcess({
      recipe: RECIPE('context_tokens: 6000'),
      files,
      summarize: () => 'SUMMARY: read a to d; answer is 41 in src.ts and must become 42.',
      turns: [
        { calls: [{ name: 'todo_write', args: { todos: [{ id: '1', content: 'fix the answer', status: 'in_progress' }] } }] },
        { calls: [{ name: 'edit', args: { file_path: '{{workspace}}/src.ts', old_string: '41', new_string: '42' } }] },
        ...names.map((n) => read(`${n}.txt`)),
        { text: 'The answer is 42 now.' },
      ],
    });
    expect(run.result.finalAnswer).toBe('The answer is 42 now.');
    expect(run.read('src.ts')).toContain('42');

    const [first] = compactions(run);
    expect(first).toMatchObject({ reason: 'threshold', window: 6000, summary: 'written', error: null, dropped: { tool_outputs: 0 } });
    expect(first!.tokens_after).toBeLessThan(first!.tokens_before);
    expect(first!.tokens_before).toBeGreaterThan(6000 * 0.7);
    expect(first!.dropped.turns).toBeGreaterThan(0);

    // The side request asked for the summary over the turns it replaces, and ended with the ask.
    expect(run.sideRequests.length).toBeGreaterThan(0);
    const ask = run.sideRequests[0]!;
    expect(ask.purpose).toBe('compaction_summary');
    expect(JSON.stringify(ask.contents.at(-1))).toContain(JSON.stringify(SUMMARY_REQUEST).slice(1, -1));
    expectPaired(ask.contents);

    // The request right after the compaction, and the one before it.
    const at = first!.turn - 1;
    const before = run.requests[at - 1]!;
    const after = run.requests[at]!;
    expect(after[0]!.parts[0]).toEqual({ text: 'go' });
    const pinned = after[0]!.parts[1]!.text!;
    expect(pinned).toContain('SUMMARY: read a to d');
    expect(pinned).toMatch(/## Files changed so far\n- src\.ts/);
    expect(pinned).toMatch(/## Todo list\n- \[in_progress\] fix the answer/);
    // The last four model turns and the results after them, exactly as the model saw them.
    const kept = after.slice(1);
    expect(kept.filter((c) => c.role === 'model')).toHaveLength(4);
    // All but the newest turn (the model's answer to `before` and its results) were in `before` already.
    expect(kept.slice(0, -2)).toEqual(before.slice(before.length - (kept.length - 2)));
    expectPaired(after);
    for (const request of run.requests) expectPaired(request);

    expect(run.report.compactions).toEqual({ total: compactions(run).length, summarized: compactions(run).length, after_context_error: 0 });
  });

  it('takes a long output already acted on out of the history only with a summary of what the model read there', async () => {
    // Dropping huge.txt's output alone would bring the request under the target; the summary is
    // for what the model read in it, which a model that does not read it again would go without.
    const run = await runInProcess({
      recipe: RECIPE('context_tokens: 4000'),
      files: { 'huge.txt': big('huge', 9), 'mid.txt': big('mid', 2), 's1.txt': 'one', 's2.txt': 'two', 's3.txt': 'three', 's4.txt': 'four' },
      summarize: (request) => (JSON.stringify(request.contents).includes('huge line 0000') ? 'SUMMARY: huge.txt starts with huge line 0000.' : 'SUMMARY without huge.txt'),
      turns: [read('huge.txt'), read('s1.txt'), read('s2.txt'), read('s3.txt'), read('s4.txt'), read('mid.txt'), { text: 'Read them all.' }],
    });
    expect(run.result.finalAnswer).toBe('Read them all.');
    const all = compactions(run);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ reason: 'threshold', summary: 'written', dropped: { stale_reads: 0, tool_outputs: 1, turns: 2 } });
    expect(run.sideRequests).toHaveLength(1);
    const last = run.requests.at(-1)!;
    const text = JSON.stringify(last);
    expect(text).not.toContain('huge line 0001');
    expect(last[0]!.parts[1]!.text).toContain('SUMMARY: huge.txt starts with huge line 0000.');
    // The last four turns are whole: the middle-sized read among them too.
    expect(text).toContain('mid line 0000');
    expectPaired(last);
    expect(run.report.compactions).toEqual({ total: 1, summarized: 1, after_context_error: 0 });
  });

  it('keeps fewer last turns verbatim when they alone would fill the room compaction makes', async () => {
    const names = 'abcdefgh'.split('');
    const run = await runInProcess({
      recipe: RECIPE('context_tokens: 6000'),
      files: { ...Object.fromEntries(names.map((n) => [`${n}.txt`, big(n, 1.5)])), 'big.txt': big('big', 5) },
      summarize: () => 'S',
      turns: [...names.map((n) => read(`${n}.txt`)), read('big.txt'), { text: 'done' }],
    });
    expect(run.result.finalAnswer).toBe('done');
    const [only, ...more] = compactions(run);
    expect(more).toEqual([]);
    const after = run.requests[only!.turn - 1]!;
    // Four turns with the 5 KB read would pass half the threshold; three do not.
    expect(after.slice(1).filter((c) => c.role === 'model')).toHaveLength(3);
    expect(JSON.stringify(after.at(-1))).toContain('big line 0000');
    expectPaired(after);
  });

    it('leaves the history alone when the window is unknown (no limit, no table entry)', async () => {
    const run = await runInProcess({
      recipe: RECIPE('max_turns: 20'),
      files: { 'a.txt': big('a', 8), 'b.txt': big('b', 8) },
      turns: [read('a.txt'), read('b.txt'), { text: 'ok' }],
    });
    expect(compactions(run)).toHaveLength(0);
    expect(JSON.stringify(run.requests.at(-1))).toContain('a line 0000');
  });
});

describe('the summary side request', () => {
  it('a failed summary still compacts: the older turns go, with a note saying no summary could be written', async () => {
    const names = 'abcdefghijklmn'.split('');
    const run = await runInProcess({
      recipe: RECIPE('context_tokens: 6000'),
      files: Object.fromEntries(names.map((n) => [`${n}.txt`, big(n, 1.5)])),
      summarize: () => '',
      turns: [...names.map((n) => read(`${n}.txt`)), { text: 'done' }],
    });
    expect(run.result.status).toBe('success');
    const first = compactions(run)[0]!;
    expect(first).toMatchObject({ summary: 'failed', error: 'the model answered without a summary' });
    const after = run.requests[first.turn - 1]!;
    expect(after[0]!.parts[1]!.text).toMatch(/No summary could be written/);
    expectPaired(after);
    expect(run.report.compactions.summarized).toBe(0);
  });

  it('uses a turn of the model when no one else answers it, and counts its tokens in the run', async () => {
    const names = 'abcdefghijklmn'.split('');
    let reads = 0;
    let summaries = 0;
    let workspace = '';
    // The model: reads every file, then answers; asked for a summary, it writes one.
    const model: HarnessTurn = async (request) => {
      if (request.purpose === 'compaction_summary') {
        summaries++;
        return { parts: [{ text: 'S' }], text: 'S', functionCalls: [], usage: { input: 900, output: 40, total: 940 }, finish: { reason: 'stop', raw: null } };
      }
      const name = names[reads++];
      if (name === undefined) return { parts: [{ text: 'done' }], text: 'done', functionCalls: [], usage: { input: 0, output: 0, total: 0 }, finish: { reason: 'stop', raw: null } };
      const call = { id: `c${reads}`, name: 'read_file', args: { absolute_path: `${workspace}/${name}.txt` } };
      return { parts: [{ functionCall: call }], text: '', functionCalls: [call], usage: { input: 0, output: 0, total: 0 }, finish: { reason: 'tool_calls', raw: null } };
    };
    const run = await runInProcess({
      recipe: RECIPE('context_tokens: 6000'),
      files: Object.fromEntries(names.map((n) => [`${n}.txt`, big(n, 1.5)])),
      tools: (r) => {
        workspace = r;
        return [];
      },
      turns: Array.from({ length: 40 }, () => model),
    });
    expect(run.result).toMatchObject({ status: 'success', finalAnswer: 'done', error: null });
    expect(summaries).toBe(compactions(run).filter((e) => e.summary === 'written').length);
    expect(summaries).toBeGreaterThan(0);
    expect(compactions(run)[0]!.usage).toEqual({ input: 900, output: 40, total: 940 });
    expect(run.report.usage.total).toBe(940 * summaries);
    expect(run.result.usage.total).toBe(940 * summaries);
  });
});

describe('what a compacted history keeps', () => {
  const names = 'abcdefghijklmn'.split('');
  const files = Object.fromEntries(names.map((n) => [`${n}.txt`, big(n, 1.5)]));

  it("a continued run keeps its own request in view, beside the first prompt, once the earlier turns are gone", async () => {
    const history: Content[] = [
      { role: 'user', parts: [{ text: 'FIRST: set the answer to 42.' }] },
      { role: 'model', parts: [{ text: 'The answer is 42 now.' }] },
    ];
    const reads = [...names, ...names].map((n) => read(`${n}.txt`));
    const run = await runInProcess({ recipe: RECIPE('context_tokens: 6000'), files, history, summarize: () => 'S', turns: [...reads, { text: 'done' }] });
    expect(run.result.finalAnswer).toBe('done');
    const all = compactions(run);
    expect(all.length).toBeGreaterThan(1);
    // After the first compaction and every later one: the first prompt, then the latest request (`go`, this run's).
    for (const event of all) {
      const after = run.requests[event.turn - 1]!;
      expect(after[0]!.parts[0]).toEqual({ text: 'FIRST: set the answer to 42.' });
      const pinned = after[0]!.parts.at(-1)!.text!;
      expect(pinned).toMatch(/the first prompt above, the latest request below and the last \d turns are verbatim/);
      expect(pinned).toMatch(/## The latest request \(the one to act on\)\ngo\n/);
      // Pinned once, not kept twice: its own entry went with the earlier turns.
      expect(after.flatMap((c) => c.parts).filter((p) => p.text === 'go')).toEqual([]);
      expectPaired(after);
    }
  });

  it('lists files changed by other means than the file tools (shell, MCP, earlier runs), with the tools\' own', async () => {
    const run = await runInProcess({
      recipe: RECIPE('context_tokens: 6000'),
      files: { ...files, 'src.ts': 'export const answer = 41;\n' },
      changedFiles: async () => ['made-by-shell.txt', 'src.ts'],
      summarize: () => 'S',
      turns: [{ calls: [{ name: 'edit', args: { file_path: '{{workspace}}/src.ts', old_string: '41', new_string: '42' } }] }, ...names.map((n) => read(`${n}.txt`)), { text: 'done' }],
    });
    const first = compactions(run)[0]!;
    const pinned = run.requests[first.turn - 1]![0]!.parts.at(-1)!.text!;
    expect(pinned).toMatch(/## Files changed so far\n- made-by-shell\.txt\n- src\.ts(\n|$)/);
  });

  it('asks for no summary of turns the side request cannot hold: the compaction says so, and the run goes on', async () => {
    // A 27 KB prompt, three reads of 5.5 KB, and a server that refuses the first request past 42 KB naming no window:
    // the summary request may then hold half of what was refused, which the prompt alone passes.
    const history: Content[] = [{ role: 'user', parts: [{ text: big('prompt', 30) }] }, { role: 'model', parts: [{ text: 'Read on.' }] }];
    let refused = false;
    const refuseOnce: HarnessTurn = async (request) => {
      if (!refused && Buffer.byteLength(JSON.stringify(request.contents)) > 42_000) {
        refused = true;
        throw new ProviderError('context_length', 'the request exceeds the available context size');
      }
      return { parts: [{ text: 'done' }], text: 'done', functionCalls: [], usage: { input: 0, output: 0, total: 0 }, finish: { reason: 'stop', raw: null } };
    };
    const run = await runInProcess({
      recipe: RECIPE('max_turns: 20'),
      files: { 'a.txt': big('a', 6), 'b.txt': big('b', 6), 'c.txt': big('c', 6) },
      history,
      summarize: () => {
        throw new Error('no summary should be asked for');
      },
      turns: [read('c.txt'), read('a.txt'), read('b.txt'), refuseOnce, refuseOnce],
    });
    expect(run.result, run.result.error ?? '').toMatchObject({ status: 'success', finalAnswer: 'done' });
    expect(run.sideRequests).toHaveLength(0);
    const [only] = compactions(run);
    expect(only).toMatchObject({ reason: 'context_error', summary: 'failed' });
    expect(only!.error).toMatch(/not one of the turns to summarise fits in a side request/);
    expect(run.report.compactions).toMatchObject({ total: 1, summarized: 0, after_context_error: 1 });
  });

  it('says when the window cannot hold what every request carries, and does not compact turn after turn for it', async () => {
    const run = await runInProcess({ recipe: RECIPE('context_tokens: 200'), files, summarize: () => 'S', turns: [...names.slice(0, 6).map((n) => read(`${n}.txt`)), { text: 'done' }] });
    expect(run.result.finalAnswer).toBe('done');
    expect(compactions(run)).toEqual([]);
    expect(run.sideRequests).toHaveLength(0);
    const warnings = run.events.filter((e) => e.type === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ message: expect.stringMatching(/^the context window \(200 tokens\) cannot hold what every request carries \(~\d+ tokens: .*check limits\.context_tokens$/) });
  });
});

describe('a long run', () => {
  // 300 turns (the 2,000-turn figure is the benchmark's): enough for many compactions, and 300 KB read.
  it('keeps the history bounded over 300 turns', { timeout: 60_000 }, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`f${i}.txt`] = big(`f${i}`, 1);
    const turns: HarnessTurn[] = [];
    for (let i = 0; i < 300; i++) turns.push(read(`f${i % 20}.txt`));
    turns.push({ text: 'finished' });
    const run = await runInProcess({
      recipe: RECIPE('context_tokens: 8000, max_turns: 400'),
      files,
      summarize: (request) => `summary of ${request.contents.length} entries`,
      turns,
    });
    expect(run.result).toMatchObject({ status: 'success', finalAnswer: 'finished', turns: 301 });
    const sizes = run.requests.map(bytes);
    const late = sizes.slice(100);
    // 70% of 8,000 tokens at 4 bytes a token, and a little for what one turn adds.
    expect(Math.max(...late)).toBeLessThan(8000 * 0.7 * 4 + 2048);
    expect(Math.max(...run.requests.slice(100).map((r) => r.length))).toBeLessThan(40);
    expect(compactions(run).length).toBeGreaterThan(10);
    expect(run.report.compactions.total).toBe(compactions(run).length);
    run.requests.length = 0;
  });
});
