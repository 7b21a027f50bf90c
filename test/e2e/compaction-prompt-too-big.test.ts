// A first request the provider refuses as too long, with nothing older to compact: the prompt
// alone passes the window. The run fails (there is no way on), and says why and what to change,
// not only the server's words.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startWindowedModel, type WireProtocol } from '../helpers/fake-windowed-model.js';

afterAll(removeTempDirs);

const ENV: Record<WireProtocol, (url: string) => Record<string, string>> = {
  openai: (url) => ({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: url }),
  anthropic: (url) => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url }),
  gemini: (url) => ({ GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: url }),
};

describe.each<WireProtocol>(['openai', 'anthropic', 'gemini'])('%s: a prompt larger than the window', (protocol) => {
  it('fails with the refusal and what to change', async () => {
    const dir = tempDir();
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    const fake = await startWindowedModel({ protocol, maxBytes: 16_000, workspace: () => ws });
    try {
      const recipe = path.join(dir, 'recipe.yaml');
      const prompt = `summarise this log:\n${'line of a long log that does not fit\n'.repeat(600)}`;
      fs.writeFileSync(recipe, `version: 1\nname: big\nprompt: ${JSON.stringify(prompt)}\nprovider: ${protocol}\nmodel: m\nworkspace: ws\ntools: [read_file]\nconfirmation: { mode: auto-approve }\nlimits: { model_retries: 1 }\n`);
      const out = path.join(dir, 'run');
      const r = await cli(['run', recipe, '--out', out], { env: ENV[protocol](fake.url) });
      expect(r.code).toBe(1);
      const hint = /nothing older could be compacted: the prompt, with the instructions and tool declarations every request carries, is ~\d+ tokens, 2\d KB, more than .* holds; shorten the prompt/;
      expect(r.stderr).toMatch(hint);
      const { report } = readRun(out);
      expect(report.status).toBe('failed');
      expect(JSON.stringify(report)).toMatch(/nothing older could be compacted/);
    } finally {
      await fake.close();
    }
  });
});
