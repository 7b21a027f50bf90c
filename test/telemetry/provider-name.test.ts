// gen_ai.provider.name carries the GenAI semantic conventions' well-known values, on spans and
// metrics alike: a gemini run was exported as `gemini`, which no backend's GenAI view knows
// (`gcp.gemini` for Gemini's API, `gcp.vertex_ai` for Vertex AI).
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { readRun, removeTempDirs } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { oneTurnRecipe } from './one-turn-recipe.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';

afterAll(removeTempDirs);

const recipe = () => oneTurnRecipe('named', { provider: 'gemini', model: 'gemini-2.5-flash', script: undefined });

describe('gen_ai.provider.name', () => {
  // Vertex AI with an API key goes to a path the fake does not serve: its request fails, which
  // does not matter here, as its spans and the run's metrics are exported all the same.
  it.each([
    ['Gemini API', 'gcp.gemini', (url: string) => ({ GEMINI_API_KEY: 'test-key-0000', GOOGLE_GEMINI_BASE_URL: url })],
    ['Vertex AI', 'gcp.vertex_ai', (url: string) => ({ GOOGLE_GENAI_USE_VERTEXAI: 'true', GOOGLE_API_KEY: 'test-key-0000', GOOGLE_VERTEX_BASE_URL: url })],
  ])('%s: the run span, the chat span and the metrics say %s', async (_name, expected, providerEnv) => {
    const receiver = await startOtlpReceiver();
    onTestFinished(() => receiver.close());
    const fake = await startFakeGemini([{ text: 'Nothing to do.', usage: { input: 10, output: 3 } }]);
    onTestFinished(() => fake.close());
    const { file, out } = recipe();
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...providerEnv(fake.url) } });
    expect(r.code, r.stderr).toBe(readRun(out).report.exit_code);
    expect(readRun(out).report.provider).toBe('gemini');
    const named = receiver.spans.filter((s) => /^(invoke_agent|chat) /.test(s.name));
    expect(named).toHaveLength(2);
    for (const span of named) expect(span.attributes['gen_ai.provider.name'], span.name).toBe(expected);
    const runs = receiver.points.filter((p) => p.metric === 'unattended.runs');
    expect(runs.length).toBeGreaterThan(0);
    for (const p of runs) expect(p.attributes['gen_ai.provider.name']).toBe(expected);
  });
});
