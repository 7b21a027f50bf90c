// Images a tool returns, as real runs meet them: a screenshot from an MCP server (Playwright's,
// a browser's) or a PNG read_file reads, sent to the Anthropic Messages API (the fake refuses what
// the real API refuses: an image over 5 MB of base64, anthropics/claude-code#13381). The built CLI
// runs the recipe; the fixture MCP server's `image` tool answers an image of `mib` MiB of base64.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/child-processes.js';
import { startFakeAnthropic, type AnthropicStep, type FakeAnthropic } from '../helpers/fake-anthropic.js';
import { cleanupTempDirs, tempDir } from './temp-recipe.js';

const UNRULY = path.join(FIXTURES, 'mcp/unruly-server.mjs');

afterAll(cleanupTempDirs);
let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** `steps` are given the workspace's path. */
async function run(steps: AnthropicStep[] | ((ws: string) => AnthropicStep[]), recipe: string, files: Record<string, Buffer> = {}) {
  const dir = tempDir();
  fake = await startFakeAnthropic(typeof steps === 'function' ? steps(path.join(dir, 'ws')) : steps);
  fs.mkdirSync(path.join(dir, 'ws'));
  for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, 'ws', name), bytes);
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(
    file,
    `version: 1\nprovider: anthropic\nprompt: Look at the page.\nworkspace: ws\nconfirmation: { mode: auto-approve }\n` +
      `mcp_servers:\n  shots: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(UNRULY)}], timeout: 30s }\n${recipe}`,
  );
  const out = path.join(dir, 'out');
  const r = await cli(['run', file, '--out', out], { env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url } });
  return { r, ...readRun(out), requests: fake.requests };
}

/** The blocks of the tool result the second request carries. */
function toolResultBlocks(requests: FakeAnthropic['requests']): Array<Record<string, any>> {
  const last = requests[1]!.body.messages.at(-1);
  const result = last.content.find((b: { type: string }) => b.type === 'tool_result');
  return typeof result.content === 'string' ? [{ type: 'text', text: result.content }] : result.content;
}

describe('an image over the 5 MB of base64 the Anthropic API takes', () => {
  it('is named to the model, not sent: the run goes on instead of every later request being refused', async () => {
    // A model behind a gateway the price table does not know: no window, so no compaction hides it.
    const { r, report, requests } = await run(
      [{ toolCalls: [{ name: 'shots__image', input: { mib: 6 } }] }, { text: 'The page is too large to see whole.' }],
      'model: claude-gateway\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(report.status).toBe('success');
    expect(r.stderr).not.toMatch(/exceeds 5 MB/);
    const blocks = toolResultBlocks(requests);
    expect(blocks.filter((b) => b.type === 'image')).toEqual([]);
    expect(blocks.map((b) => b.text).join('\n')).toMatch(/image\/png image omitted: 6\.0 MB in base64, over the 5\.0 MB the Anthropic API takes for one image/);
  });
});

describe("a long page's full-page screenshot (1440 x 8570 pixels)", () => {
  it('is named to the model with its size, not sent: the Anthropic API takes no side over 8000 pixels', async () => {
    const { r, report, requests } = await run([{ toolCalls: [{ name: 'shots__picture', input: { kind: 'long-page' } }] }, { text: 'Too long to see.' }], 'model: claude-sonnet-4-5\n');
    expect(r.code, r.stderr).toBe(0);
    expect(report.status).toBe('success');
    const blocks = toolResultBlocks(requests);
    expect(blocks.filter((b) => b.type === 'image')).toEqual([]);
    expect(blocks.map((b) => b.text).join('\n')).toMatch(/image\/png image omitted: 1440 x 8570 pixels, over the 8000 a side the Anthropic API takes/);
  });
});

describe('a screenshot of an ordinary size', () => {
  // 1 MiB of base64 (a 750 KB PNG): Claude counts an image by its pixels, at most ~1,600 tokens.
  it("from an MCP server reaches the model: it is not taken out by compaction as if its base64 were 260,000 tokens of text", async () => {
    const { r, events, requests } = await run(
      [{ toolCalls: [{ name: 'shots__image', input: { mib: 1 } }] }, { text: 'I see the page.' }],
      'model: claude-sonnet-4-5\nlimits: { context_tokens: 200000 }\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(events.filter((e) => e.type === 'compaction')).toEqual([]);
    const images = toolResultBlocks(requests).filter((b) => b.type === 'image');
    expect(images.map((b) => b.source.data.length)).toEqual([1024 * 1024]);
  });

  it('read by read_file reaches the model too', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(800 * 1024, 7)]);
    const { r, events, requests } = await run(
      (ws) => [{ toolCalls: [{ name: 'read_file', input: { absolute_path: path.join(ws, 'shot.png') } }] }, { text: 'I see the page.' }],
      'model: claude-sonnet-4-5\nlimits: { context_tokens: 200000 }\n',
      { 'shot.png': png },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(events.filter((e) => e.type === 'compaction')).toEqual([]);
    const images = toolResultBlocks(requests).filter((b) => b.type === 'image');
    expect(images.map((b) => Buffer.from(b.source.data, 'base64').equals(png))).toEqual([true]);
  });
});

