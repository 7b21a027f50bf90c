// A second signal while the run shuts down (here: its last telemetry export, to a collector that
// never answers) forces the exit at once. The model had answered before either signal: the report
// the forced exit writes keeps that answer, as the first signal alone would have, rather than
// reading as a run cut short with final_answer null.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { execa } from 'execa';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import { baseEnv, CLI, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';

afterAll(removeTempDirs);

async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it('two SIGTERMs while the run shuts down: exit 143, and the report keeps the answer the model gave', async () => {
  const collector = await startOtlpReceiver();
  onTestFinished(() => collector.close());
  collector.status = 0;
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'ws'));
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns: [{ text: 'All done.' }] }));
  const recipe = { version: 1, name: 'answered', prompt: 'Say done.', workspace: 'ws', provider: 'scripted', script: 'turns.yaml', tools: ['ls'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' } };
  fs.writeFileSync(path.join(dir, 'recipe.yaml'), YAML.stringify(recipe));
  const out = path.join(dir, 'out');
  const child = execa(process.execPath, [CLI, 'run', path.join(dir, 'recipe.yaml'), '--out', out], {
    env: baseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_TIMEOUT: '20000' }),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  onTestFinished(() => void child.kill('SIGKILL'));
  // The answer is recorded; the run now waits on the export (up to 20 s) before its run_end.
  await until('the final answer', () => {
    try {
      return fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8').includes('"All done."');
    } catch {
      return false;
    }
  });
  await new Promise((r) => setTimeout(r, 300));
  expect(child.exitCode).toBeNull();
  child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGTERM');
  const result = await child;
  expect(result.exitCode, result.stderr).toBe(143);
  const { report, events } = readRun(out);
  expect(report).toMatchObject({ status: 'cancelled', exit_code: 143, final_answer: 'All done.' });
  expect(report.error).toMatch(/SIGTERM while shutting down \(the run had ended with status success\)/);
  expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'cancelled', final_answer: 'All done.' });
}, 30_000);
