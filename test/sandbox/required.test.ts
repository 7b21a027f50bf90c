// sandbox.mode: required on a machine where no sandbox works fails before the first model call,
// with exit 52 and one clear line; auto runs on and says why nothing contained it. "No sandbox
// works" is made real by a PATH without bwrap (the CLI itself is started by absolute path).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

/** A PATH with bash and the usual tools but no bwrap. */
function pathWithoutBwrap(): string {
  const bin = tempDir('unattended-nobwrap-');
  for (const tool of ['bash', 'sh', 'git', 'cat', 'echo', 'ls', 'true']) {
    for (const dir of ['/usr/bin', '/bin']) {
      if (fs.existsSync(path.join(dir, tool))) {
        fs.symlinkSync(path.join(dir, tool), path.join(bin, tool));
        break;
      }
    }
  }
  return bin;
}

function recipe(mode: string): string {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'ws'));
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns: [{ calls: [{ name: 'shell', args: { command: 'echo ran' } }] }, { text: 'done' }] }));
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(
    file,
    YAML.stringify({ version: 1, prompt: 'x', provider: 'scripted', script: 'turns.yaml', workspace: 'ws', tools: ['shell'], confirmation: { mode: 'auto-approve' }, sandbox: { mode } }),
  );
  return file;
}

describe.skipIf(process.platform !== 'linux')('sandbox.mode where no sandbox works', () => {
  it('required: exit 52 before the first model call, with the reason and the fix', async () => {
    const out = path.join(tempDir(), 'out');
    const r = await cli(['run', recipe('required'), '--out', out], { env: { PATH: pathWithoutBwrap() } });
    expect(r.code).toBe(52);
    expect(r.stderr).toMatch(/sandbox\.mode is required, but no sandbox works on this machine: bubblewrap \(bwrap\) is not installed/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const { report, events } = readRun(out);
    expect(events.some((e) => e.type === 'model_request')).toBe(false);
    expect(report).toMatchObject({ status: 'error', exit_code: 52, error_kind: 'recipe' });
  });

  it('auto: the run goes on unsandboxed, and run_start and the report say why', async () => {
    const out = path.join(tempDir(), 'out');
    const r = await cli(['run', recipe('auto'), '--out', out], { env: { PATH: pathWithoutBwrap() } });
    expect(r.code).toBe(0);
    const { report, events } = readRun(out);
    const start = events.find((e) => e.type === 'run_start')!;
    expect(start.sandbox).toMatchObject({ mode: 'auto', kind: null, reason: expect.stringMatching(/bwrap\) is not installed/) });
    expect(report.sandbox.kind).toBeNull();
    expect(report.warnings.join('\n')).toMatch(/no sandbox/);
    expect(String(events.find((e) => e.type === 'tool_result')!.llm_content)).toContain('ran');
  });
});
