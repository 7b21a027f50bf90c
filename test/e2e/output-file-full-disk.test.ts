// `report --out` and `convert --out` on a full disk: exit 54 (the code for files that cannot be
// written for want of space), a message that says so and that nothing was written, an earlier
// file left as it was, and no temporary file beside it. It used to be exit 42, "bad input",
// with the bare code ENOSPC and a hint to choose "a writable path".
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { fullDisk, smallDisk, unmountSmallDisks } from '../helpers/small-disk.js';

afterAll(removeTempDirs);
afterAll(unmountSmallDisks);

const canMount = fullDisk('16k', 0) !== null;
let run: string;

beforeAll(async () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'turns.json'), JSON.stringify({ turns: [{ text: `done ${'x'.repeat(20_000)}` }] }));
  run = path.join(dir, 'out');
  const r = await cli(['run', '--provider', 'scripted', '--script', 'turns.json', '--prompt', 'go', '--sandbox', 'off', '--out', run], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
});

describe('an output file on a full disk', () => {
  it.skipIf(!canMount)('report --out: exit 54, nothing written, the earlier file as it was', async () => {
    const disk = smallDisk('64k')!;
    const out = path.join(disk, 'report.md');
    fs.writeFileSync(out, 'EARLIER\n');
    // Filled around the earlier file, so the new report has no room.
    const { bavail, bsize } = fs.statfsSync(disk);
    fs.writeFileSync(path.join(disk, 'filler'), Buffer.alloc(bavail * bsize));
    const r = await cli(['report', run, '--format', 'md', '--out', out]);
    expect(r.code, r.stderr).toBe(54);
    expect(r.stderr).toContain(`cannot write ${out}: no space left on the device holding ${disk}; nothing was written (${out} is as it was)`);
    expect(r.stderr).toContain('free space there and run the command again, or choose another place with --out FILE');
    expect(fs.readFileSync(out, 'utf8')).toBe('EARLIER\n');
    expect(fs.readdirSync(disk).sort()).toEqual(['filler', 'report.md']);
  });

  it.skipIf(!canMount)('convert --out: exit 54, no file left', async () => {
    const disk = fullDisk('64k', 0)!;
    const out = path.join(disk, 'recipe.yaml');
    const goose = path.join(tempDir(), 'goose.yaml');
    fs.writeFileSync(goose, `version: 1.0.0\ntitle: t\ndescription: d\nprompt: ${'p'.repeat(9000)}\n`);
    const r = await cli(['convert', goose, '--out', out]);
    expect(r.code, r.stderr).toBe(54);
    expect(r.stderr).toContain(`cannot write ${out}: no space left on the device holding ${disk}; nothing was written`);
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.readdirSync(disk)).toEqual(['filler']);
  });
});
