// A run with provider_options.max_output_tokens a large share of the window (1,500 of 4,000 here),
// against a server that counts the cap into the window with the request, as vLLM and OpenAI do:
// compaction aimed at compact_at of the window alone, so each time the history grew past what the
// cap left, the request was refused ("you requested N tokens (M in the messages, C in the
// completion)"), compacted and sent again: one refused request per growth cycle. Through the built
// CLI against an OpenAI-compatible server on 127.0.0.1 (test/helpers/fake-windowed-model.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { chainFile, chainSum, startWindowedModel } from '../helpers/fake-windowed-model.js';

afterAll(removeTempDirs);

const MAX_BYTES = 16_000;

async function runChain(maxOutputTokens: number) {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  const count = 20;
  for (let k = 0; k < count; k++) fs.writeFileSync(path.join(ws, `f${k}.txt`), chainFile(k, count, 40));
  const fake = await startWindowedModel({ protocol: 'openai', maxBytes: MAX_BYTES, workspace: () => ws, capInWindow: true });
  try {
    const recipe = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(
      recipe,
      `version: 1\nname: chain\nprompt: follow the chain from f0.txt and sum the values\nprovider: openai\nmodel: m\nworkspace: ws\ntools: [read_file]\nconfirmation: { mode: auto-approve }\nlimits: { model_retries: 1, context_tokens: ${MAX_BYTES / 4} }\nprovider_options: { max_output_tokens: ${maxOutputTokens} }\n`,
    );
    const out = path.join(dir, 'run');
    const r = await cli(['run', recipe, '--out', out], { env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.url } });
    return { r, run: readRun(out), fake };
  } finally {
    await fake.close();
  }
}

it('compaction leaves the output cap room in the window: no request is refused, and the answer is right', { timeout: 60_000 }, async () => {
  const { r, run, fake } = await runChain(1500);
  expect(r.code, r.stderr).toBe(0);
  expect(run.report.final_answer).toBe(`SUM=${chainSum(20)}`);
  expect(fake.refused).toBe(0);
  expect(run.report.compactions.after_context_error).toBe(0);
  expect(run.report.compactions.total).toBeGreaterThan(1);
});

it('a cap as large as the window leaves nothing to aim for: compaction still aims at compact_at of the window', { timeout: 60_000 }, async () => {
  const { r, run } = await runChain(MAX_BYTES / 4);
  // Every request is refused (the server takes no request beside such a cap): the run fails as too
  // long, after one compaction and one retry, not for want of a threshold.
  expect(r.code, r.stderr).toBe(1);
  expect(run.report.warnings.join('\n')).not.toMatch(/cannot hold what every request carries/);
});
