// Whole runs (the CLI in-process, scripted turns) against a real MCP server over stdio that sends
// the shapes real servers send: what the model is offered, what a call is checked against, and
// what the model gets back.
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/cli-in-process.js';
import { FIXTURES, REPO_ROOT } from '../../helpers/child-processes.js';
import { startFakeOpenAI, type FakeToolCall } from '../../helpers/fake-openai.js';
import { cleanupTempDirs, tempDir, workspace, writeRecipe, type Turn } from '../../e2e/temp-recipe.js';

const SHAPES = path.join(FIXTURES, 'mcp/shapes-server.mjs');
const FILESYSTEM = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

afterAll(cleanupTempDirs);

async function runShapes(turns: Turn[], over: Record<string, unknown> = {}, serverArgs: string[] = []) {
  const { file, out, dir } = writeRecipe(
    {
      prompt: 'probe',
      workspace: '.',
      tools: ['read_file'],
      confirmation: { mode: 'auto-approve' },
      mcp_servers: { shapes: { command: process.execPath, args: [SHAPES, ...serverArgs], timeout: '20s' } },
      ...over,
    },
    [...turns, { text: 'done' }],
  );
  const r = await cliInProcess(['run', file, '--out', out]);
  const run = readRun(out);
  const results = run.events.filter((e) => e.type === 'tool_result');
  return { ...r, ...run, dir, out, results };
}

describe('optional parameters as pydantic and FastMCP write them', () => {
  it('the tools are offered, and calls are checked against the cleaned schemas', async () => {
    const r = await runShapes([
      {
        calls: [
          { name: 'shapes__optional', args: { o: null, n: 3, mode: null } },
          { name: 'shapes__optional', args: { o: 'x', mode: 'fast' } },
          { name: 'shapes__optional', args: { n: -1 } },
          { name: 'shapes__nulls', args: { v: null } },
          { name: 'shapes__nulls', args: { v: 7 } },
          { name: 'shapes__nulls', args: { v: true } },
          { name: 'shapes__only_null', args: { v: null } },
          { name: 'shapes__py_regex', args: { s: 'aa' } },
        ],
      },
    ]);
    expect(r.code).toBe(0);
    const warnings = r.events.filter((e) => e.type === 'warning').map((e) => e.message);
    expect(warnings.filter((w: string) => w.includes('left out'))).toEqual([]);
    expect(r.results.map((e) => [e.error_type, String(e.llm_content).slice(0, 60)])).toEqual([
      [null, 'optional got {"o":null,"n":3,"mode":null}'],
      [null, 'optional got {"o":"x","mode":"fast"}'],
      ['invalid_params', "Invalid parameters for shapes__optional: 'n' must be >= 0"],
      [null, 'nulls got {"v":null}'],
      [null, 'nulls got {"v":7}'],
      ['invalid_params', expect.stringMatching(/^Invalid parameters for shapes__nulls: 'v' must be/)],
      [null, 'only_null got {"v":null}'],
      [null, 'py_regex got {"s":"aa"}'],
    ]);
  });
});

describe('a trusted server\'s tools', () => {
  it('need no confirmation, yet what they change is found: files_changed lists it and require_changes passes', async () => {
    const ws = await workspace('rename', { git: true });
    const { file, out } = writeRecipe(
      {
        prompt: 'probe',
        workspace: ws,
        tools: ['read_file'],
        confirmation: { mode: 'deny' },
        checks: { require_changes: true },
        mcp_servers: { fs: { command: process.execPath, args: [FILESYSTEM, ws], trust: true, include_tools: ['write_file'] } },
      },
      [{ calls: [{ name: 'fs__write_file', args: { path: path.join(ws, 'new.txt'), content: 'written by MCP\n' } }] }, { text: 'done' }],
    );
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code).toBe(0);
    const { report } = readRun(out);
    expect(report.files_changed.map((f: { path: string; status: string }) => [f.path, f.status])).toEqual([['new.txt', 'added']]);
  });
});

describe('a trusted MCP server outside git', () => {
  it("counts its call as a change it may have made: a failed edit beside it leaves the run 'success' (the benefit of the doubt), not 'no file changed'", async () => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'a.txt'), 'old\n');
    const { file, out } = writeRecipe(
      {
        prompt: 'probe',
        workspace: ws,
        tools: ['edit'],
        confirmation: { mode: 'auto-approve' },
        mcp_servers: { fs: { command: process.execPath, args: [FILESYSTEM, ws], trust: true, include_tools: ['write_file'] } },
      },
      [
        { calls: [{ name: 'edit', args: { file_path: path.join(ws, 'a.txt'), old_string: 'missing', new_string: 'x' } }] },
        { calls: [{ name: 'fs__write_file', args: { path: path.join(ws, 'a.txt'), content: 'new\n' } }] },
        { text: 'done' },
      ],
    );
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('new\n');
    expect([r.code, readRun(out).report.status]).toEqual([0, 'success']);
  });
});

