// A runner whose PATH holds relative entries (`.`, `bin`, an empty one): with the sandbox off, an
// approved `git status` run in the repository must run git, not an executable named `git` that
// the repository ships. Tools get PATH without those entries, and the run warns about them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('relative PATH entries', () => {
  it.each([
    ['.', '.:/usr/local/bin:/usr/bin:/bin'],
    ['an empty entry', ':/usr/local/bin:/usr/bin:/bin'],
    ['bin', 'bin:/usr/local/bin:/usr/bin:/bin'],
  ])("do not let the repository's own 'git' run in place of git (%s)", async (_, pathValue) => {
    const root = tempDir('relative-path-');
    const ws = path.join(root, 'ws');
    const marker = path.join(root, 'hijacked');
    fs.mkdirSync(path.join(ws, 'bin'), { recursive: true });
    const fake = `#!/bin/sh\necho hijacked > '${marker}'\necho FAKE-GIT\n`;
    for (const file of ['git', 'bin/git']) fs.writeFileSync(path.join(ws, file), fake, { mode: 0o755 });
    const script = path.join(root, 'turns.json');
    fs.writeFileSync(script, JSON.stringify({ turns: [{ calls: [{ name: 'shell', args: { command: 'git status --short' } }] }, { text: 'Done.' }] }));
    const out = path.join(root, 'run');
    const run = await cli(
      ['run', '--prompt', 'Status?', '--provider', 'scripted', '--script', script, '--workspace', ws, '--out', out, '--approval', 'allowlist', '--allow', 'shell:git status *', '--sandbox', 'off'],
      { env: { PATH: `${pathValue}:${path.dirname(process.execPath)}` } },
    );
    const { events } = readRun(out);
    const result = events.find((e) => e.type === 'tool_result');
    expect(JSON.stringify(result)).not.toContain('FAKE-GIT');
    expect(fs.existsSync(marker)).toBe(false);
    expect(run.stderr).toMatch(/PATH holds relative entries \('(\.|\(empty\)|bin)'\): tools get PATH without them/);
  }, 60_000);
});
