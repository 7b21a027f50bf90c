// Denial loops end, loudly (issue 10 §2): past limits.max_denials (default 10) the run stops with
// status `denied` and exit 57, and the report groups the rules the model kept hitting and the
// calls it kept trying. fail_on_denial makes the first denial do the same. The built CLI against a
// fake Gemini endpoint and the scripted provider.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';

afterAll(removeTempDirs);

let gemini: FakeGemini | undefined;
afterEach(async () => {
  await gemini?.close();
  gemini = undefined;
});

const shell = (command: string) => ({ name: 'shell', args: { command } });

/** An allowlist recipe in a fresh directory: `git status` allowed, `git push` denied by rule. */
function recipe(extra: Record<string, unknown> = {}, turns?: unknown[]): { file: string; ws: string; out: string } {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'README.md'), 'hello\n');
  const body: Record<string, unknown> = {
    version: 1,
    prompt: 'Publish the package.',
    workspace: 'ws',
    tools: ['shell', 'write_file', 'read_file'],
    confirmation: { mode: 'allowlist', allow: [{ shell: 'git status' }], deny: [{ shell: 'git push *' }] },
    ...extra,
  };
  if (turns) {
    fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
    Object.assign(body, { provider: 'scripted', script: 'turns.yaml' });
  }
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(file, YAML.stringify(body));
  return { file, ws, out: path.join(dir, 'out') };
}

