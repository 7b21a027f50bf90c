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
