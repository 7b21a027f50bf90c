// `--param who=bob,flag=true`, as goose's --params and other key=value lists are written, ran with
// who = 'bob,flag=true' and flag at its default, without a word.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const RECIPE = 'version: 1\nname: r\nprompt: "Greet {{ who }} (loud: {{ loud }})"\nconfirmation: {mode: deny}\nsandbox: {mode: "off"}\nparameters:\n  who: {type: string, required: true}\n  loud: {type: boolean, default: false}\n';

function workspace(): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'r.yaml'), RECIPE);
  fs.writeFileSync(path.join(dir, 's.yaml'), 'turns:\n  - text: Hello.\n');
  return dir;
}

function runPrompt(out: string): string {
  const start = fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === 'run_start');
  return start.prompt;
}

describe('--param with a comma-separated list of parameters', () => {
  it('is refused, naming the other parameter and the two flags to give instead', async () => {
    const dir = workspace();
    const r = await cli(['r.yaml', '--param', 'who=bob,loud=true', '--provider', 'scripted', '--script', 's.yaml'], { cwd: dir });
    expect(r.code, r.stderr).toBe(42);
    expect(r.stderr).toContain("--param who=bob,loud=true: 'loud' is another parameter of this recipe");
    expect(r.stderr).toContain('--param who=bob --param loud=true');
  });

  it('a value with commas that name no parameter is kept whole', async () => {
    const dir = workspace();
    const out = path.join(dir, 'out');
    const r = await cli(['r.yaml', '--param', 'who=bob, carol,x=1', '--param', 'loud=yes', '--provider', 'scripted', '--script', 's.yaml', '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(runPrompt(out)).toBe('Greet bob, carol,x=1 (loud: true)');
  });

  it('a value naming a parameter also given on its own is that parameter\'s text, kept whole', async () => {
    const dir = workspace();
    const out = path.join(dir, 'out');
    const r = await cli(['r.yaml', '--param', 'who=a,loud=b', '--param', 'loud=no', '--provider', 'scripted', '--script', 's.yaml', '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(runPrompt(out)).toBe('Greet a,loud=b (loud: false)');
  });
});