describe('limits.max_denials', () => {
  it('default 10: the 11th denial ends the run with exit 57; no further model call is paid for', async () => {
    // A model that keeps varying what it asks for (the loop guard never sees a repeat).
    const steps = Array.from({ length: 14 }, (_, i) => ({ calls: [{ name: 'shell', args: { command: i % 2 ? `git push origin v${i}` : `curl -s https://get.example/${i} -o i.sh` } }] }));
    gemini = await startFakeGemini([...steps, { text: 'Published.' }]);
    const { file, out } = recipe();
    const r = await cli(['run', file, '--out', out], { env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url } });
    expect(r.code, r.stderr).toBe(57);
    expect(gemini.requests).toHaveLength(11);
    const { report, reportMd, events } = readRun(out);
    expect(report.status).toBe('denied');
    expect(report.limit).toBe('max_denials');
    expect(report.denials).toHaveLength(11);
    expect(report.error).toMatch(/max_denials \(10\).*11 tool calls; most often .*\(\d+×\), most tried `shell` /);
    expect(r.stderr).toContain(report.error);
    expect(events.find((e) => e.type === 'limit')).toMatchObject({ limit: 'max_denials', value: 10 });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'denied', exit_code: 57 });
    // Grouped: the deny rule's 5 hits, then the calls no allow rule matched.
    const byRule = report.denial_summary.by_rule;
    expect(byRule.find((g: { rule: string | null }) => g.rule === 'shell: git push *')).toMatchObject({ count: 5 });
    expect(byRule.reduce((n: number, g: { count: number }) => n + g.count, 0)).toBe(11);
    expect(report.denial_summary.by_call[0]).toMatchObject({ tool: 'shell', count: 1 });
    expect(reportMd).toMatch(/denied \(exit 57\)/);
    expect(reportMd).toMatch(/\| 5 \| rule `shell: git push \*`/);
    expect(r.stderr).toMatch(/denied \(exit 57\)/);
    const rebuilt = await cliInProcess(['report', out, '--format', 'json']);
    expect(`${rebuilt.stdout}\n`).toBe(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
  });

  it('the same denied call over and over is a denial loop (57), not a repeated-call loop (1)', async () => {
    const turns = [...Array.from({ length: 8 }, () => ({ calls: [shell('git push --force')] })), { text: 'done' }];
    const { file, out } = recipe({ limits: { max_denials: 6 } }, turns);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(57);
    const { report } = readRun(out);
    expect(report.denials).toHaveLength(7);
    expect(report.denial_summary.by_call).toEqual([{ tool: 'shell', call: 'git push --force', count: 7 }]);
    expect(report.denial_summary.by_rule).toEqual([expect.objectContaining({ rule: 'shell: git push *', count: 7 })]);
  });

  it('stops inside a turn: once past the limit, the calls after it in the same turn never run', async () => {
    const { file, ws, out } = recipe({}, [
      { calls: [shell('git push'), shell('git push -f'), { name: 'write_file', args: { file_path: '{{workspace}}/after.txt', content: 'x' } }] },
      { text: 'done' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out, '--max-denials', '1', '--approval', 'allowlist', '--allow', 'write_file']);
    expect(r.code).toBe(57);
    expect(fs.existsSync(path.join(ws, 'after.txt'))).toBe(false);
    const { events } = readRun(out);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.name)).toEqual(['shell', 'shell']);
  });

  it('under the limit the run finishes: status denied, exit 0, as README and batch say', async () => {
    const { file, out } = recipe({}, [{ calls: [shell('git push')] }, { calls: [shell('git status')] }, { text: 'Could not push.' }]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code).toBe(0);
    expect(readRun(out).report).toMatchObject({ status: 'denied', exit_code: 0, limit: null });
  });

  it('denials inside a sub-agent count for the run: the run stops, not only the sub-agent', async () => {
    const { file, out } = recipe({ tools: ['shell', 'task'], limits: { max_denials: 2 } }, [
      { calls: [{ name: 'task', args: { description: 'publish', prompt: 'Push the tag.' } }] },
      { calls: [shell('git push origin v1')] },
      { calls: [shell('git push origin v2')] },
      { calls: [shell('git push --tags')] },
      { text: 'sub-agent gave up' },
      { text: 'main agent: done' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(57);
    const { report, events } = readRun(out);
    expect(report.denials).toHaveLength(3);
    expect(report.limit).toBe('max_denials');
    // The main agent never got another turn after its task call.
    expect(events.filter((e) => e.type === 'model_response' && e.parent_call_id === undefined)).toHaveLength(1);
  });

  it('--max-denials 0: the first denial ends the run, its error counting one call as one', async () => {
    const { file, out } = recipe({}, [{ calls: [shell('git push')] }, { text: 'ok' }]);
    const r = await cliInProcess(['run', file, '--out', out, '--max-denials', '0']);
    expect(r.code).toBe(57);
    expect(readRun(out).report.error).toBe('limit reached: max_denials (0): the policy denied 1 tool call: `shell` git push (rule `shell: git push *`)');
  });

  it('a bad --max-denials is bad input (42)', async () => {
    const { file, out } = recipe({}, [{ text: 'x' }]);
    const r = await cliInProcess(['run', file, '--out', out, '--max-denials', '-1']);
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(/--max-denials must be a whole number of at least 0/);
  });
});

describe('fail_on_denial', () => {
  const turns = [{ calls: [shell('git push')] }, { calls: [{ name: 'write_file', args: { file_path: '{{workspace}}/later.txt', content: 'x' } }] }, { text: 'ok' }];

  it('--fail-on-denial: the first denial ends the run, exit 57', async () => {
    const { file, ws, out } = recipe({}, turns);
    const r = await cliInProcess(['run', file, '--out', out, '--fail-on-denial']);
    expect(r.code).toBe(57);
    const { report } = readRun(out);
    expect(report.status).toBe('denied');
    expect(report.error).toBe('the policy denied a tool call, and fail_on_denial is set: `shell` git push (rule `shell: git push *`)');
    expect(report.turns).toBe(1);
    expect(fs.existsSync(path.join(ws, 'later.txt'))).toBe(false);
  });

  it('fail_on_denial: true in the recipe does the same; a run without denials still succeeds', async () => {
    const denied = recipe({ fail_on_denial: true }, turns);
    expect((await cliInProcess(['run', denied.file, '--out', denied.out])).code).toBe(57);
    const clean = recipe({ fail_on_denial: true }, [{ calls: [shell('git status')] }, { text: 'clean' }]);
    const r = await cliInProcess(['run', clean.file, '--out', clean.out]);
    expect(r.code).toBe(0);
    expect(readRun(clean.out).report.status).toBe('success');
  });
});
