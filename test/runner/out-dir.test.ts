// The run's directory as the runner holds it (runner/out-dir.ts): writes go into the directory it
// made, wherever that now is, and never through a link left in it or at its path.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunDir } from '../../src/runner/out-dir.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('RunDir', () => {
  it('replaces a link at a file name, refuses one at a directory name, and follows neither', () => {
    const base = tempDir();
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'target'), 'untouched\n');
    const dir = RunDir.open(path.join(base, 'out'));
    try {
      fs.symlinkSync(path.join(outside, 'target'), path.join(base, 'out/report.json'));
      fs.symlinkSync(outside, path.join(base, 'out/tool-outputs'));
      dir.writeFile('report.json', '{}');
      expect(() => dir.writeFile('tool-outputs/call_1_0.txt', 'output')).toThrow(/ENOTDIR|ELOOP/);
      expect(fs.lstatSync(path.join(base, 'out/report.json')).isFile()).toBe(true);
      expect(fs.readdirSync(outside)).toEqual(['target']);
      expect(fs.readFileSync(path.join(outside, 'target'), 'utf8')).toBe('untouched\n');
    } finally {
      dir.close();
    }
  });

  it.skipIf(process.platform !== 'linux')('writes where the directory was moved to, and says so', () => {
    const base = tempDir();
    const out = path.join(base, 'a/out');
    const dir = RunDir.open(out);
    try {
      expect(dir.displaced()).toBeNull();
      fs.renameSync(path.join(base, 'a'), path.join(base, 'b'));
      fs.mkdirSync(out, { recursive: true });
      dir.writeFile('tool-outputs/call_1_0.txt', 'output');
      expect(fs.readFileSync(path.join(base, 'b/out/tool-outputs/call_1_0.txt'), 'utf8')).toBe('output');
      expect(fs.readdirSync(out)).toEqual([]);
      expect(dir.location()).toBe(path.join(base, 'b/out'));
      expect(dir.displaced()).toBe(`the run directory ${out} was moved during the run, to ${path.join(base, 'b/out')}: the run's files are there, and whatever is at ${out} now is not this run's`);
    } finally {
      dir.close();
    }
  });
});
