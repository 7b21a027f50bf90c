// A pattern that backtracks catastrophically gets the same answer from grep in JavaScript as
// through ripgrep, whose engine never backtracks. '^(a+)+$' over a line of a's and a '!' held a
// worker until grep's time limit: in JavaScript the call failed ('grep took over 30 s'), through
// ripgrep it answered 'No matches' at once; a file ripgrep passed on for another line's match
// stopped the search there. V8's linear engine now takes over such a match (regexp-fallback.ts).
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

const EVIL = `${'a'.repeat(40)}!`;

describe('grep with a catastrophically backtracking pattern', () => {
  // Long enough that a loaded 2-core machine starts its workers well within it; the backtracking
  // takes hours.
  const limitMs = 8000;
  const grep = (ws: ReturnType<typeof makeWorkspace>, engine: 'javascript' | undefined, pattern: string) =>
    call(createBuiltinTools({ ...ws.ctx, grepTimeLimitMs: limitMs, grepEngine: engine }, ['grep'])[0]!, { pattern });

  it.each(['javascript' as const, undefined])('answers whole, and alike on both engines (%s)', async (engine) => {
    const ws = makeWorkspace({ 'a.txt': `${EVIL}\na hit here\n`, 'b.txt': 'aaaa\n', 'c.txt': `${EVIL}\n` });
    const started = performance.now();
    const none = await grep(ws, engine, '^(a+)+$');
    expect(none.error).toBeUndefined();
    expect(text(none)).toBe('b.txt:1: aaaa');
    // ripgrep passes a.txt on for its second line; the first must not hold the search there.
    const both = await grep(ws, engine, '^(a+)+$|hit');
    expect(both.error).toBeUndefined();
    expect(text(both)).toBe('a.txt:2: a hit here\nb.txt:1: aaaa');
    const nothing = await grep(ws, engine, '(a|aa)+b');
    expect(text(nothing)).toBe('No matches for /(a|aa)+b/ in . (searched 3 files; gitignored paths, .git, node_modules and .unattended are not searched).');
    expect(performance.now() - started).toBeLessThan(limitMs);
  });

  it.each(['javascript' as const, undefined])('answers a (?i) pattern whole, and alike on both engines (%s)', async (engine) => {
    // V8's linear engine takes no i flag: the pattern is matched with its letters spelled in both cases.
    const ws = makeWorkspace({ 'a.txt': `${EVIL}\nAaAa\n`, 'b.txt': 'aAAa\nAB\n', 'c.txt': `${EVIL.toUpperCase()}\n` });
    const started = performance.now();
    const found = await grep(ws, engine, '(?i)^(a+)+$');
    expect(found.error).toBeUndefined();
    expect(text(found)).toBe('a.txt:2: AaAa\nb.txt:1: aAAa');
    // In a class as well: [^b!] takes neither b nor B under (?i).
    const classed = await grep(ws, engine, '(?i)^([^b!]+)+$');
    expect(classed.error).toBeUndefined();
    expect(text(classed)).toBe('a.txt:2: AaAa\nb.txt:1: aAAa');
    expect(performance.now() - started).toBeLessThan(limitMs);
  });

  it.each(['javascript' as const, undefined])('answers a pattern with a look-around whole, and alike on both engines (%s)', async (engine) => {
    // The linear engine takes no look-around: a line is matched with the pattern once the pattern
    // without it (which that engine takes) matched the line, as ripgrep passes on only such files.
    const ws = makeWorkspace({ 'a.txt': `${EVIL}\na hit here\n`, 'b.txt': 'aaaa\n', 'c.txt': `${EVIL}\n` });
    const started = performance.now();
    const found = await grep(ws, engine, '^(a+)+(?<!b)$|hit');
    expect(found.error).toBeUndefined();
    expect(text(found)).toBe('a.txt:2: a hit here\nb.txt:1: aaaa');
    const caseless = await grep(ws, engine, '(?i)(?=A)^(a+)+$');
    expect(caseless.error).toBeUndefined();
    expect(text(caseless)).toBe('b.txt:1: aaaa');
    expect(performance.now() - started).toBeLessThan(limitMs);
  });

  it("leaves the process's V8 flags as they were: the runner's code cache is still taken", async () => {
    // A process whose flags differ rejects a code cache made before (scripts/bin/code-cache.cjs
    // writes the bundle's at exit): a flag left on made the next run compile the bundle again.
    // The flags as a process starts with them (a search of an earlier test that left the flag on
    // would otherwise go unseen here).
    v8.setFlagsFromString('--no-enable-experimental-regexp-engine-on-excessive-backtracks');
    const source = 'function f(x) { return x + 1; }\nf(1);\n';
    const cache = new vm.Script(source, { filename: 'cache-probe.js' }).createCachedData();
    const ws = makeWorkspace({ 'a.txt': `${EVIL}\n`, 'b.txt': 'aaaa\n' });
    expect(text(await grep(ws, 'javascript', '^(a+)+$'))).toBe('b.txt:1: aaaa');
    expect(new vm.Script(source, { filename: 'cache-probe.js', cachedData: cache }).cachedDataRejected).toBe(false);
  });
});
