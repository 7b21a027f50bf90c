import { afterAll, describe, expect, it } from 'vitest';
import { StaleReads } from '../../src/loop/stale-reads.js';
import type { Content } from '../../src/types/content.js';
import { removeHarnessDirs, runInProcess } from './harness.js';

afterAll(removeHarnessDirs);

const FILES = Array.from({ length: 6 }, (_, i) => `src/m${i}.ts`);
const matchLine = (file: string) => `${file}:2: export function oldName(x: number): number { return x; } // ${'.'.repeat(400)}`;
const GREP_OUTPUT = [...FILES.map(matchLine), '[truncated: first 200 matches; narrow the pattern, path or include]'].join('\n');

function history(output = GREP_OUTPUT): Content[] {
  return [
    { role: 'user', parts: [{ text: 'rename oldName' }] },
    { role: 'model', parts: [{ functionCall: { id: 'g', name: 'grep', args: { pattern: 'oldName' } } }] },
    { role: 'user', parts: [{ functionResponse: { id: 'g', name: 'grep', response: { output } } }] },
  ];
}
const outputOf = (contents: Content[]) => String(contents[2]!.parts[0]!.functionResponse!.response.output);
/** Appends a model call and its result of about `bytes` bytes, as later turns would. */
function grow(contents: Content[], bytes: number): void {
  contents.push({ role: 'model', parts: [{ functionCall: { name: 'ls', args: {} } }] });
  contents.push({ role: 'user', parts: [{ functionResponse: { name: 'ls', response: { output: 'x'.repeat(bytes) } } }] });
}
/** Requests sent until the search result is rewritten (prune runs once before each), each turn adding ~`growBy` bytes. */
function requestsUntilRewritten(stale: StaleReads, contents: Content[], growBy: number | null, max = 200): number {
  for (let request = 1; request <= max; request++) {
    stale.prune(contents, 100 + request);
    if (outputOf(contents) !== GREP_OUTPUT) return request;
    if (growBy !== null) grow(contents, growBy);
  }
  return Infinity;
}

