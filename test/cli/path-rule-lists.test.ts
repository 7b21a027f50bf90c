// A rule written as a list, `--deny 'write_file:.env,secrets/**'` (as --tools takes names) or
// `--deny 'shell:touch made.txt, shell:curl'` (rules on one line, as an Action input may be written),
// was one glob or one command that matched nothing the author meant: the deny rule refused nothing,
// and the model's write ran. Such a rule is refused, with the forms that do what was meant, and the
// brace form it names refuses both paths.
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

describe('shell rules listed on one line', () => {
  it('are refused before any model request, where they refused nothing and the command ran', async () => {
    const touch = { calls: [{ name: 'shell', args: { command: 'touch made.txt' } }] };
    for (const rule of ['shell:touch made.txt, shell:curl', 'shell:touch made.txt,shell:curl']) {
      const r = await run(`unattended -p x --approval auto-approve --sandbox off --deny '${rule}'`, { replies: [touch, { text: 'Done.' }] });
      expect({ rule, code: r.code, requests: r.requests.length }).toEqual({ rule, code: 42, requests: 0 });
      expect(r.stderr).toContain('reads as a list of rules');
      expect(r.stderr).toContain('write one rule for each command');
      expect(fs.existsSync(path.join(cwd, 'made.txt'))).toBe(false);
    }
  });
});
