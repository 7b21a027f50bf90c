// The README's offline default: the demo recipe on its recorded turns, through the built CLI; the
// output formats of the same run through the CLI's entry in process (test/e2e/broken-pipe.test.ts
// prints them from the built CLI).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { cli, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

describe('demo recipe (offline, recorded turns)', () => {
  it('fixes the typo on a copy, is denied the curl | sh, and leaves transcript and report', async () => {
    const out = path.join(tempDir(), 'run');
    const original = fs.readFileSync(path.join(ROOT, 'recipes/demo/workspace/README.md'), 'utf8');
    const r = await cli(['run', 'recipes/demo.yaml', '--out', out]);
    expect(r.stderr).toContain('✗ shell');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Fixed the spelling mistake');

    const { report, reportMd, events } = readRun(out);
    expect(report.status).toBe('denied');
    expect(report.exit_code).toBe(0);
    expect(report.turns).toBe(6);
    expect(report.tool_calls.total).toBe(5);
    expect(report.tool_calls.by_tool.shell).toEqual({ success: 1, error: 0, denied: 1, errors_by_type: {}, truncated: 0 });
    expect(report.denials).toHaveLength(1);
    expect(report.denials[0].args.command).toContain('curl');
    expect(report.usage.input).toBe(1210 + 1262 + 1390 + 1441 + 1490 + 1562);
    expect(report.files_changed).toHaveLength(1);
    expect(report.files_changed[0].path).toBe('README.md');
    expect(report.files_changed[0].diff).toContain('+A tiny library that greets people. Call `greet(name)` and you will receive');
    expect(reportMd).toContain('## Policy denials');
    expect(reportMd).toContain('README.md');

    // The copy was edited; the bundled demo workspace was not.
    expect(fs.readFileSync(path.join(out, 'workspace/README.md'), 'utf8')).toContain('you will receive');
    expect(fs.readFileSync(path.join(ROOT, 'recipes/demo/workspace/README.md'), 'utf8')).toBe(original);

    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run_start');
    expect(types.at(-1)).toBe('run_end');
    const wc = events.find((e) => e.type === 'tool_result' && e.name === 'shell' && !e.error_type);
    expect(wc?.llm_content).toMatch(/10 README\.md/);
    const denied = events.find((e) => e.type === 'tool_call' && e.decision?.decision === 'deny');
    expect(denied?.decision.reason).toMatch(/curl/);
  });

  it('run as the README says, in a clone (its run directory under an ignored .unattended): no warning', async () => {
    // The copy lies in a folder the clone's .gitignore lists: git records nothing there, which is
    // no failure to warn about (it said "git could not snapshot the workspace" on every demo run).
    const clone = tempDir();
    fs.cpSync(path.join(ROOT, 'recipes'), path.join(clone, 'recipes'), { recursive: true });
    fs.writeFileSync(path.join(clone, '.gitignore'), '.unattended/\n');
    await execa('git', ['init', '-q', '.'], { cwd: clone });
    const r = await cli(['run', 'recipes/demo.yaml'], { cwd: clone });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('!');
    const [runDir] = fs.readdirSync(path.join(clone, '.unattended/runs'));
    const { report } = readRun(path.join(clone, '.unattended/runs', runDir!));
    expect(report.warnings).toEqual([]);
    expect(report.files_changed.map((f: { path: string }) => f.path)).toEqual(['README.md']);
  });

  it('prints the report as JSON with --output-format json, and events with stream-json', async () => {
    const json = await cliInProcess(['run', 'recipes/demo.yaml', '--out', path.join(tempDir(), 'a'), '--output-format', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).status).toBe('denied');

    const stream = await cliInProcess(['run', 'recipes/demo.yaml', '--out', path.join(tempDir(), 'b'), '--output-format', 'stream-json']);
    const lines = stream.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect(lines[1].type).toBe('run_start');
    expect(lines.at(-2).type).toBe('run_end');
    expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', is_error: false });
    expect(lines.filter((l) => l.type === 'tool_call')).toHaveLength(5);
  });
});