describe('stale search matches', () => {
  it('leaves out the lines of changed files once resending them has cost what the rewrite costs, and keeps the rest', () => {
    const contents = history();
    const stale = new StaleReads(2);
    stale.recordMatches(contents, 2, 0, FILES);
    stale.recordChange('src/m1.ts', 2);
    stale.recordChange('src/m4.ts', 3);
    const original = contents[2];
    // Rewriting costs the bytes from the result on (~3 KB, growing ~150 bytes a turn) at 0.75 more
    // than cached; each request resends ~950 stale bytes at 0.25: it pays after about 20 requests.
    const after = requestsUntilRewritten(stale, contents, 10);
    expect(after).toBeGreaterThan(5);
    expect(after).toBeLessThan(40);
    expect(outputOf(contents)).toBe(
      [matchLine('src/m0.ts'), matchLine('src/m2.ts'), matchLine('src/m3.ts'), matchLine('src/m5.ts'), '[2 matches left out: their files changed since]', '[truncated: first 200 matches; narrow the pattern, path or include]'].join('\n'),
    );
    // A new entry (the old object may be what a provider cached), the call's id and name kept.
    expect(contents[2]).not.toBe(original);
    expect(contents[2]!.parts[0]!.functionResponse).toMatchObject({ id: 'g', name: 'grep' });
    // The provider's stable prefix ends where the rewrite is.
    expect(stale.stableUntil(contents.length)).toBe(2);
    // A later change leaves out one more line, counted with the earlier ones; an unrelated file changes nothing.
    stale.recordChange('src/other.ts', 9);
    stale.recordChange('src/m0.ts', 9);
    for (let i = 0; i < 200 && !outputOf(contents).includes('[3 matches'); i++) stale.prune(contents, 200 + i);
    expect(outputOf(contents).split('\n')).toEqual([matchLine('src/m2.ts'), matchLine('src/m3.ts'), matchLine('src/m5.ts'), '[3 matches left out: their files changed since]', '[truncated: first 200 matches; narrow the pattern, path or include]']);
  });

  it('rewrites at once where nothing is cached, and later where a rewrite costs more (Anthropic: cache reads at 0.1, writes at 1.25)', () => {
    const rewrittenAfter = (prices: { read: number; write: number } | undefined) => {
      const contents = history();
      const stale = new StaleReads(2, prices);
      stale.recordMatches(contents, 2, 0, FILES);
      stale.recordChange('src/m1.ts', 2);
      return requestsUntilRewritten(stale, contents, null);
    };
    const uncached = rewrittenAfter({ read: 1, write: 1 });
    const gemini = rewrittenAfter(undefined);
    const anthropic = rewrittenAfter({ read: 0.1, write: 1.25 });
    expect(uncached).toBe(1);
    expect(gemini).toBeGreaterThan(uncached);
    expect(anthropic).toBeGreaterThan(gemini);
    expect(anthropic).toBeLessThan(Infinity);
  });

  it('never rewrites while the history grows faster than the stale lines cost', () => {
    const contents = history();
    const stale = new StaleReads(2);
    stale.recordMatches(contents, 2, 0, FILES);
    stale.recordChange('src/m1.ts', 2);
    expect(requestsUntilRewritten(stale, contents, 2000)).toBe(Infinity);
  });

  it('drops every stale line when compaction asks, and none before the entry it keeps verbatim', () => {
    const contents = history();
    const stale = new StaleReads(2);
    stale.recordMatches(contents, 2, 0, FILES);
    stale.recordChange('src/m3.ts', 2);
    expect(stale.prune(contents, 3, 0, 2)).toBe(0); // the result is in the verbatim tail
    expect(outputOf(contents)).toBe(GREP_OUTPUT);
    expect(stale.prune(contents, 3, 0)).toBe(1);
    expect(outputOf(contents)).toContain('[1 match left out: their files changed since]');
    expect(outputOf(contents)).not.toContain('src/m3.ts');
  });

  it('does not touch a result that no longer holds its lines (cut to fit, or replaced by compaction)', () => {
    // Not the matches as the tool gave them: not tracked.
    const cut = history('[output cut]\n' + GREP_OUTPUT);
    const stale = new StaleReads(2, { read: 1, write: 1 });
    stale.recordMatches(cut, 2, 0, FILES);
    stale.recordChange('src/m0.ts', 2);
    stale.prune(cut, 3);
    expect(outputOf(cut)).toBe('[output cut]\n' + GREP_OUTPUT);
    // Replaced after it was recorded: left as it is now.
    const contents = history();
    const later = new StaleReads(2, { read: 1, write: 1 });
    later.recordMatches(contents, 2, 0, FILES);
    contents[2] = { role: 'user', parts: [{ functionResponse: { id: 'g', name: 'grep', response: { output: '[6000 bytes of grep output omitted]' } } }] };
    later.recordChange('src/m0.ts', 2);
    later.prune(contents, 3);
    expect(outputOf(contents)).toBe('[6000 bytes of grep output omitted]');
  });

  it('follows its result when compaction removes entries before it, and forgets it when the result is removed', () => {
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'task' }] }, { role: 'model', parts: [] }, { role: 'user', parts: [{ text: 'x' }] }, ...history().slice(1)];
    const stale = new StaleReads(2, { read: 1, write: 1 });
    stale.recordMatches(contents, 4, 0, FILES);
    contents.splice(1, 2);
    stale.removed(1, 2);
    stale.recordChange('src/m2.ts', 5);
    stale.prune(contents, 6);
    expect(outputOf(contents)).toContain('[1 match left out');
    contents.splice(1, 2);
    stale.removed(1, 2);
    stale.recordChange('src/m0.ts', 7);
    expect(stale.prune(contents, 8)).toBe(0);
  });
});

