// A command can leave a FIFO where the runner later reads a file on the host: `.git/index` (which
// change tracking copies), a file a file tool changed (compared at the end), `.git/commondir`
// (read to find git's config). A plain read of a FIFO waits for a writer on the event loop's own
// thread, so the run hung for good: its timeout never fired and SIGTERM did nothing; only SIGKILL
// ended it, with no report.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { makeRepo } from '../git/repos.js';
import { commonDirOf } from '../../src/util/git-config-sources.js';
import { pinRepositoryLayout } from '../../src/git/pinned-layout.js';

afterAll(removeTempDirs);

async function run(calls: Array<{ name: string; args: Record<string, unknown> }>) {
  const dir = tempDir('unattended-fifo-left-');
  const ws = await makeRepo(path.join(dir, 'ws'), { 'a.txt': 'a\n' });
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns: [...calls.map((call) => ({ calls: [call] })), { text: 'done' }] }));
  const recipe = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(recipe, YAML.stringify({ version: 1, prompt: 'x', provider: 'scripted', script: 'turns.yaml', workspace: 'ws', tools: ['shell', 'write_file'], confirmation: { mode: 'auto-approve' }, limits: { timeout: '20s' } }));
  const out = path.join(dir, 'out');
  const started = Date.now();
  // A hung run ignores SIGTERM: execa's kill after the timeout is then SIGKILL, and no report is left.
  const r = await cli(['run', recipe, '--out', out], { timeoutMs: 40_000 });
  return { r, seconds: (Date.now() - started) / 1000, ws, ...readRun(out) };
}

const shell = (command: string) => ({ name: 'shell', args: { command } });

describe.skipIf(process.platform !== 'linux')('a FIFO a command leaves where the runner reads', () => {
  it('as .git/index: the run goes on and ends with its report', async () => {
    const { r, seconds, events } = await run([shell('rm .git/index && mkfifo .git/index'), shell('echo second; echo x > a.txt')]);
    expect(r.code, r.stderr).toBe(0);
    expect(seconds).toBeLessThan(20);
    expect(String(events.filter((e) => e.type === 'tool_result')[1]!.llm_content)).toContain('second');
  }, 60_000);

  it("where a file tool's file was: the run ends, and files_changed says what is there now", async () => {
    const { r, seconds, report } = await run([{ name: 'write_file', args: { file_path: 'b.txt', content: 'hello\n' } }, shell('rm b.txt && mkfifo b.txt')]);
    expect(r.code, r.stderr).toBe(0);
    expect(seconds).toBeLessThan(20);
    const b = report.files_changed.find((f: { path: string }) => f.path === 'b.txt');
    expect(b?.diff).toContain('no regular file');
  }, 60_000);

  // git itself waits on such a commondir: the listing of the repository's settings for the next
  // call's environment waited out its 10 s limit, twice a call, before the runner put it back.
  it('as .git/commondir: the next call starts at once, and the file is put back', async () => {
    const { r, seconds, ws, report } = await run([shell('mkfifo .git/commondir'), shell('echo second')]);
    expect(r.code, r.stderr).toBe(0);
    expect(seconds).toBeLessThan(10);
    expect(report.warnings.join('\n')).toContain('commondir');
    expect(fs.existsSync(path.join(ws, '.git', 'commondir'))).toBe(false);
  }, 60_000);

  it('as .git/commondir: the runner reads past it and puts it back', async () => {
    const ws = await makeRepo(path.join(tempDir('unattended-fifo-commondir-'), 'ws'), { 'a.txt': 'a\n' });
    const layout = pinRepositoryLayout(ws)!;
    execFileSync('mkfifo', [path.join(ws, '.git', 'commondir')]);
    expect(commonDirOf(path.join(ws, '.git'))).toBe(path.join(ws, '.git'));
    expect(layout.restore().join('\n')).toContain('put back');
    expect(fs.existsSync(path.join(ws, '.git', 'commondir'))).toBe(false);
  });
});
