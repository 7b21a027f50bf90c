// `unattended policy check` shows both layers for one call: the policy's decision, and what the
// sandbox adds (mode, mechanism, network, where the process may write), without any model.
// The first case runs the built CLI; the others runCli in this process (the same command code).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { bwrapWorks } from './harness.js';

afterAll(removeTempDirs);

function recipe(extra: Record<string, unknown>): string {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'ws'));
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(file, YAML.stringify({ version: 1, workspace: 'ws', tools: ['shell', 'edit'], confirmation: { mode: 'allowlist', allow: [{ shell: 'npm install *' }] }, ...extra }));
  return file;
}

async function check(file: string, tool: string, args: Record<string, unknown>, run = cliInProcess) {
  const r = await run(['policy', 'check', file, '--tool', tool, '--args', JSON.stringify(args)], {});
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('policy check shows the sandbox layer', () => {
  it.skipIf(!bwrapWorks)('a shell call: allowed by the policy, contained by bwrap, with the hosts the proxy lets through', async () => {
    const file = recipe({ sandbox: { network: ['registry.npmjs.org'] } });
    const result = await check(file, 'shell', { command: 'npm install left-pad' }, cli);
    expect(result).toMatchObject({ decision: 'allow', rule: 'shell: npm install *' });
    expect(result.sandbox).toEqual({
      mode: 'auto',
      kind: 'bwrap',
      reason: null,
      contained: true,
      network: ['registry.npmjs.org'],
      writable: [fs.realpathSync(path.join(path.dirname(file), 'ws')), '/tmp (private)'],
    });
  });

  it('a file tool is confined by the workspace checks, not by the sandbox', async () => {
    const result = await check(recipe({}), 'edit', { file_path: 'a.txt', old_string: '', new_string: 'x' });
    expect(result.sandbox.contained).toBe(false);
  });

  it('sandbox.mode: off says that nothing contains the call and the network is open', async () => {
    const result = await check(recipe({ sandbox: { mode: 'off' } }), 'shell', { command: 'npm install x' });
    expect(result.sandbox).toMatchObject({ mode: 'off', kind: null, reason: 'sandbox.mode is off', contained: false, network: true });
  });
});
