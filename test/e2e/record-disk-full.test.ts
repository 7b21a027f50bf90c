// --record FILE on a full disk: the run stops (exit 54) and the recording is either gone or holds
// only whole turns that --script replays, and the error says which. It used to leave a 0-byte file,
// or one whose last line was cut, that looked like a recording and replayed nothing or failed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { fullDisk, unmountSmallDisks } from '../helpers/small-disk.js';

afterAll(removeTempDirs);

afterAll(unmountSmallDisks);

const canMount = fullDisk('16k', 0) !== null;

async function record(turns: unknown[], file: string) {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'turns.json'), JSON.stringify({ turns }));
  return cli(['run', '--provider', 'scripted', '--script', 'turns.json', '--prompt', 'go', '--approval', 'auto-approve', '--sandbox', 'off', '--out', path.join(dir, 'out'), '--record', file], { cwd: dir });
}

const call = (padding: string) => ({ calls: [{ name: 'shell', args: { command: 'true', description: padding } }] });

describe('--record on a full disk', () => {
  it.skipIf(!canMount)('no room for the first turn: no empty file is left, and the error says so', async () => {
    const file = path.join(fullDisk('64k', 0)!, 'rec.jsonl');
    const r = await record([{ text: 'done' }], file);
    expect(r.code, r.stderr).toBe(54);
    expect(r.stderr).toContain(`cannot write --record ${file}: ENOSPC`);
    expect(r.stderr).toContain('nothing was recorded');
    expect(fs.existsSync(file)).toBe(false);
  });

  it.skipIf(!canMount)('room for part of a turn: the file keeps the whole turns before it, and replays', async () => {
    const file = path.join(fullDisk('64k', 1)!, 'rec.jsonl');
    // Turn 1 fits in the page left; turn 2 is written in part before the disk is full.
    const r = await record([call('a'.repeat(3000)), call('b'.repeat(9000)), { text: 'done' }], file);
    expect(r.code, r.stderr).toBe(54);
    expect(r.stderr).toContain('it keeps the 1 whole turn before it');
    const text = fs.readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n').filter(Boolean).map((l) => JSON.parse(l).calls[0].args.description)).toEqual(['a'.repeat(3000)]);
  });
});
