// `unattended /review`, typed as `claude -p "/review"` or Gemini CLI's /command runs a built-in or
// a project's custom command: there are no slash commands here, and the path hint it got ("pass
// it with -p '/review'") would have sent the model the bare word without the command's text. The
// refusal says so, and names the repository's custom command file when there is one.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { runInProcess } from './in-process.js';

let cwd: string;
const run = (command: string) => runInProcess(command, { cwd });

beforeAll(() => {
  cwd = tempDir('unattended-slash-commands-');
  fs.mkdirSync(path.join(cwd, '.claude/commands/frontend'), { recursive: true });
  fs.writeFileSync(path.join(cwd, '.claude/commands/review.md'), 'Review the staged diff for bugs.\n');
  fs.writeFileSync(path.join(cwd, '.claude/commands/frontend/component.md'), 'Write a component.\n');
  fs.mkdirSync(path.join(cwd, '.gemini/commands'), { recursive: true });
  fs.writeFileSync(path.join(cwd, '.gemini/commands/changelog.toml'), 'prompt = "Update the changelog."\n');
});
afterAll(() => removeTempDirs());

describe('a slash command as the first word', () => {
  it('is refused before any model request, saying there are none here and how to give a task', async () => {
    const r = await run('unattended /compact');
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain("'/compact' names no file");
    expect(r.stderr).toContain('unattended has no slash commands');
    expect(r.stderr).not.toContain("pass it with -p '/compact'");
  });

  it("names the repository's custom command file, and how its text becomes the prompt", async () => {
    const claude = await run('unattended /review');
    expect([claude.code, claude.requests.length]).toEqual([42, 0]);
    expect(claude.stderr).toContain('(.claude/commands/review.md is a custom command of another agent)');
    expect(claude.stderr).toContain('unattended -p "$(cat .claude/commands/review.md)"');
    const namespaced = await run('unattended /frontend:component');
    expect(namespaced.stderr).toContain('unattended -p "$(cat .claude/commands/frontend/component.md)"');
    const gemini = await run('unattended /changelog');
    expect(gemini.stderr).toContain('.gemini/commands/changelog.toml is a custom command of another agent');
  });
});
