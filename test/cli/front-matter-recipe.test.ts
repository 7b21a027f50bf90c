// A Claude Code sub-agent (.claude/agents/*.md) or slash command (.claude/commands/*.md) given
// where a recipe goes: Markdown under YAML front matter. It was read as two YAML documents and
// told "remove this `---` and keep one", which leaves neither a recipe nor the file Claude Code
// reads. It is named for what it is, with where its parts go here; two YAML recipes in one file
// still get the multi-document message.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

let cwd: string;
beforeAll(() => {
  cwd = tempDir('unattended-front-matter-');
  fs.mkdirSync(path.join(cwd, '.claude', 'agents'), { recursive: true });
  fs.mkdirSync(path.join(cwd, '.claude', 'commands'), { recursive: true });
  fs.writeFileSync(path.join(cwd, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: sonnet\n---\n\nYou are a careful reviewer.\n');
  // Extension-less, as a file a user saved without one: told apart from YAML by its body.
  fs.writeFileSync(path.join(cwd, 'review'), '---\ndescription: Review the diff\nallowed-tools: Bash(git diff:*)\n---\nReview the diff: $ARGUMENTS\n');
  fs.writeFileSync(path.join(cwd, 'two.yaml'), '---\nversion: 1\nprompt: a\nconfirmation: {mode: deny}\n---\nversion: 1\nprompt: b\nconfirmation: {mode: deny}\n');
});
afterAll(() => removeTempDirs());

it('a sub-agent or slash command file given to validate or run is named as Markdown with front matter, exit 52', async () => {
  for (const file of ['.claude/agents/reviewer.md', 'review']) {
    const v = await cliInProcess(['validate', file], { cwd });
    expect({ file, code: v.code }).toEqual({ file, code: 52 });
    expect(v.stderr).toContain(`${file}:1:1: ${path.basename(file)} is Markdown with front matter (as Claude Code's sub-agents and slash commands are), not a recipe`);
    expect(v.stderr).toContain('allowed-tools → `confirmation.allow`');
    expect(v.stderr).not.toContain('remove this `---`');
  }
  const r = await cli(['run', '.claude/agents/reviewer.md'], { cwd });
  expect(r.code).toBe(52);
  expect(r.stderr).toContain('reviewer.md is Markdown with front matter');
});

it('two YAML recipes in one file are still told to keep one', async () => {
  const v = await cliInProcess(['validate', 'two.yaml'], { cwd });
  expect(v.code).toBe(52);
  expect(v.stderr).toContain('two.yaml:5:1: a recipe is one YAML document, and a second one starts here');
});
