// The rename benchmark's scenario (bench/run.mjs) through the anthropic provider and the real
// @anthropic-ai/sdk, against the bench's scripted Messages API: every file edited, 2N+2 turns,
// the cache the scripted endpoint reports read back as cached tokens and priced.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the bench is plain JavaScript, without type declarations
import { startScriptedAnthropic } from '../../bench/scripted-anthropic.mjs';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('rename benchmark scenario through the anthropic provider', () => {
  it('edits every file over 2N+2 streamed turns', async () => {
    const n = 4;
    const ws = path.join(tempDir(), 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    const script: object[] = [{ calls: [{ name: 'grep', args: { pattern: 'oldName' } }] }];
    for (let i = 0; i < n; i++) {
      const file = path.join(ws, 'src', `mod${i}.ts`);
      fs.writeFileSync(file, `export function oldName${i}(x: number): number {\n  return x + ${i};\n}\n`);
      script.push({ calls: [{ name: 'read_file', args: { absolute_path: file } }] });
      script.push({ calls: [{ name: 'edit', args: { file_path: file, old_string: `function oldName${i}(`, new_string: `function newName${i}(` } }] });
    }
    script.push({ text: `Renamed ${n} functions.` });
    execFileSync('git', ['init', '-q', '.'], { cwd: ws });
    const model = await startScriptedAnthropic(script);
    try {
      const out = path.join(tempDir(), 'out');
      const r = await cli(['run', '--prompt', 'Rename every oldName function to newName.', '--provider', 'anthropic', '--approval', 'auto-approve', '--workspace', ws, '--out', out], {
        env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: model.url },
      });
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(`Renamed ${n} functions.`);
      for (let i = 0; i < n; i++) expect(fs.readFileSync(path.join(ws, 'src', `mod${i}.ts`), 'utf8')).toContain(`function newName${i}(`);
      expect(model.requests).toHaveLength(2 * n + 2);
      const { report } = readRun(out);
      expect(report.usage.cached).toBeGreaterThan(0);
      expect(report.usage.cost_usd).toBeGreaterThan(0);
      // Breakpoints on the tools, the system prompt and the latest user messages, every turn.
      const last = model.requests.at(-1).body;
      expect(last.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
      expect(last.system[0].cache_control).toEqual({ type: 'ephemeral' });
    } finally {
      await model.close();
    }
  });
});
