// A repository's ignore files cannot make grep's ripgrep eat memory or hang (grep-rg-guard.ts).
// ripgrep opens .gitignore and .rgignore as any program does: a committed link to /dev/zero made
// it read without end (1.2 GB/s), a FIFO made every grep wait out its time limit and fail with a
// message about backtracking. Now ripgrep's memory is capped and a stalled ripgrep is killed;
// either way the JavaScript walk (which reads only regular ignore files, as git does) answers.
// Real ripgrep, real links and FIFOs; each case is bounded by a short time limit.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import { STALL_MS } from '../../src/tools/builtin/grep-rg-guard.js';
import { call, cleanupAll, loggedRipgrep, makeWorkspace, text } from './helpers.js';

const realRg = findRipgrep(process.env.PATH);
afterAll(cleanupAll);

/** A workspace with a match in a.txt and sub/b.txt, and `plant` run on its root; grep through a logged ripgrep. */
function hostile(plant: (root: string) => void, limitMs: number) {
  const ws = makeWorkspace({ 'a.txt': 'NEEDLE\n', 'sub/b.txt': 'NEEDLE below\n', 'c.log': 'NEEDLE in a log\n' });
  plant(ws.root);
  const { calls } = loggedRipgrep(ws, realRg!);
  const rgPath = `${path.join(path.dirname(ws.root), 'bin')}:/usr/bin:/bin`;
  const grep = async (engine?: 'javascript') => {
    const started = Date.now();
    const result = await call(createBuiltinTools({ ...ws.ctx, env: { PATH: rgPath }, grepEngine: engine, grepTimeLimitMs: limitMs }, ['grep'])[0]!, { pattern: 'NEEDLE' });
    return { text: text(result), error: result.error, ms: Date.now() - started };
  };
  return { grep, calls };
}

const expected = 'a.txt:1: NEEDLE\nc.log:1: NEEDLE in a log\nsub/b.txt:1: NEEDLE below';

describe.skipIf(!realRg || process.platform !== 'linux')('grep with hostile ignore files', () => {
  it('answers when .gitignore is a link to /dev/zero: ripgrep runs out of its memory cap at once', async () => {
    const { grep, calls } = hostile((root) => fs.symlinkSync('/dev/zero', path.join(root, '.gitignore')), 3000);
    let viaRg: Awaited<ReturnType<typeof grep>> | undefined;
    expect((await calls(async () => (viaRg = await grep()))).length).toBeGreaterThan(0);
    expect(viaRg!.error).toBeUndefined();
    expect(viaRg!.text).toBe(expected);
    expect(viaRg!.ms).toBeLessThan(2000);
  });

  it.each(['.gitignore', 'sub/.rgignore'])('answers when %s is a FIFO: a stalled ripgrep is given up', async (fifo) => {
    // Half the time limit (when ripgrep is given up anyway) is well past the stall.
    const { grep, calls } = hostile((root) => execFileSync('mkfifo', [path.join(root, fifo)]), 8000);
    let viaRg: Awaited<ReturnType<typeof grep>> | undefined;
    expect((await calls(async () => (viaRg = await grep()))).length).toBeGreaterThan(0);
    expect(viaRg!.error).toBeUndefined();
    expect(viaRg!.text).toBe(expected);
    expect(viaRg!.ms).toBeLessThan(STALL_MS + 1000);
    expect((await grep('javascript')).text).toBe(expected);
  });
});