describe('limits.tool_timeout', () => {
  it('clamps an MCP call below the server\'s own timeout: the result says it timed out, and the server is told to cancel', async () => {
    const cancelLog = path.join(tempDir(), 'cancelled.log');
    const r = await runShapes([{ calls: [{ name: 'shapes__hang', args: {} }] }], { limits: { tool_timeout: '1s' } }, [cancelLog]);
    expect(r.code).toBe(0);
    const hang = r.results[0]!;
    expect(hang.error_type).toBe('timeout');
    expect(hang.llm_content).toMatch(/did not answer hang within 1000 ms/);
    expect(hang.duration_ms).toBeLessThan(5000);
    expect(fs.readFileSync(cancelLog, 'utf8')).toBe('cancelled\n');
  });
});

/** A run on the OpenAI provider (a fake endpoint): the tool messages the model was sent for each call. */
async function runOpenAI(toolCalls: FakeToolCall[]) {
  const fake = await startFakeOpenAI([{ toolCalls }, { text: 'done' }]);
  try {
    const dir = tempDir();
    const file = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(
      file,
      stringify({
        version: 1,
        name: 'case',
        prompt: 'probe',
        provider: 'openai',
        model: 'x',
        workspace: '.',
        tools: ['read_file'],
        confirmation: { mode: 'auto-approve' },
        mcp_servers: { shapes: { command: process.execPath, args: [SHAPES], timeout: '20s' } },
      }),
    );
    const out = path.join(dir, 'run');
    const r = await cliInProcess(['run', file, '--out', out], { env: { OPENAI_API_KEY: 'sk-fake-not-secret', OPENAI_BASE_URL: fake.url } });
    expect(r.code, r.stderr).toBe(0);
    const messages = fake.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    const tools = messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    return { ...readRun(out), tools, messages };
  } finally {
    await fake.close();
  }
}

describe('what the model is sent of a result of several parts', () => {
  it('text around an image stays apart, one part per line', async () => {
    const { tools } = await runOpenAI([{ name: 'shapes__sandwich', arguments: {} }]);
    expect(tools).toEqual(['before\nafter']);
  });

  it('the cap holds for all the text together: head and tail, one saved file with every part, the image kept', async () => {
    const { tools, events, messages } = await runOpenAI([{ name: 'shapes__parts', arguments: { n: 20, size: 39_000 } }]);
    const [sent] = tools;
    expect(sent!.length).toBeLessThan(41_000);
    expect(sent).toMatch(/^<part 0>0000/);
    expect(sent).toMatch(/9999$/);
    const result = events.find((e) => e.type === 'tool_result')!;
    expect(sent).toContain(`characters cut; the full output is saved at ${result.saved_output}`);
    expect(path.isAbsolute(result.saved_output)).toBe(true);
    const saved = fs.readFileSync(result.saved_output, 'utf8');
    expect(saved.split('\n')).toHaveLength(20);
    expect(saved).toContain('<part 13>');
    // The image still reaches the model.
    expect(JSON.stringify(messages)).toContain('data:image/png;base64,');
  });
});

describe('a server that dies mid-call', () => {
  it('fails that call, and every later call says how the server ended and what its stderr said', async () => {
    const r = await runShapes([{ calls: [{ name: 'shapes__crash', args: {} }] }, { calls: [{ name: 'shapes__sandwich', args: {} }] }]);
    expect(r.results.map((e) => e.error_type)).toEqual(['execution_failed', 'execution_failed']);
    expect(String(r.results[1]!.llm_content)).toMatch(/MCP server 'shapes' is gone: its process ended \(exit code 3\); its stderr ends with: shapes: out of memory in the parser/);
  });

  it('the transcript and the report say once that the server stopped, though the run still ends success', async () => {
    const r = await runShapes([{ calls: [{ name: 'shapes__crash', args: {} }] }, { calls: [{ name: 'shapes__sandwich', args: {} }, { name: 'shapes__parts', args: {} }] }]);
    expect([r.code, r.report.status]).toEqual([0, 'success']);
    const stopped = /^MCP server 'shapes' stopped during the run, so its tools fail from here on: its process ended \(exit code 3\); its stderr ends with: shapes: out of memory in the parser$/;
    expect(r.events.filter((e) => e.type === 'warning').map((e) => e.message)).toEqual([expect.stringMatching(stopped)]);
    expect(r.report.warnings).toEqual([expect.stringMatching(stopped)]);
  });
});

describe('a server whose tool list breaks the MCP schema in one tool', () => {
  it('leaves out that tool alone, with one line saying where, not pages of validator JSON', async () => {
    const r = await runShapes([], { mcp_servers: { shapes: { command: process.execPath, args: [SHAPES], env: { SHAPES_NO_TYPE: '1' }, timeout: '20s' } } });
    const warnings = r.events.filter((e) => e.type === 'warning').map((e) => String(e.message));
    expect(warnings).toEqual([expect.stringMatching(/^MCP server 'shapes': tool 'notype' is left out: its entry does not follow the MCP schema: inputSchema\.type: [^\n]*$/)]);
    const offered = r.events.find((e) => e.type === 'run_start')!.tools as string[];
    expect(offered).toContain('shapes__sandwich');
    expect(offered).not.toContain('shapes__notype');
  });
});
