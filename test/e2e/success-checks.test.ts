// Success checks (issue 10 §3): the recipe's `checks:` (or --check, --require-changes) run in the
// workspace after the final answer; a failure goes back to the model with the command and its
// output tail, `retries` times; then status check_failed, exit 56. Each check is a transcript event
// and a report section. A fake Gemini endpoint, real processes and repositories; the built CLI
// where a signal stops the run, the CLI's entry in process elsewhere (no process start each).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { baseEnv, CLI, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';

afterAll(removeTempDirs);

let gemini: FakeGemini | undefined;
afterEach(async () => {
  await gemini?.close();
  gemini = undefined;
});

const KEY = 'AIzaSyTESTKEYthatmustneverleak000000000';
const env = () => ({ GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: gemini!.url });

/** The repository every case starts from: made once, copied for each (a copy is the same repository). */
let template: string;
beforeAll(() => {
  template = path.join(tempDir(), 'ws');
  fs.mkdirSync(template);
  fs.writeFileSync(path.join(template, 'greeting.txt'), 'helo, world\n');
  fs.writeFileSync(path.join(template, 'check.sh'), 'if grep -q "^hello, world$" greeting.txt; then echo "greeting ok"; else echo "FAIL: greeting.txt says: $(cat greeting.txt)"; exit 3; fi\n');
  const git = (...a: string[]) => execFileSync('git', a, { cwd: template, env: { PATH: process.env.PATH, HOME: path.dirname(template), GIT_CONFIG_NOSYSTEM: '1' } });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init');
});

/** A git workspace whose `check.sh` passes only once greeting.txt says "hello, world". */
function workspace(): { dir: string; ws: string } {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.cpSync(template, ws, { recursive: true });
  return { dir, ws };
}

function writeRecipe(dir: string, extra: Record<string, unknown>): string {
  const file = path.join(dir, 'recipe.yaml');
  const recipe = { version: 1, prompt: 'Fix the greeting.', workspace: 'ws', tools: ['read_file', 'edit'], confirmation: { mode: 'auto-approve' }, ...extra };
  fs.writeFileSync(file, YAML.stringify(recipe));
  return file;
}

const fix = (ws: string) => ({ calls: [{ name: 'edit', args: { file_path: path.join(ws, 'greeting.txt'), old_string: 'helo', new_string: 'hello' } }] });

