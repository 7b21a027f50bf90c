// The anthropic provider with streaming off (provider_options.stream: false, --no-stream), as a
// gateway that does not stream needs: nothing arrives until the answer is whole, so the README
// gives the whole answer ten idle timeouts, as for the other providers, and the answer's size cap
// is the user's to choose.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js';

afterAll(removeTempDirs);

let anthropic: FakeAnthropic | undefined;
afterEach(async () => {
  await anthropic?.close();
  anthropic = undefined;
});

async function run(extra: string) {
  const ws = await fixtureWorkspace('rename');
  const dir = tempDir();
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(
    file,
    `version: 1\nconfirmation: { mode: auto-approve }\nprovider: anthropic\nmodel: claude-sonnet-4-5\nbase_url: ${anthropic!.url}\nprompt: Where is addNumbers?\nworkspace: ${ws}\n${extra}`,
  );
  const out = path.join(dir, 'run');
  const r = await cliInProcess(['run', file, '--out', out], { env: { ANTHROPIC_API_KEY: 'sk-ant-not-secret' } });
  return { r, ...readRun(out) };
}

describe('anthropic with streaming off', () => {
  it('an answer written whole in more than one idle timeout (but fewer than ten) is waited for, not abandoned and asked again', async () => {
    anthropic = await startFakeAnthropic([{ text: 'It is in src/math.js.', wholeAfterMs: 2500 }]);
    const { r, report } = await run('provider_options: { stream: false }\nlimits: { model_idle_timeout: 1s }\n');
    expect(r.code, r.stderr).toBe(0);
    expect(report.final_answer).toBe('It is in src/math.js.');
    expect(anthropic.requests).toHaveLength(1);
    expect(anthropic.requests[0]!.body.stream).not.toBe(true);
  });

  it('a server that never answers is abandoned after ten idle timeouts and asked again, not waited on for the SDK\'s ten minutes', async () => {
    anthropic = await startFakeAnthropic([{ hang: true }, { text: 'It is in src/math.js.' }]);
    const { r, report, events } = await run('provider_options: { stream: false }\nlimits: { model_idle_timeout: 1s }\n');
    expect(r.code, r.stderr).toBe(0);
    expect(report.final_answer).toBe('It is in src/math.js.');
    expect(anthropic.requests).toHaveLength(2);
    const retry = events.find((e: any) => e.type === 'retry');
    expect(retry?.reason).toMatch(/within 10s \(streaming is off/);
  }, 40_000);

  it('max_output_tokens above ~21,000 is sent as asked, not refused by the SDK as needing streaming and retried five times', async () => {
    anthropic = await startFakeAnthropic([{ text: 'It is in src/math.js.' }]);
    const { r, report } = await run('provider_options: { stream: false, max_output_tokens: 32000 }\n');
    expect(r.stderr).not.toMatch(/Streaming is required/);
    expect(r.code, r.stderr).toBe(0);
    expect(report.final_answer).toBe('It is in src/math.js.');
    expect(anthropic.requests).toHaveLength(1);
    expect(anthropic.requests[0]!.body).toMatchObject({ max_tokens: 32000 });
    expect(anthropic.requests[0]!.body.stream).not.toBe(true);
  });
});
