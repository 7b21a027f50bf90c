// A local server that cuts a conversation longer than its context window instead of refusing it
// (Ollama past its num_ctx, 4096 tokens by default): the run went on as if the model still saw its
// task, with no word of it. The fake endpoint counts as such a server does: the request that
// carries a 12 KB file is counted fewer tokens than the one before it, without the file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { SilentCutWatch } from '../../src/providers/silent-cut.js';
import type { Content } from '../../src/types/content.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

const usage = (input: number) => ({ prompt_tokens: input, completion_tokens: 20, total_tokens: input + 20 });

/** A run that reads a 12 KB file, its two requests counted `first` and `second` input tokens. */
async function readBigFile(first: number, second: number) {
  const dir = tempDir();
  const file = path.join(dir, 'notes.txt');
  fs.writeFileSync(file, Array.from({ length: 200 }, (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog again.`).join('\n'));
  fake = await startFakeOpenAI([
    { toolCalls: [{ name: 'read_file', arguments: { absolute_path: file } }], usage: usage(first) },
    { text: 'Read it.', usage: usage(second) },
  ]);
  const out = path.join(dir, 'out');
  const r = await cli(['run', '--prompt', 'Read notes.txt.', '--provider', 'openai', '--model', 'qwen3:8b', '--base-url', fake.url, '--workspace', dir, '--approval', 'auto-approve', '--out', out], {
    env: { OPENAI_API_KEY: 'test' },
  });
  const run = readRun(out);
  const warnings = run.events.filter((e) => e.type === 'warning').map((e) => String(e.message));
  return { ...r, ...run, warnings };
}

describe('a server that cuts the conversation to fit its context window', () => {
  it('is named in a warning of the run, saying what was lost and what to set', async () => {
    const r = await readBigFile(1900, 1700);
    expect(r.code, r.stderr).toBe(0);
    const cut = r.warnings.filter((w) => w.includes('cut the conversation'));
    expect(cut).toHaveLength(1);
    expect(cut[0]).toContain(`${fake!.url} counted 1700 input tokens for a request 12 KB larger than the previous one, which it counted 1900`);
    expect(cut[0]).toMatch(/OLLAMA_CONTEXT_LENGTH.*limits\.context_tokens/);
    expect(r.stderr).toContain('cut the conversation');
    expect(r.report.warnings).toEqual(expect.arrayContaining([expect.stringContaining('cut the conversation')]));
  });

  it('says nothing when the count grew with the request, as a server that sees it all counts', async () => {
    const r = await readBigFile(1900, 5100);
    expect(r.code, r.stderr).toBe(0);
    expect(r.warnings.filter((w) => w.includes('cut the conversation'))).toEqual([]);
  });
});

describe('what is not taken for a cut', () => {
  const prompt: Content = { role: 'user', parts: [{ text: 'Do the task.' }] };
  const reply: Content = { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] };
  const text: Content = { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'x'.repeat(9000) } } }] };
  const image: Content = { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'a picture' } } }, { inlineData: { mimeType: 'image/png', data: 'A'.repeat(9000) } }] };

  it('a request grown by a new image, whose base64 is bytes, not tokens', () => {
    const watch = new SilentCutWatch('http://localhost:11434/v1');
    expect(watch.check([prompt], 4000, 900)).toBeNull();
    expect(watch.check([prompt, reply, image], 13_000, 1500)).toBeNull();
  });

  it("another conversation's request (a sub-agent's, through the same provider)", () => {
    const watch = new SilentCutWatch('http://localhost:11434/v1');
    expect(watch.check([prompt, reply, text], 13_000, 3000)).toBeNull();
    expect(watch.check([{ role: 'user', parts: [{ text: 'A sub-task.' }] }, reply, text], 40_000, 2000)).toBeNull();
  });

  it('a server that counts 1 whatever it is sent', () => {
    const watch = new SilentCutWatch('http://localhost:11434/v1');
    expect(watch.check([prompt], 4000, 1)).toBeNull();
    expect(watch.check([prompt, reply, text], 13_000, 1)).toBeNull();
  });

  it('but the same requests counted as a cutting server counts them are, once', () => {
    const watch = new SilentCutWatch('http://localhost:11434/v1');
    expect(watch.check([prompt], 4000, 900)).toBeNull();
    expect(watch.check([prompt, reply, text], 13_000, 800)).toMatch(/^http:\/\/localhost:11434\/v1 counted 800 input tokens/);
    expect(watch.check([prompt, reply, text, reply, text], 22_000, 700)).toBeNull();
  });
});