describe('checks.commands', () => {
  it("a check's coloured output (a test runner forced to colour) reaches the model and the report as its words", async () => {
    const { dir } = workspace();
    gemini = await startFakeGemini([{ text: 'Done.' }, { text: 'Still done.' }]);
    const file = writeRecipe(dir, { checks: { commands: [String.raw`printf '\033[31m\033[1mFAIL\033[22m\033[39m greeting.txt\n'; exit 1`], retries: 1, timeout: '30s' } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(56);
    expect(gemini.requests[1]!.body.contents.at(-1).parts[0].text).toContain('FAIL greeting.txt');
    const checks = readRun(out).events.filter((e) => e.type === 'check');
    expect(checks.map((c) => c.output_tail)).toEqual(['FAIL greeting.txt\n', 'FAIL greeting.txt\n']);
    expect(JSON.stringify(readRun(out).report)).not.toContain('\\u001b');
  });

  it("binary a check printed is described to the model and in the report, not sent raw; the text after it is kept", async () => {
    const { dir } = workspace();
    gemini = await startFakeGemini([{ text: 'Done.' }, { text: 'Still done.' }]);
    const blob = String.raw`printf 'compiling\n'; for i in $(seq 300); do printf '\000\001\002\377\376\375'; done; printf '\n\003\004\005\n'; printf 'FAIL: 2 tests failed\n'; exit 1`;
    const file = writeRecipe(dir, { checks: { commands: [blob], retries: 1, timeout: '30s' } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(56);
    const told = gemini.requests[1]!.body.contents.at(-1).parts[0].text as string;
    const tail = readRun(out).report.checks[0].output_tail as string;
    for (const text of [told, tail]) {
      expect(text).toContain('compiling');
      expect(text).toContain('[binary output: not shown]');
      expect(text).toContain('FAIL: 2 tests failed');
      expect(text).not.toMatch(/[\u0000-\u0008\ufffd]/);
    }
  });

  it('a failing check goes back to the model with its output; the model fixes it; the run succeeds', async () => {
    const { dir, ws } = workspace();
    gemini = await startFakeGemini([{ text: 'Nothing needed fixing.' }, fix(ws), { text: 'Fixed the greeting.' }]);
    const file = writeRecipe(dir, { checks: { commands: ['bash check.sh'], retries: 1, timeout: '30s' } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('Fixed the greeting.');

    // The model was told which check failed, how, and what it printed.
    const told = gemini.requests[1]!.body.contents.at(-1);
    expect(told.role).toBe('user');
    expect(told.parts[0].text).toMatch(/success check `bash check.sh` failed \(exit 3\)/);
    expect(told.parts[0].text).toContain('FAIL: greeting.txt says: helo, world');

    const { report, reportMd, events } = readRun(out);
    expect(report.status).toBe('success');
    const checks = events.filter((e) => e.type === 'check');
    expect(checks).toEqual([
      expect.objectContaining({ attempt: 1, kind: 'command', check: 'bash check.sh', passed: false, exit_code: 3, reason: 'exit 3' }),
      expect.objectContaining({ attempt: 2, kind: 'command', check: 'bash check.sh', passed: true, exit_code: 0, reason: null }),
    ]);
    expect(checks[0]!.output_tail).toContain('FAIL: greeting.txt says: helo, world');
    expect(checks[1]!.output_tail).toBe('greeting ok\n');
    expect(typeof checks[0]!.duration_ms).toBe('number');
    expect(events.find((e) => e.type === 'answer_rejected')).toMatchObject({ attempt: 1 });
    expect(report.checks).toHaveLength(2);
    expect(reportMd).toContain('## Success checks');
    expect(reportMd).toContain('| success checks | ✅ 1 passed (answer 2) |');
    expect(reportMd).toMatch(/\| 1 \| `bash check.sh` \| ❌ exit 3 \|/);
    expect(reportMd).toMatch(/\| 2 \| `bash check.sh` \| ✅ passed \|/);
    // Everything the report says of the checks is in the transcript: rebuilt from it alone, the same.
    const rebuilt = await cliInProcess(['report', out, '--format', 'md']);
    expect(rebuilt.stdout.trim()).toBe(reportMd.trim());
  });

  it('still failing after the retries: check_failed, exit 56, nothing handed off', async () => {
    const { dir, ws } = workspace();
    gemini = await startFakeGemini([{ text: 'Done.' }, { text: 'Really done.' }]);
    const file = writeRecipe(dir, { checks: { commands: ['true', 'bash check.sh', 'touch never-ran'], retries: 1 }, git: { branch: 'fix/greeting' } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(56);
    const { report, events } = readRun(out);
    expect(report.status).toBe('check_failed');
    expect(report.final_answer).toBeNull();
    expect(r.stdout).toBe('');
    expect(readRun(out).reportMd).toContain('| success checks | ❌ `bash check.sh`: exit 3 (answer 2) |');
    expect(report.error).toMatch(/success check failed \(after 1 retry\): `bash check.sh` exit 3/);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'check_failed', exit_code: 56 });
    // Checks stop at the first failure, each attempt; the third command never ran.
    expect(report.checks.map((c: { check: string; passed: boolean }) => `${c.check}:${c.passed}`)).toEqual(['true:true', 'bash check.sh:false', 'true:true', 'bash check.sh:false']);
    expect(fs.existsSync(path.join(ws, 'never-ran'))).toBe(false);
    expect(report.git?.commit ?? null).toBeNull();
    expect(execFileSync('git', ['branch', '--list', 'fix/greeting'], { cwd: ws }).toString()).toBe('');
  });

  it('--check adds commands from the command line, run without the policy, with the tools\u2019 environment', async () => {
    const { dir } = workspace();
    gemini = await startFakeGemini([{ text: 'Looked around.' }]);
    // mode deny: the policy would refuse any shell call of the model; the check is the author's.
    const file = writeRecipe(dir, { confirmation: { mode: 'deny' }, tools: ['read_file'] });
    const out = path.join(dir, 'out');
    const hijack = path.join(dir, 'hijack.sh');
    fs.writeFileSync(hijack, 'echo HIJACKED\n');
    const r = await cliInProcess(['run', file, '--out', out, '--check', 'echo "cwd=$(pwd)"; env | sort; exit 7'], {
      env: { ...env(), GITHUB_TOKEN: 'ghp_notpassedtotools0000000000000000000000', BASH_ENV: hijack },
    });
    expect(r.code).toBe(56);
    const check = readRun(out).report.checks[0];
    expect(check).toMatchObject({ passed: false, exit_code: 7 });
    expect(check.output_tail).toContain(`cwd=${path.join(dir, 'ws')}`);
    expect(check.output_tail).toMatch(/^PATH=/m);
    expect(check.output_tail).toMatch(/^GIT_TERMINAL_PROMPT=0$/m);
    expect(check.output_tail).not.toMatch(/GEMINI_API_KEY|GITHUB_TOKEN|BASH_ENV|HIJACKED/);
    expect(fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8')).not.toContain(KEY);
  });

  it('a check that runs too long is killed with its process group, and fails', async () => {
    const { dir } = workspace();
    gemini = await startFakeGemini([{ text: 'Done.' }]);
    const marker = `sleep 37.${process.pid}`;
    const file = writeRecipe(dir, { checks: { commands: [`(${marker}) & ${marker}`], timeout: '1s' } });
    const out = path.join(dir, 'out');
    const started = Date.now();
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code).toBe(56);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(readRun(out).report.checks[0]).toMatchObject({ passed: false, exit_code: null, reason: 'timed out after 1 s; its process group was killed' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const left = await execa('pgrep', ['-f', marker], { reject: false });
    expect(left.stdout.trim()).toBe('');
  });

  it('a check the run\u2019s wall-clock limit stops says so, as the run\u2019s status does (limit 55), not "cancelled"', async () => {
    const { dir } = workspace();
    gemini = await startFakeGemini([{ text: 'Done.' }]);
    const file = writeRecipe(dir, { checks: { commands: ['sleep 30'] }, limits: { timeout: '2s' } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(55);
    const { report, reportMd } = readRun(out);
    expect(report).toMatchObject({ status: 'limit', limit: 'timeout' });
    // The value as the recipe wrote it, as other limits give theirs (`max_tool_calls (2)`).
    expect(report.error).toBe('limit reached: timeout (2s)');
    expect(report.checks[0]).toMatchObject({ passed: false, reason: 'stopped: the run reached its wall-clock timeout (2s)' });
    expect(reportMd).not.toContain('cancelled');
  });

  it('SIGTERM while a check runs: cancelled (143), report written, the check killed', async () => {
    const { dir } = workspace();
    gemini = await startFakeGemini([{ text: 'Done.' }]);
    const marker = `sleep 41.${process.pid}`;
    const file = writeRecipe(dir, { checks: { commands: [`echo started; ${marker}`] } });
    const out = path.join(dir, 'out');
    const child = execa(process.execPath, [CLI, 'run', file, '--out', out], { cwd: ROOT, env: baseEnv(env()), extendEnv: false, reject: false, stdin: 'ignore' });
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    for (let i = 0; i < 100 && (await execa('pgrep', ['-f', marker], { reject: false })).stdout.trim() === ''; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(143);
    const { report } = readRun(out);
    expect(report.status).toBe('cancelled');
    expect(report.checks[0]).toMatchObject({ passed: false, reason: 'stopped: the run was cancelled' });
    expect((await execa('pgrep', ['-f', marker], { reject: false })).stdout.trim()).toBe('');
  });
});

describe('checks and sub-agents', () => {
  it('a sub-agent\u2019s answer is not the run\u2019s: the checks run once, after the main agent answers', async () => {
    const { dir, ws } = workspace();
    gemini = await startFakeGemini([
      { calls: [{ name: 'task', args: { description: 'look', prompt: 'What does greeting.txt say?' } }] },
      { text: 'It says helo, world.' },
      fix(ws),
      { text: 'Fixed.' },
    ]);
    const file = writeRecipe(dir, { tools: ['read_file', 'edit', 'task'], checks: { commands: ['bash check.sh'] } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const { events } = readRun(out);
    expect(events.filter((e) => e.type === 'check')).toEqual([expect.objectContaining({ attempt: 1, passed: true })]);
  });
});

describe('checks and the git hand-off', () => {
  it('passing checks hand off the run\u2019s change: the commit holds the fixed file', async () => {
    const { dir, ws } = workspace();
    gemini = await startFakeGemini([fix(ws), { text: 'Fixed.' }]);
    const file = writeRecipe(dir, { checks: { commands: ['bash check.sh'], require_changes: true }, git: { branch: 'fix/greeting', author: { name: 'bot', email: 'bot@example.com' } } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.checks.every((c: { passed: boolean }) => c.passed)).toBe(true);
    expect(report.git).toMatchObject({ branch: 'fix/greeting', files: ['greeting.txt'] });
    expect(execFileSync('git', ['show', 'fix/greeting:greeting.txt'], { cwd: ws }).toString()).toBe('hello, world\n');
  });
});

describe('what check commands change', () => {
  it('files a check writes are named in a warning: they would count as the run\u2019s changes', async () => {
    const { dir, ws } = workspace();
    gemini = await startFakeGemini([fix(ws), { text: 'Fixed.' }]);
    const file = writeRecipe(dir, { checks: { commands: ['bash check.sh > junit.txt', 'true'] } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.warnings).toEqual([expect.stringMatching(/^the success checks changed files in the workspace \(junit\.txt\): they count as the run's changes/)]);
    // The model's own change is not blamed on the checks.
    expect(report.warnings[0]).not.toContain('greeting.txt');
  });

  it('files a check writes are in files_changed, as in the hand-off, when no shell call ran', async () => {
    const { dir, ws } = workspace();
    gemini = await startFakeGemini([fix(ws), { text: 'Fixed.' }]);
    const file = writeRecipe(dir, { checks: { commands: ['echo generated > gen.txt'] }, git: { branch: 'fix/gen', author: { name: 'bot', email: 'bot@example.com' } } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.files_changed.map((f: { path: string; status: string }) => [f.path, f.status])).toEqual([
      ['gen.txt', 'added'],
      ['greeting.txt', 'modified'],
    ]);
    expect(report.git.files).toEqual(['gen.txt', 'greeting.txt']);
  });

  it('a check that undoes the run\u2019s change fails require_changes, though it passed before the commands ran', async () => {
    const { dir, ws } = workspace();
    gemini = await startFakeGemini([fix(ws), { text: 'Fixed.' }]);
    const file = writeRecipe(dir, { checks: { require_changes: true, commands: ['git checkout -- greeting.txt'] } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code).toBe(56);
    const { report } = readRun(out);
    expect(report.status).toBe('check_failed');
    expect(report.checks.map((c: { check: string; passed: boolean }) => [c.check, c.passed])).toEqual([
      ['require_changes', true],
      ['git checkout -- greeting.txt', true],
      ['require_changes', false],
    ]);
    expect(report.checks[2].reason).toMatch(/the success check commands changed back what the run had changed \(greeting\.txt\)/);
    expect(report.error).toMatch(/changed no file \(checks\.require_changes\): the success check commands changed back/);
    expect(report.files_changed).toEqual([]);
  });

  it('a check that undoes the run\u2019s change where git cannot see it (no git work tree, an ignored file) fails require_changes', async () => {
    // Outside git, and in a file git ignores, git's trees cannot show the commands' change: the
    // file tools' changes are counted again after the commands, and none left is a failure.
    const cases = [
      { git: false, file: 'greeting.txt' },
      { git: true, file: 'build/out.txt' },
    ];
    for (const c of cases) {
      const { dir, ws } = workspace();
      if (!c.git) fs.rmSync(path.join(ws, '.git'), { recursive: true });
      else fs.writeFileSync(path.join(ws, '.git', 'info', 'exclude'), 'build/\n');
      fs.mkdirSync(path.join(ws, 'build'), { recursive: true });
      fs.writeFileSync(path.join(ws, c.file), 'before\n');
      gemini = await startFakeGemini([{ calls: [{ name: 'write_file', args: { file_path: path.join(ws, c.file), content: 'after\n' } }] }, { text: 'Changed it.' }]);
      const file = writeRecipe(dir, { tools: ['write_file'], checks: { require_changes: true, commands: [`echo before > ${c.file}`] } });
      const out = path.join(dir, 'out');
      const r = await cliInProcess(['run', file, '--out', out], { env: env() });
      await gemini.close();
      gemini = undefined;
      expect(r.code, `${c.file}: ${r.stderr}`).toBe(56);
      const { report } = readRun(out);
      expect(report.status).toBe('check_failed');
      expect(report.files_changed).toEqual([]);
      expect(report.checks.at(-1)).toMatchObject({ check: 'require_changes', passed: false });
      expect(report.checks.at(-1).reason).toMatch(/the success check commands changed back what the run had changed/);
    }
  });

  it('checks that leave the workspace as it was leave no warning', async () => {
    const { dir, ws } = workspace();
    gemini = await startFakeGemini([fix(ws), { text: 'Fixed.' }]);
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', writeRecipe(dir, {}), '--out', out, '--check', 'bash check.sh'], { env: env() });
    expect(r.code).toBe(0);
    expect(readRun(out).report.warnings).toEqual([]);
  });
});

describe('checks.require_changes', () => {
  it('outside a git work tree, says that shell changes cannot be seen', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'ws'));
    gemini = await startFakeGemini([{ calls: [{ name: 'shell', args: { command: 'echo new > made-by-shell.txt' } }] }, { text: 'Made a file.' }]);
    const file = writeRecipe(dir, { tools: ['shell'], checks: { require_changes: true } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code).toBe(56);
    expect(readRun(out).report.checks[0].reason).toMatch(/no file changed that the runner can see \(not a git work tree/);
  });

  it('counts what the shell changed as git sees it, as the report does', async () => {
    const { dir, ws } = workspace();
    gemini = await startFakeGemini([
      { text: 'All good already.' },
      { calls: [{ name: 'shell', args: { command: "sed -i 's/helo/hello/' greeting.txt" } }] },
      { text: 'Fixed with sed.' },
    ]);
    const file = writeRecipe(dir, { tools: ['shell'], checks: { require_changes: true, retries: 2 } });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(gemini.requests[1]!.body.contents.at(-1).parts[0].text).toMatch(/must change files in the workspace, and no file has changed/);
    const { report } = readRun(out);
    expect(report.checks.map((c: { passed: boolean }) => c.passed)).toEqual([false, true]);
    expect(report.checks[1].output_tail).toBe('1 file changed: greeting.txt');
    expect(report.files_changed.map((f: { path: string }) => f.path)).toEqual(['greeting.txt']);
    expect(fs.readFileSync(path.join(ws, 'greeting.txt'), 'utf8')).toBe('hello, world\n');
  });

  it('a command\u2019s change that an edit then undoes is no change; a diff starts from the file as the run found it', async () => {
    const { dir, ws } = workspace();
    const greeting = path.join(ws, 'greeting.txt');
    gemini = await startFakeGemini([
      { calls: [{ name: 'shell', args: { command: "sed -i 's/helo/HELO/' greeting.txt && echo first > made.txt && echo more >> check.sh" } }] },
      { calls: [{ name: 'edit', args: { file_path: greeting, old_string: 'HELO', new_string: 'helo' } }] },
      { calls: [{ name: 'write_file', args: { file_path: path.join(ws, 'made.txt'), content: 'second\n' } }] },
      { calls: [{ name: 'edit', args: { file_path: path.join(ws, 'check.sh'), old_string: 'more', new_string: 'MORE' } }] },
      { text: 'Done.' },
    ]);
    const file = writeRecipe(dir, { tools: ['shell', 'edit', 'write_file'] });
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out, '--require-changes'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    // greeting.txt is as it was; made.txt is new to the run (not "modified" from the command's text); check.sh's
    // diff holds the command's line as added, not as context.
    expect(report.files_changed.map((f: { path: string; status: string }) => [f.path, f.status])).toEqual([
      ['check.sh', 'modified'],
      ['made.txt', 'added'],
    ]);
    expect(report.files_changed[0].diff).toMatch(/\n\+MORE\n/);
    expect(report.files_changed[1].diff).toMatch(/\n\+second\n/);
    expect(report.files_changed[1].diff).not.toContain('first');
  });

  it('a command\u2019s change inside a nested repository is not taken for "nothing changed": the reason says what git cannot see', async () => {
    const { dir, ws } = workspace();
    fs.mkdirSync(path.join(ws, 'vendor'));
    fs.writeFileSync(path.join(ws, 'vendor/lib.txt'), 'one\n');
    execFileSync('git', ['init', '-q'], { cwd: path.join(ws, 'vendor') });
    gemini = await startFakeGemini([{ calls: [{ name: 'shell', args: { command: 'echo two >> vendor/lib.txt' } }] }, { text: 'Done.' }]);
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', writeRecipe(dir, { tools: ['shell'] }), '--out', out, '--require-changes'], { env: env() });
    expect(r.code).toBe(56);
    expect(readRun(out).report.checks[0].reason).toMatch(/^no file changed that the runner can see \(a command\u2019s change to a file git ignores, or inside a git repository nested in the workspace, is not counted\)/);
  });

  it('warns at the start when a git hand-off is asked for outside a git repository', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'ws'));
    fs.writeFileSync(path.join(dir, 'ws/greeting.txt'), 'helo, world\n');
    gemini = await startFakeGemini([{ calls: [{ name: 'edit', args: { file_path: path.join(dir, 'ws/greeting.txt'), old_string: 'helo', new_string: 'hello' } }] }, { text: 'Fixed.' }]);
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', writeRecipe(dir, { git: { branch: 'fix/x' } }), '--out', out], { env: env() });
    expect(r.code).toBe(58);
    const { report, events } = readRun(out);
    expect(report.warnings[0]).toMatch(/^git: the workspace .* is not inside a git repository, so the hand-off fails \(exit 58\) after the run/);
    // Said before the model was asked anything.
    const types = events.map((e) => e.type as string);
    expect(types.indexOf('warning')).toBeLessThan(types.indexOf('model_request'));
  });

  it('a file edited and then put back as it was is no change', async () => {
    const { dir, ws } = workspace();
    const greeting = path.join(ws, 'greeting.txt');
    gemini = await startFakeGemini([
      fix(ws),
      { calls: [{ name: 'edit', args: { file_path: greeting, old_string: 'hello', new_string: 'helo' } }] },
      { text: 'Changed my mind.' },
    ]);
    const file = writeRecipe(dir, {});
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', file, '--out', out, '--require-changes'], { env: env() });
    expect(r.code).toBe(56);
    const { report } = readRun(out);
    expect(report.files_changed).toEqual([]);
    expect(report.error).toMatch(/changed no file \(checks.require_changes\)/);
  });
});
