// Whole runs against a stdio MCP server that breaks the rules (fixtures/mcp/unruly-server.mjs):
// whatever it sends, the run ends normally with its report, and the model and the report say what
// went wrong.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/cli-in-process.js';
import { FIXTURES, waitFor } from '../../helpers/child-processes.js';
import { processesWith } from '../../helpers/processes.js';
import { cleanupTempDirs, tempDir, writeRecipe, type Turn } from '../../e2e/temp-recipe.js';

const UNRULY = path.join(FIXTURES, 'mcp/unruly-server.mjs');

afterAll(cleanupTempDirs);

interface RunOptions {
  /** UNRULY's modes. */
  modes?: string[];
  server?: Record<string, unknown>;
  recipe?: Record<string, unknown>;
  /** The built CLI in its own process, not the in-process one. */
  spawned?: boolean;
}

async function runUnruly(turns: Turn[], opts: RunOptions = {}) {
  const { file, out, dir } = writeRecipe(
    {
      prompt: 'probe',
      workspace: '.',
      tools: ['read_file'],
      confirmation: { mode: 'auto-approve' },
      mcp_servers: {
        unruly: { command: process.execPath, args: [UNRULY], env: { UNRULY: (opts.modes ?? []).join(',') }, timeout: '30s', ...opts.server },
      },
      ...opts.recipe,
    },
    [...turns, { text: 'done' }],
  );
  const r = opts.spawned ? await cli(['run', file, '--out', out]) : await cliInProcess(['run', file, '--out', out]);
  const run = readRun(out);
  const results = run.events.filter((e) => e.type === 'tool_result');
  const warnings = run.events.filter((e) => e.type === 'warning').map((e) => String(e.message));
  return { ...r, ...run, dir, out, results, warnings };
}

describe('a stdio message larger than the runner reads', () => {
  it('fails the call it answers with the size and the limit; the server keeps working and the run ends with its report', async () => {
    const r = await runUnruly(
      [{ calls: [{ name: 'unruly__image', args: { mib: 40 } }] }, { calls: [{ name: 'unruly__echo', args: { text: 'still here' } }] }],
      { spawned: true },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/ReadBuffer|at GroupStdioTransport/);
    expect(r.report.status).toBe('success');
    expect(r.events.at(-1)!.type).toBe('run_end');
    expect(r.results.map((e) => e.error_type)).toEqual(['execution_failed', null]);
    expect(String(r.results[0]!.llm_content)).toMatch(/MCP server 'unruly' failed on image: .*reply is 40\.0 MiB, over the limit of 32 MiB for one MCP message/);
    expect(r.results[1]!.llm_content).toBe('echo {"text":"still here"}');
  });

  it('a text reply just as large is refused the same way, and one under the limit arrives whole', async () => {
    const r = await runUnruly([{ calls: [{ name: 'unruly__text', args: { mib: 33 } }, { name: 'unruly__text', args: { mib: 12 } }] }]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e) => e.error_type)).toEqual(['execution_failed', null]);
    expect(String(r.results[0]!.llm_content)).toMatch(/over the limit of 32 MiB/);
    expect(r.results[1]!.saved_output).toBeTruthy();
  });

  it('a tools/list reply over the limit leaves the server out with a warning saying so', async () => {
    const r = await runUnruly([], { modes: ['huge-list'] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.warnings).toEqual([expect.stringMatching(/^MCP server 'unruly' is left out: .*reply is 40\.0 MiB, over the limit of 32 MiB/)]);
  });

  it('a required server whose tools/list is over the limit fails the run at start (52), with its report', async () => {
    const r = await runUnruly([], { modes: ['huge-list'], server: { required: true } });
    expect(r.code).toBe(52);
    expect(r.report.exit_code).toBe(52);
    expect(r.stderr).toMatch(/required MCP server 'unruly' failed to start: .*over the limit of 32 MiB/);
  });

  it('output that is no message and never ends a line stops the server at once, not at its timeout', async () => {
    const started = Date.now();
    const r = await runUnruly([], { modes: ['junk-start'], server: { timeout: '60s' } });
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.warnings).toEqual([
      expect.stringMatching(/^MCP server 'unruly' is left out: the runner stopped it: it wrote 32\.\d MiB of output that is no MCP message, with no line break/),
    ]);
  });
});

