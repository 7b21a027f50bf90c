// grep, glob and ls stay below the loop's 40,000-character cap on their own. Past it a result
// reaches the model as head and tail, its middle cut out: 200 matches of long lines, or 500 deep
// paths, lost the middle of the list and kept the note at its end, which then described lines the
// model never saw. Each tool now shows what fits, says it stopped there, and how to narrow; grep
// says the same through ripgrep as through the JavaScript walk.
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_OUTPUT_THRESHOLD } from '../../src/tools/tools.js';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import { call, cleanupAll, loggedRipgrep, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

const deep = 'packages/some-rather-long-package-name/src/components/feature-with-a-long-name/';

describe('results that would pass the loop cap', () => {
  it('grep shows the matches that fit, in order, and says it stopped', async () => {
    // 40 files of 10 lines of 300 characters: 200 matches of ~340 characters, 68,000 in all.
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${deep}f${String(i).padStart(2, '0')}.ts`, `${'needle '.repeat(43)}\n`.repeat(10)]));
    const ws = makeWorkspace(files);
    const results = [await call(ws.tool('grep'), { pattern: 'needle' })];
    const realRg = findRipgrep(process.env.PATH);
    if (realRg) {
      const { grep } = loggedRipgrep(ws, realRg);
      const viaRg = await grep(undefined, { pattern: 'needle' });
      const viaJs = await grep('javascript', { pattern: 'needle' });
      expect(viaRg).toEqual(viaJs);
    }
    const out = text(results[0]!);
    expect(out.length).toBeLessThanOrEqual(DEFAULT_OUTPUT_THRESHOLD);
    const lines = out.split('\n');
    const shown = lines.length - 1;
    expect(shown).toBeGreaterThan(50);
    expect(shown).toBeLessThan(200);
    expect(lines[0]).toMatch(new RegExp(`^${deep}f00.ts:1: needle`));
    expect(lines[shown - 1]).toMatch(/:\d+: needle/);
    expect(lines.at(-1)).toBe(`[truncated: first ${shown} matches (the output limit is 36,000 characters); narrow the pattern, path or include]`);
    expect(results[0]!.returnDisplay).toBe(`${shown}+ matches in .`);
    expect(results[0]!.linesOf).toHaveLength(shown);
  });

  it('glob shows the paths that fit and counts them all', async () => {
    const files = Object.fromEntries(Array.from({ length: 450 }, (_, i) => [`${deep}${'nested-directory/'.repeat(2)}file-${String(i).padStart(3, '0')}.ts`, '']));
    const ws = makeWorkspace(files);
    const out = text(await call(ws.tool('glob'), { pattern: '**/*.ts' }));
    expect(out.length).toBeLessThanOrEqual(DEFAULT_OUTPUT_THRESHOLD);
    const lines = out.split('\n');
    const shown = lines.length - 1;
    expect(shown).toBeLessThan(450);
    expect(lines[shown - 1]).toMatch(new RegExp(`file-${String(shown - 1).padStart(3, '0')}\\.ts$`));
    expect(lines.at(-1)).toBe(`[truncated: ${shown} of 450 matching paths shown (the output limit is 36,000 characters); narrow the pattern or the path]`);
  });

  it('ls shows the entries that fit', async () => {
    const files = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`dir/${String(i).padStart(3, '0')}-${'n'.repeat(200)}.txt`, '']));
    const ws = makeWorkspace(files);
    const out = text(await call(ws.tool('ls').forTools(['ls', 'glob']), { path: 'dir' }));
    expect(out.length).toBeLessThanOrEqual(DEFAULT_OUTPUT_THRESHOLD);
    const lines = out.split('\n');
    const shown = lines.length - 1;
    expect(shown).toBeLessThan(300);
    expect(lines.at(-1)).toBe(`[truncated: ${shown} of 300 entries shown, in name order (the output limit is 36,000 characters); call again with offset=${shown} for the next ones, or list a subdirectory]`);
    // The next page goes on from there, to the last entry.
    const next = text(await call(ws.tool('ls'), { path: 'dir', offset: shown })).split('\n');
    expect(next[0]).toMatch(new RegExp(`^${String(shown).padStart(3, '0')}-n+\\.txt$`));
    expect(next.at(-1)).toBe(`[${300 - shown} of 300 entries shown (entries ${shown + 1}-300), in name order: the last ones]`);
  });
});
