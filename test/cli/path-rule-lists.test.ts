// A path rule written as a list, `--deny 'write_file:.env,secrets/**'` (as --tools takes names), was
// one glob that matched no path the author meant: the deny rule refused nothing, and the model's
// write to .env ran. Such a rule is refused, with the forms that do what was meant, and the brace
// form it names refuses both paths.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { runInProcess } from './in-process.js';

let cwd: string;
const run = (command: string, opts: Omit<Parameters<typeof runInProcess>[1], 'cwd'> = {}) => runInProcess(command, { cwd, ...opts });

// Each test in a workspace of its own: one's write to .env must not be seen by the other.
beforeEach(() => {
  cwd = tempDir('unattended-path-rule-lists-');
});
afterAll(() => removeTempDirs());

const writeEnv = { calls: [{ name: 'write_file', args: { file_path: '.env', content: 'TOKEN=x\n' } }] };

describe('a path rule with a comma outside braces', () => {
  it('is refused before any model request, saying it is one glob and what to write', async () => {
    const r = await run("unattended -p x --approval auto-approve --sandbox off --deny 'write_file:.env,secrets/**'", { replies: [writeEnv, { text: 'Done.' }] });
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain("'.env,secrets/**' has a comma outside braces: it is one glob (of names holding that comma), not a list of them; write a rule for each path, or braces ({a,b}/*.md)");
    expect(fs.existsSync(path.join(cwd, '.env'))).toBe(false);
  });

  it('the brace form it suggests refuses the write it names', async () => {
    const r = await run("unattended -p x --approval auto-approve --sandbox off --deny 'write_file:{.env,secrets/**}' --out braces", { replies: [writeEnv, { text: 'Done.' }] });
    expect(r.code).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(cwd, 'braces/report.json'), 'utf8'));
    expect(report.denials.map((d: any) => d.tool)).toEqual(['write_file']);
    expect(fs.existsSync(path.join(cwd, '.env'))).toBe(false);
  });
});