describe('an image a server labels wrong', () => {
  // One call per kind, then an answer: each result goes back in the second request.
  const kinds = ['png-as-jpeg', 'jpg', 'svg', 'bmp'];
  const calls = kinds.map((kind) => ({ name: 'shots__picture', input: { kind } }));

  it('goes to the Anthropic API as the type its bytes say; an SVG as its text; what no provider takes is named, and the run goes on', async () => {
    const { r, report, requests } = await run([{ toolCalls: calls }, { text: 'Seen.' }], 'model: claude-sonnet-4-5\n');
    expect(r.code, r.stderr).toBe(0);
    expect(report.status).toBe('success');
    const results = requests[1]!.body.messages.at(-1).content.filter((b: { type: string }) => b.type === 'tool_result');
    const sent = results.map((result: { content: string | Array<Record<string, any>> }) =>
      (typeof result.content === 'string' ? [] : result.content).map((b) => (b.type === 'image' ? b.source.media_type : String(b.text).slice(0, 40))),
    );
    expect(sent).toEqual([
      [expect.any(String), 'image/png'],
      [expect.any(String), 'image/jpeg'],
      [],
      [],
    ]);
    expect(results[2].content).toMatch(/^<svg xmlns/);
    expect(results[3].content).toMatch(/image\/bmp, .* omitted: its bytes are not PNG, JPEG, GIF or WebP/);
  });

  it('goes to an OpenAI-compatible server as a data URL of the type its bytes say, and only images it takes', async () => {
    const { startFakeOpenAI } = await import('../helpers/fake-openai.js');
    const openai = await startFakeOpenAI([{ toolCalls: kinds.map((kind) => ({ name: 'shots__picture', arguments: { kind } })) }, { text: 'Seen.' }]);
    try {
      const dir = tempDir();
      fs.mkdirSync(path.join(dir, 'ws'));
      const file = path.join(dir, 'recipe.yaml');
      fs.writeFileSync(
        file,
        `version: 1\nprovider: openai\nmodel: gpt-4o\nbase_url: ${openai.url}\nprompt: Look.\nworkspace: ws\nconfirmation: { mode: auto-approve }\n` +
          `mcp_servers:\n  shots: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(UNRULY)}], timeout: 30s }\n`,
      );
      const r = await cli(['run', file, '--out', path.join(dir, 'out')], { env: { OPENAI_API_KEY: 'k' } });
      expect(r.code, r.stderr).toBe(0);
      const urls = JSON.stringify(openai.requests[1]!.body.messages).match(/data:[^;"]*;base64/g);
      expect(urls).toEqual(['data:image/png;base64', 'data:image/jpeg;base64']);
    } finally {
      await openai.close();
    }
  });
});

describe('more than 20 screenshots of a retina display in one run (2560 x 1600 pixels)', () => {
  it('the latest 20 go to the Anthropic API, older ones are named: a request of more takes none over 2000 pixels', async () => {
    const shots = Array.from({ length: 21 }, (_, i) => ({ name: 'shots__picture', input: { kind: 'retina', before: `page ${i + 1}` } }));
    const { r, report, requests } = await run([{ toolCalls: shots }, { text: 'Seen them all.' }], 'model: claude-sonnet-4-5\n');
    expect(r.code, r.stderr).toBe(0);
    expect(report.status).toBe('success');
    const results = requests[1]!.body.messages.at(-1).content.filter((b: { type: string }) => b.type === 'tool_result');
    const kinds = results.map((result: { content: Array<{ type: string; text?: string }> }) => result.content.at(-1)!.type);
    expect(kinds).toEqual(['text', ...Array(20).fill('image')]);
    expect(results[0].content.at(-1).text).toMatch(/^\[image\/png image omitted: a request with more than 20 images takes none over 2000 pixels a side/);
  });
});

describe('a request refused for its bytes, its screenshots over the size a request may have (Anthropic: 413 request_too_large)', () => {
  it('compacts the older turns, without taking the window for as many tokens as the request counted (a few thousand an image)', async () => {
    const shot = (before: string) => ({ toolCalls: [{ name: 'shots__image', input: { mib: 4, before } }] });
    const echo = (text: string) => ({ toolCalls: [{ name: 'shots__echo', input: { text } }] });
    const { r, events, requests } = await run(
      [shot('a'), shot('b'), echo('1'), echo('2'), echo('3'), echo('4'), { status: 413, type: 'request_too_large', message: 'Request exceeds the maximum size' }, { text: 'Two pages seen, four echoes.' }, { text: 'Seen.' }],
      'model: claude-sonnet-4-5\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(requests).toHaveLength(9);
    expect(events.filter((e) => e.type === 'compaction').map((e) => e.reason)).toEqual(['context_error']);
    // The retry carries no image: the older turns went into the summary.
    expect(JSON.stringify(requests[8]!.body.messages)).not.toContain('"type":"image"');
    expect(events.filter((e) => e.type === 'warning' && /refused a request/.test(e.message))).toEqual([]);
  });
});

describe('a GIF read_file reads (a recorded screen, a spinner), sent to Gemini', () => {
  it('is named to the model, not sent: the Gemini API takes PNG, JPEG, WebP, HEIC and HEIF only', async () => {
    const { startFakeGemini } = await import('../helpers/fake-gemini.js');
    const dir = tempDir();
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'spinner.gif'), Buffer.concat([Buffer.from('GIF89a'), Buffer.from('2000200080000000', 'hex'), Buffer.alloc(64)]));
    const gemini = await startFakeGemini([{ calls: [{ name: 'read_file', args: { absolute_path: path.join(ws, 'spinner.gif') } }] }, { text: 'A spinner.' }]);
    try {
      const file = path.join(dir, 'recipe.yaml');
      fs.writeFileSync(file, 'version: 1\nprovider: gemini\nmodel: gemini-2.5-flash\nprompt: Look.\nworkspace: ws\nconfirmation: { mode: auto-approve }\n');
      const r = await cli(['run', file, '--out', path.join(dir, 'out')], { env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url } });
      expect(r.code, r.stderr).toBe(0);
      const parts = gemini.requests[1]!.body.contents.flatMap((c: { parts: unknown[] }) => c.parts);
      expect(parts.filter((p: { inlineData?: unknown }) => p.inlineData)).toEqual([]);
      expect(JSON.stringify(parts)).toMatch(/image\/gif image omitted: the Gemini API takes PNG, JPEG, WebP, HEIC and HEIF images/);
    } finally {
      await gemini.close();
    }
  });
});

describe('a screenshot sent to a server that reports no token usage (usage estimated from the bytes sent)', () => {
  it('counts the image as a few thousand tokens, not a quarter of its base64: max_tokens does not stop the run over one screenshot', async () => {
    const { startFakeOpenAI } = await import('../helpers/fake-openai.js');
    const openai = await startFakeOpenAI([{ toolCalls: [{ name: 'shots__image', arguments: { mib: 1 } }], noUsage: true }, { text: 'Seen.', noUsage: true }]);
    try {
      const dir = tempDir();
      fs.mkdirSync(path.join(dir, 'ws'));
      const file = path.join(dir, 'recipe.yaml');
      fs.writeFileSync(
        file,
        `version: 1\nprovider: openai\nmodel: local-vision\nbase_url: ${openai.url}\nprompt: Look.\nworkspace: ws\nconfirmation: { mode: auto-approve }\nlimits: { max_tokens: 100000 }\n` +
          `mcp_servers:\n  shots: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(UNRULY)}], timeout: 30s }\n`,
      );
      const out = path.join(dir, 'out');
      const r = await cli(['run', file, '--out', out], { env: { OPENAI_API_KEY: 'k' } });
      expect(r.code, r.stderr).toBe(0);
      const { report } = readRun(out);
      expect(report.status).toBe('success');
      expect(report.usage.input).toBeLessThan(20_000);
    } finally {
      await openai.close();
    }
  });
});

describe('an image sent to a text-only model behind an OpenAI-compatible server', () => {
  // One pixel, as read_file would read a PNG of the repository.
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

  async function textOnly(refusal: { status: number; message: string }, options = '') {
    const { startFakeOpenAI } = await import('../helpers/fake-openai.js');
    const dir = tempDir();
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'logo.png'), PNG);
    const openai = await startFakeOpenAI([{ toolCalls: [{ name: 'read_file', arguments: { absolute_path: path.join(ws, 'logo.png') } }] }, refusal, { text: 'It is a logo.' }]);
    try {
      const file = path.join(dir, 'recipe.yaml');
      fs.writeFileSync(file, `version: 1\nprovider: openai\nmodel: qwen2.5-coder\nbase_url: ${openai.url}\nprompt: Look.\nworkspace: ws\nconfirmation: { mode: auto-approve }\n${options}`);
      const r = await cli(['run', file, '--out', path.join(dir, 'out')], { env: { OPENAI_API_KEY: 'k' } });
      return { r, bodies: openai.requests.map((req) => JSON.stringify(req.body.messages)) };
    } finally {
      await openai.close();
    }
  }

  it.each([
    ['LM Studio', { status: 400, message: 'Model does not support images. Please use a model that does.' }],
    ['Ollama', { status: 400, message: 'this model does not support image input' }],
    ['llama.cpp without its mmproj (a 500)', { status: 500, message: 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj' }],
  ])('%s: its refusal is answered by naming the image, for the rest of the run, not by failing every later request', async (_server, refusal) => {
    const { r, bodies } = await textOnly(refusal);
    expect(r.code, r.stderr).toBe(0);
    expect(bodies).toHaveLength(3);
    expect(bodies[1]).toMatch(/data:image\/png;base64/);
    expect(bodies[2]).not.toMatch(/data:image/);
    expect(bodies[2]).toMatch(/attachment\(s\) returned by the tool calls are not shown: this model takes text only/);
  });

  it('with images: true set, the refusal ends the run in its words', async () => {
    const { r, bodies } = await textOnly({ status: 400, message: 'Model does not support images. Please use a model that does.' }, 'provider_options: { images: true }\n');
    expect(r.code).toBe(1);
    expect(bodies).toHaveLength(2);
    expect(r.stderr).toMatch(/Model does not support images/);
  });
});

describe('an image sent to a text-only model behind an Anthropic-compatible API (Ollama\'s, a gateway\'s)', () => {
  it('its refusal is answered by naming the image in the tool result, for the rest of the run, not by failing every later request', async () => {
    const refusal = { status: 400, type: 'invalid_request_error', message: 'this model does not support image input' };
    const { r, report, requests } = await run(
      [{ toolCalls: [{ name: 'shots__picture', input: { kind: 'png-as-jpeg' } }] }, refusal, { toolCalls: [{ name: 'shots__picture', input: { kind: 'png-as-jpeg' } }] }, { text: 'Two logos.' }],
      'model: glm-4.6\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(report.status).toBe('success');
    const bodies = requests.map((req) => JSON.stringify(req.body.messages));
    expect(bodies).toHaveLength(4);
    expect(bodies[1]).toMatch(/"type":"image"/);
    for (const body of bodies.slice(2)) {
      expect(body).not.toMatch(/"type":"image"/);
      expect(body).toMatch(/image\/png image omitted: this model takes text only/);
    }
  });
});