describe('tools with odd or broken schemas', () => {
  it('only the broken tool is left out, named with what is wrong; the server and its other tools stay (even when required)', async () => {
    const r = await runUnruly(
      [
        {
          calls: [
            { name: 'unruly__py_year', args: {} },
            { name: 'unruly__draft2020', args: {} },
            { name: 'unruly__wrong_output', args: {} },
            { name: 'unruly__echo', args: { text: 'hi' } },
          ],
        },
      ],
      { modes: ['odd-schemas'], server: { required: true } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.warnings).toEqual([
      expect.stringMatching(/^MCP server 'unruly': tool 'scalar_input' is left out: its entry does not follow the MCP schema: inputSchema\.type: /),
      expect.stringMatching(/^MCP server 'unruly': tool 'strang' is left out: its output schema is unusable \(.*properties\/s\/type/),
    ]);
    const offered = (r.events.find((e) => e.type === 'run_start')!.tools as string[]).filter((t) => t.startsWith('unruly__'));
    expect(offered).toEqual(['unruly__echo', 'unruly__image', 'unruly__text', 'unruly__wait', 'unruly__picture', 'unruly__py_year', 'unruly__draft2020', 'unruly__wrong_output']);
    expect(r.results.map((e) => [e.error_type, String(e.llm_content)])).toEqual([
      [null, '{"year":"2024"}'],
      [null, '{"year":"2024"}'],
      ['execution_failed', expect.stringMatching(/^Error: MCP server 'unruly' failed on wrong_output: its structured content does not match the tool's output schema: 'year' must be string/)],
      [null, 'echo {"text":"hi"}'],
    ]);
  });
});

describe('2020-12 schemas (as zod 4 servers declare)', () => {
  it('is checked in its own dialect: a tuple by prefixItems with items: false passes, a wrong one is caught; an input tuple is not refused', async () => {
    const calls = [{ name: 'unruly__pair', args: {} }, { name: 'unruly__pair_wrong', args: {} }, { name: 'unruly__row', args: { row: ['x', 1, 2] } }];
    const r = await runUnruly([{ calls }], { modes: ['tuples'] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.warnings).toEqual([]);
    expect(r.results.map((e) => [e.error_type, String(e.llm_content)])).toEqual([
      [null, '{"pair":["a",1]}'],
      ['execution_failed', expect.stringMatching(/^Error: MCP server 'unruly' failed on pair_wrong: its structured content does not match the tool's output schema: 'pair\.1' must be number/)],
      // An input tuple with a rest reaches the server: the rest's `items` is not read as every item's.
      [null, 'echo {"row":["x",1,2]}'],
    ]);
  });
});

describe('output schemas with an $id', () => {
  it('two instances of one server both offer their tool (the second was left out: "already exists")', async () => {
    const server = { command: process.execPath, args: [UNRULY], env: { UNRULY: 'ids' }, timeout: '30s', include_tools: ['stamp'] };
    const [first, second] = [server, server];
    const r = await runUnruly([{ calls: [{ name: 'first__stamp', args: {} }, { name: 'second__stamp', args: {} }] }], { recipe: { mcp_servers: { first, second } } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.warnings).toEqual([]);
    expect(r.results.map((e) => [e.error_type, String(e.llm_content)])).toEqual([
      [null, '{"at":"noon"}'],
      [null, '{"at":"noon"}'],
    ]);
  });
});

describe('a stdio server whose cwd is missing', () => {
  it('is refused by validate in a recipe, and left out saying so from --mcp-config (both said "spawn node ENOENT")', async () => {
    const { file, out, dir } = writeRecipe({ prompt: 'p', confirmation: { mode: 'deny' }, mcp_servers: { u: { command: process.execPath, args: [UNRULY], cwd: 'no-such-dir' } } }, [{ text: 'done' }]);
    const v = await cliInProcess(['validate', file], { cwd: dir });
    expect([v.code, v.stderr.trim()]).toEqual([52, expect.stringMatching(new RegExp(`:\\d+:\\d+: cwd 'no-such-dir' is not a directory \\(resolved to ${path.join(dir, 'no-such-dir')}\\)$`))]);
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { u: { command: process.execPath, args: [UNRULY], cwd: 'no-such-dir' } } }));
    const r = await cliInProcess(['-p', 'p', '--provider', 'scripted', '--script', path.join(dir, 'turns.yaml'), '--mcp-config', 'mcp.json', '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const warnings = readRun(out).events.filter((e) => e.type === 'warning').map((e) => String(e.message));
    expect(warnings).toEqual([`MCP server 'u' is left out: its cwd ${path.join(dir, 'no-such-dir')} is not a directory`]);
  });
});

describe("an --mcp-config server's filters", () => {
  // Before: both named the recipe's keys (include_tools, mcp_servers.u.exclude_tools), which the
  // file the user wrote has none of: they wrote "excludeTools" in mcp.json.
  it("are named in the file's own words: at start for a tool the server lacks, and for an --allow rule they leave nothing to match", async () => {
    const { out, dir } = writeRecipe({ prompt: 'p' }, [{ text: 'done' }]);
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { u: { command: process.execPath, args: [UNRULY], excludeTools: ['ech', 'wait'] } } }));
    const flags = ['-p', 'p', '--provider', 'scripted', '--script', path.join(dir, 'turns.yaml'), '--mcp-config', 'mcp.json'];
    const r = await cliInProcess([...flags, '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const warnings = readRun(out).events.filter((e) => e.type === 'warning').map((e) => String(e.message));
    expect(warnings).toEqual(["MCP server 'u' has no tool 'ech' (named in excludeTools in --mcp-config mcp.json)"]);
    const allow = await cliInProcess([...flags, '--approval', 'allowlist', '--allow', 'u__wait', '--out', `${out}-allow`], { cwd: dir });
    expect([allow.code, allow.stderr]).toEqual([
      42,
      expect.stringContaining(`--allow 'u__wait': 'u__wait' is not offered to the model: "excludeTools" of server 'u' in --mcp-config mcp.json lists 'wait' (remove it there, or drop this rule)`),
    ]);
  });

  it('a rule naming a server the run does not have says where servers come from, not only a recipe key an ad-hoc run has none of', async () => {
    const { out, dir } = writeRecipe({ prompt: 'p' }, [{ text: 'done' }]);
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { docs: { command: process.execPath, args: [UNRULY] } } }));
    const r = await cliInProcess(['-p', 'p', '--provider', 'scripted', '--script', path.join(dir, 'turns.yaml'), '--mcp-config', 'mcp.json', '--deny', 'doc__echo', '--out', out], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([
      42,
      expect.stringContaining(`--deny 'doc__echo': tool 'doc__echo' names MCP server 'doc', which the run does not have (its servers are the recipe's mcp_servers and those of --mcp-config) (did you mean 'docs'?)`),
    ]);
  });
});

describe('start-up, once it is over', () => {
  it('is never cancelled: past the server\'s timeout, the server has been sent no notifications/cancelled', async () => {
    const log = path.join(tempDir(), 'received.log');
    // Three calls of 1.5 s each, one after the other: the run goes on past the 4 s start-up deadline,
    // and each call stays well inside it on a loaded machine.
    const wait = { calls: [{ name: 'unruly__wait', args: { ms: 1500 } }] };
    const r = await runUnruly([wait, wait, wait], { server: { timeout: '4s', env: { UNRULY_LOG: log } } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e) => e.error_type)).toEqual([null, null, null]);
    expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call', 'tools/call', 'tools/call']);
  });
});

describe('a tool offered under a name that is another tool\'s original name', () => {
  it('never happens: an allow rule naming `unruly__e_cho` covers the tool e_cho alone, not e.cho, whichever is listed first', async () => {
    const r = await runUnruly(
      [{ calls: [{ name: 'unruly__e_cho', args: {} }] }],
      { modes: ['twins'], recipe: { confirmation: { mode: 'allowlist', allow: ['unruly__e_cho'] } } },
    );
    expect(r.code, r.stderr).toBe(0);
    const offered = (r.events.find((e) => e.type === 'run_start')!.tools as string[]).filter((t) => t.startsWith('unruly__e'));
    expect(offered).toEqual(['unruly__echo', expect.stringMatching(/^unruly__e_cho_[0-9a-f]{8}$/), 'unruly__e_cho']);
    expect(r.results.map((e) => e.llm_content)).toEqual(['this is e_cho']);
    // Two tools sanitised alike: neither is offered as `unruly__x_y`, which would go to whichever came first.
    const xy = (r.events.find((e) => e.type === 'run_start')!.tools as string[]).filter((t) => t.startsWith('unruly__x'));
    expect(xy).toEqual([expect.stringMatching(/^unruly__x_y_[0-9a-f]{8}$/), expect.stringMatching(/^unruly__x_y_[0-9a-f]{8}$/)]);
    expect(r.warnings).toEqual(["MCP server 'unruly': tool 'echo' is listed twice; the second one is left out"]);
    // The dotted tool, under the name it is offered as: no rule allows it.
    const dotted = offered[1]!;
    const { file } = writeRecipe({
      prompt: 'probe',
      workspace: '.',
      confirmation: { mode: 'allowlist', allow: ['unruly__e_cho'] },
      mcp_servers: { unruly: { command: process.execPath, args: [UNRULY], env: { UNRULY: 'twins' } } },
    });
    const check = await cliInProcess(['policy', 'check', file, '--tool', dotted, '--args', '{}']);
    expect(JSON.parse(check.stdout)).toMatchObject({ decision: 'deny' });
    const exact = await cliInProcess(['policy', 'check', file, '--tool', 'unruly__e_cho', '--args', '{}']);
    expect(JSON.parse(exact.stdout)).toMatchObject({ decision: 'allow', rule: 'unruly__e_cho' });
  });
});

describe('a rule naming an MCP tool the server does not have', () => {
  it('is warned about once the server has started, with the likely name; it matches nothing', async () => {
    const r = await runUnruly([{ calls: [{ name: 'unruly__echo', args: {} }] }], {
      recipe: { confirmation: { mode: 'allowlist', allow: ['unruly__*', 'unruly__txt'], deny: ['unruly__ecoh'] } },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.warnings).toEqual([
      "deny rule 'unruly__ecoh' (at recipe.yaml:15) names no tool MCP server 'unruly' offers, so it matches nothing (did you mean 'unruly__echo'?)",
      "allow rule 'unruly__txt' (at recipe.yaml:13) names no tool MCP server 'unruly' offers, so it matches nothing (did you mean 'unruly__text'?)",
    ]);
    expect(r.results.map((e) => e.error_type)).toEqual([null]);
  });

  it('says nothing more for a server that did not start: its warning is enough', async () => {
    const r = await runUnruly([], { modes: ['huge-list'], recipe: { confirmation: { mode: 'allowlist', deny: ['unruly__ecoh'] } } });
    expect(r.warnings).toEqual([expect.stringMatching(/^MCP server 'unruly' is left out: /)]);
  });
});

describe.skipIf(process.platform !== 'linux')('a process the server started in a session of its own (unsandboxed)', () => {
  it('does not outlive the run', async () => {
    const marker = `unruly-left-group-${process.pid}-${Date.now()}`;
    const r = await runUnruly([{ calls: [{ name: 'unruly__echo', args: {} }] }], { modes: ['leave-group'], server: { env: { UNRULY: 'leave-group', UNRULY_MARKER: marker } } });
    expect(r.code, r.stderr).toBe(0);
    expect(await waitFor(() => processesWith(marker).length === 0, 2000)).toBe(true);
  });
});

describe('a result with a block outside the MCP schema', () => {
  it('reaches the model with that block named, the rest whole; the call is not failed with the validator\'s JSON', async () => {
    const call = (kind: string) => ({ name: 'unruly__picture', args: { kind, before: `wrote report.${kind}` } });
    const r = await runUnruly([{ calls: [call('blob'), call('future'), call('data-url')] }], { spawned: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e) => e.error_type)).toEqual([null, null, null]);
    const [blob, future, dataUrl] = r.results.map((e) => e.llm_content);
    expect(blob).toMatch(/^wrote report\.blob\n\[unsupported MCP content type 'blob' omitted\]$/);
    expect(future).toMatch(/^wrote report\.future\n\[unsupported MCP content type 'video' omitted\]$/);
    // The data URL's image goes as the image it holds.
    expect(dataUrl).toEqual([{ text: 'wrote report.data-url' }, { inlineData: { mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) } }]);
  });
});

describe('a reply that breaks the protocol', () => {
  it('fails the call at once, saying the reply was invalid, not after the server\'s timeout', async () => {
    const r = await runUnruly(
      [
        { calls: [{ name: 'unruly__reply', args: { result: '123' } }] },
        { calls: [{ name: 'unruly__reply', args: { result: '{"content":"plain text"}' } }] },
        { calls: [{ name: 'unruly__echo', args: { text: 'still here' } }] },
      ],
      { modes: ['bad-replies'], server: { timeout: '20s' } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e) => [e.error_type, e.llm_content])).toEqual([
      ['execution_failed', "Error: MCP server 'unruly' failed on reply: the server's reply is no valid JSON-RPC response: its result is a number, not an object"],
      ['execution_failed', "Error: MCP server 'unruly' failed on reply: its reply is invalid: its content is a string, not a list of content blocks"],
      [null, 'echo {"text":"still here"}'],
    ]);
    expect(r.results[0]!.duration_ms).toBeLessThan(10_000);
  });
});

describe('a tools/list that ends its pages as servers do', () => {
  it('with nextCursor: null, or repeating the cursor it was asked with: every tool is offered once, the server kept', async () => {
    for (const mode of ['null-cursor', 'stuck-cursor']) {
      const r = await runUnruly([{ calls: [{ name: 'unruly__echo', args: { text: 'first page' } }, { name: 'unruly__picture', args: { kind: 'jpg' } }] }], { modes: [mode] });
      expect(r.warnings, mode).toEqual([]);
      // echo is on the first page, picture on the second (null-cursor): both offered, both ran.
      expect(r.results.map((e) => [e.name, e.error_type]), mode).toEqual([
        ['unruly__echo', null],
        ['unruly__picture', null],
      ]);
    }
  });
});
