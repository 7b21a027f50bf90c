// A plain `unattended run` step in GitHub Actions (GITHUB_ACTIONS=true): what the model wrote (its
// answer, the per-call lines quoting its calls, an error quoting it, the report) must issue no
// workflow command, in every output mode. The built CLI, stdout and stderr on two pipes as the
// runner gives them, read as the runner reads them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { commandsTheRunnerRuns } from '../helpers/workflow-log.js';

afterAll(removeTempDirs);

const HOSTILE = '::set-output name=x::y\n  ::add-path::/tmp/evil\n::add-mask::hidden\nsee ##[warning]forged\n::stop-commands::abc\n::abc::\n::error::after';

function scriptedRun(): string {
  const dir = tempDir('unattended-workflow-commands-');
  const turns = [
    { calls: [{ name: 'shell', args: { command: "echo '::add-mask::leak'" } }] },
    { text: `Done.\n${HOSTILE}` },
  ];
  fs.writeFileSync(path.join(dir, 's.jsonl'), turns.map((t) => JSON.stringify(t)).join('\n') + '\n');
  fs.writeFileSync(path.join(dir, 'r.yaml'), 'version: 1\nname: hostile\nprovider: scripted\nscript: s.jsonl\nprompt: hi\ntools: [shell]\nconfirmation: {mode: deny}\n');
  return dir;
}

/**
 * The runner takes both pipes, and may handle all of stdout between stderr's first line and its
 * last: the stop must come first on stderr and the resume last, whatever stdout holds between.
 */
function asTheRunnerMayRead(stdout: string, stderr: string): string[] {
  const lines = stderr.split('\n');
  return commandsTheRunnerRuns([lines[0], stdout, ...lines.slice(1)].join('\n'));
}

describe('unattended run in GitHub Actions', () => {
  it.each(['text', 'json', 'stream-json'])('issues no workflow command from the model (--output-format %s), and stdout stays the output', async (format) => {
    const dir = scriptedRun();
    const r = await cli(['run', 'r.yaml', '--out', 'run', '--output-format', format], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(r.code, r.stderr).toBe(0);
    // The denied call is quoted: on stderr's per-call line (text), in the JSON (json, stream-json).
    expect(r.stdout + r.stderr).toContain('::add-mask::leak');
    expect(asTheRunnerMayRead(r.stdout, r.stderr)).toEqual(['stop-commands']);
    expect(r.stderr).toMatch(/^::stop-commands::unattended-[0-9a-f]{32}\n/);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`::${/^::stop-commands::(\S+)/.exec(r.stderr)![1]}::`);
    if (format === 'json') expect(JSON.parse(r.stdout).final_answer).toContain(HOSTILE);
    if (format === 'stream-json') for (const line of r.stdout.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    if (format === 'text') expect(r.stdout).toContain(HOSTILE);
  });

  it('an error quoting the model, and a report printed again, issue none either; each run has its own token', async () => {
    const dir = scriptedRun();
    const failed = await cli(['run', 'r.yaml', '--out', 'run', '--fail-on-denial'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(failed.code).toBe(57);
    expect(failed.stderr).toContain('::add-mask::leak');
    expect(asTheRunnerMayRead(failed.stdout, failed.stderr)).toEqual(['stop-commands']);
    const again = await cli(['run', 'r.yaml', '--out', 'run2'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    const report = await cli(['report', 'run2'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(report.stdout).toContain('::add-path::/tmp/evil');
    expect(asTheRunnerMayRead(report.stdout, report.stderr)).toEqual(['stop-commands']);
    const tokens = [failed.stderr, again.stderr, report.stderr].map((s) => /^::stop-commands::(\S+)/.exec(s)?.[1]);
    expect(new Set(tokens).size).toBe(3);
  });

  it('outside GitHub Actions prints no workflow command at all', async () => {
    const dir = scriptedRun();
    const r = await cli(['run', 'r.yaml', '--out', 'run'], { cwd: dir });
    expect(r.stderr).not.toContain('::stop-commands::unattended-');
  });
});
