// Issue 10 §6: listing and search tools in a workspace of 200,000 files (a real tree on disk, made
// once for the file by test/helpers/big-tree.ts: 200 packages, each of 1,000 hard links to the same
// files). They stay correct (the landmarks that sort last are found) and fast, and where a walk
// does stop at its cap (lowered here so the cap is reachable), they never claim "nothing found":
// they say what they searched, that it is partial, and how to narrow.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import type { ToolContext } from '../../src/tools/context.js';
import type { ToolResult } from '../../src/tools/tools.js';
import { Workspace } from '../../src/util/workspace.js';
import { makeBigTree, removeBigTree, type BigTree } from '../helpers/big-tree.js';

const FILES = 200_000;
let base: string;
let tree: BigTree;

/**
 * In memory where the system has a tmpfs for it: 200,000 files on a shared, busy disk take
 * minutes to write and remove, and starve every other test of I/O meanwhile.
 */
function scratchDir(): string {
  for (const dir of ['/dev/shm', os.tmpdir()]) {
    try {
      fs.accessSync(dir, fs.constants.W_OK);
      return dir;
    } catch {
      // not here
    }
  }
  return os.tmpdir();
}

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(scratchDir(), 'unattended-huge-')));
  const started = performance.now();
  tree = makeBigTree(base, FILES);
  console.info(`made ${tree.files} files in ${Math.round(performance.now() - started)} ms`);
}, 180_000);
afterAll(() => removeBigTree(base), 180_000);

async function run(name: string, params: Record<string, unknown>, over: Partial<ToolContext> = {}): Promise<{ text: string; ms: number; result: ToolResult }> {
  const ctx: ToolContext = { workspace: Workspace.open(base), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, maxTimeoutMs: 60_000, ...over };
  const tool = createBuiltinTools(ctx, [name])[0]!;
  const started = performance.now();
  const result = await tool.execute(params as never, new AbortController().signal);
  const ms = performance.now() - started;
  expect(result.error).toBeUndefined();
  return { text: String(result.llmContent), ms, result };
}

describe(`a workspace of ${FILES.toLocaleString('en-US')} files`, () => {
  it('glob finds the files that sort last, in seconds', async () => {
    const { text, ms } = await run('glob', { pattern: '**/landmark.*' });
    console.info(`glob **/landmark.* over ${tree.files} files: ${Math.round(ms)} ms`);
    expect(text.split('\n')).toEqual(tree.landmarks);
    expect(ms).toBeLessThan(15_000);
  });

  it('glob of every file: 500 shown, the true total said, and how to narrow', async () => {
    const { text, ms } = await run('glob', { pattern: '**/*.ts' });
    console.info(`glob **/*.ts over ${tree.files} files: ${Math.round(ms)} ms`);
    expect(text.split('\n').at(-1)).toBe(`[truncated: 500 of ${FILES + 1} matching paths shown; narrow the pattern or the path]`);
  });

  // grep through ripgrep (the default when it is on PATH) and through the JavaScript walk.
  const engines = [{ engine: undefined }, { engine: 'javascript' as const }];

  // The whole tree once (ripgrep when on PATH); the JavaScript walk's whole-tree search is what
  // the capped tests below and the subtree test exercise, and bench/grep.mjs times.
  it('grep searches every file and finds the needle in the last ones, in seconds', async () => {
    const { text, ms } = await run('grep', { pattern: tree.needle });
    console.info(`grep over ${tree.files} files: ${Math.round(ms)} ms`);
    expect(text).toBe(tree.landmarks.map((l) => `${l}:1: // ${tree.needle}`).join('\n'));
    expect(ms).toBeLessThan(25_000);
  });

  it.each(engines)('grep ($engine) with no match says how many files it searched', async ({ engine }) => {
    const { text } = await run('grep', { pattern: 'NOT_ANYWHERE_AT_ALL', path: 'packages/p0001' }, { grepEngine: engine });
    expect(text).toBe("No matches for /NOT_ANYWHERE_AT_ALL/ in packages/p0001 (searched 1000 files; gitignored paths, .git, node_modules and .unattended are not searched).");
  });

  it('grep of a line in every file: the same first 200 matches, in walk order, from both engines', async () => {
    const [viaRg, viaJs] = [await run('grep', { pattern: '^export const v\\d+ = ' }), await run('grep', { pattern: '^export const v\\d+ = ' }, { grepEngine: 'javascript' })];
    expect(viaRg.text).toBe(viaJs.text);
    const lines = viaRg.text.split('\n');
    expect(lines[0]).toBe('packages/p0000/mod-00/file-000.ts:1: export const v0 = 0;');
    expect(lines.at(-1)).toBe('[truncated: first 200 matches; narrow the pattern, path or include]');
  });

  it('ls lists the root and a directory of 200 packages', async () => {
    expect((await run('ls', {})).text).toBe('packages/\nzz-last/');
    const packages = (await run('ls', { path: 'packages' })).text.split('\n');
    expect(packages).toHaveLength(200);
    expect([packages[0], packages.at(-1)]).toEqual(['p0000/', 'p0199/']);
  });

  it('read_many_files reads a glob whose matches sort last, and says how many a directory held', async () => {
    const landmarks = await run('read_many_files', { paths: ['**/landmark.*'] });
    for (const l of tree.landmarks) expect(landmarks.text).toContain(`--- ${l} ---\n// ${tree.needle}`);
    expect(landmarks.text).not.toContain('not found');
    const packages = await run('read_many_files', { paths: ['packages'] });
    expect(packages.text.match(/^--- /gm)).toHaveLength(100);
    expect(packages.text).toContain(`[truncated: 100 of ${FILES} files taken (the limit is 100 per call)`);
  });

  describe('when a walk stops at its entry limit (lowered to 1,000)', () => {
    const capped = { maxWalkEntries: 1_000 };

    it('glob never says "No files match" as if it had looked everywhere', async () => {
      const { text } = await run('glob', { pattern: '**/landmark.*' }, capped);
      expect(text).not.toMatch(/^No files match '\*\*\/landmark\.\*' in \. \(/);
      expect(text).toMatch(/searched so far under \.; the search did not finish/);
      // The note names the limit the walk stopped at, not the default one.
      expect(text).toMatch(/\[partial: the search stopped at its limit of 1,000 entries under \.; the rest was NOT searched/);
      expect(text).toMatch(/narrow it: a subdirectory in path/);
    });

    it('glob with matches says the list may be incomplete', async () => {
      const { text, result } = await run('glob', { pattern: '**/*.ts' }, capped);
      expect(text).toMatch(/\[partial: .*NOT searched/);
      expect(result.returnDisplay).toMatch(/\+ files match/);
    });

    it('grep says what it searched and that there may be matches', async () => {
      const { text } = await run('grep', { pattern: tree.needle }, capped);
      expect(text).toMatch(/^No matches for \/NEEDLE_IN_THE_LAST_PACKAGE\/ in the \d+ files searched so far under \.; the search did not finish/);
      expect(text).toMatch(/\[partial: the search stopped at its limit of 1,000 entries .*NOT searched.*narrow it: a subdirectory in path, an include glob/);
    });

    it('read_many_files does not call an unfinished glob "not found"', async () => {
      const { text } = await run('read_many_files', { paths: ['**/landmark.*'] }, capped);
      expect(text).not.toContain('[not found');
      expect(text).toMatch(/the search of \*\*\/landmark\.\* stopped at its entry limit/);
    });
  });
});