describe('what the model sees of a search after it changed the files (in process, real tools)', () => {
  it('a grep result loses the lines of the files edited since, once that pays, and the run ends right', async () => {
    const files = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/m${i}.ts`, `// module ${i}\nexport function oldName${i}(): string { return '${'#'.repeat(600)}'; }\n`]));
    const at = (file: string) => `{{workspace}}/${file}`;
    const edits = Array.from({ length: 4 }, (_, i) => ({ name: 'edit', args: { file_path: at(`src/m${i}.ts`), old_string: `oldName${i}(`, new_string: `newName${i}(` } }));
    const run = await runInProcess({
      recipe: 'tools: [grep, edit, ls]\nconfirmation: {mode: auto-approve}',
      files,
      turns: [{ calls: [{ name: 'grep', args: { pattern: 'oldName' } }] }, { calls: edits }, ...Array.from({ length: 30 }, (_, i) => ({ calls: [{ name: 'ls', args: { path: i % 2 ? 'src' : '.' } }] })), { text: 'done' }],
    });
    expect(run.result).toMatchObject({ status: 'success' });
    for (let i = 0; i < 8; i++) expect(run.read(`src/m${i}.ts`)).toContain(i < 4 ? `newName${i}(` : `oldName${i}(`);
    const grepSent = run.requests.map((request) => String(request[2]?.parts[0]?.functionResponse?.response.output ?? ''));
    // Right after the edits the result is as the tool gave it; by the end the edited files' lines are gone.
    expect(grepSent[2]!.split('\n')).toHaveLength(8);
    const last = grepSent[grepSent.length - 1]!.split('\n');
    expect(last.slice(0, 4).map((line) => line.split(':')[0])).toEqual(['src/m4.ts', 'src/m5.ts', 'src/m6.ts', 'src/m7.ts']);
    expect(last[4]).toBe('[4 matches left out: their files changed since]');
    // Rewritten once, not every turn: each rewrite costs the provider's cache from there on.
    expect(new Set(grepSent.slice(2)).size).toBe(2);
  });

  it('a grep and a read made after an edit in the same turn saw the edit: they are not stale', async () => {
    const at = (file: string) => `{{workspace}}/${file}`;
    const run = await runInProcess({
      recipe: 'tools: [grep, edit, read_file]\nconfirmation: {mode: auto-approve}',
      files: { 'a.ts': 'foo();\nfoo();\n', 'b.ts': 'const b = 1;\n', 'c.ts': 'const c = 1;\n' },
      // Nothing cached: a stale line would go at the first request after it went stale.
      cachePrices: { read: 1, write: 1 },
      turns: [
        // The edit runs first (a change runs before every call after it), so the grep and the read see its result.
        { calls: [{ name: 'edit', args: { file_path: at('a.ts'), old_string: 'foo();\nfoo();', new_string: 'bar();\nfoo();' } }, { name: 'grep', args: { pattern: 'foo' } }, { name: 'read_file', args: { absolute_path: at('a.ts') } }] },
        { calls: [{ name: 'read_file', args: { absolute_path: at('b.ts') } }] },
        { calls: [{ name: 'read_file', args: { absolute_path: at('c.ts') } }] },
        { text: 'done' },
      ],
    });
    expect(run.result).toMatchObject({ status: 'success' });
    const last = run.requests[run.requests.length - 1]!;
    const [, grep, read] = last[2]!.parts.map((p) => String(p.functionResponse?.response.output));
    expect(grep).toBe('a.ts:2: foo();');
    expect(read).toBe('bar();\nfoo();');
  });

  it('a grep made before an edit in the same turn is stale', async () => {
    const at = (file: string) => `{{workspace}}/${file}`;
    const run = await runInProcess({
      recipe: 'tools: [grep, edit, read_file]\nconfirmation: {mode: auto-approve}',
      files: { 'a.ts': 'foo();\n', 'b.ts': 'foo = 1;\n' },
      cachePrices: { read: 1, write: 1 },
      turns: [
        { calls: [{ name: 'grep', args: { pattern: 'foo' } }, { name: 'edit', args: { file_path: at('a.ts'), old_string: 'foo();', new_string: 'bar();' } }] },
        { calls: [{ name: 'read_file', args: { absolute_path: at('b.ts') } }] },
        { text: 'done' },
      ],
    });
    expect(run.result).toMatchObject({ status: 'success' });
    const grep = String(run.requests[run.requests.length - 1]![2]!.parts[0]!.functionResponse!.response.output);
    expect(grep).toBe('b.ts:1: foo = 1;\n[1 match left out: their files changed since]');
  });
});
