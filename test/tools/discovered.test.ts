import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscoveryError, discoverTools, type DiscoveryContext } from '../../src/tools/discovered.js';
import { isBuiltinToolName } from '../../src/tools/names.js';
import { trackedProcessGroups } from '../../src/tools/process-groups.js';
import type { AnyTool } from '../../src/tools/tools.js';
import { FIXTURES, isAlive, makeTempDir, minimalEnv, readPid, removeDir, waitFor } from '../helpers/child-processes.js';

const DISCOVER = path.join(FIXTURES, 'discovery/discover.sh');
const CALL = path.join(FIXTURES, 'discovery/call.sh');

let cwd: string;
beforeAll(() => {
  cwd = makeTempDir('discovery');
});
afterAll(() => removeDir(cwd));

/** The process group id of `pid` (Linux /proc: the fifth field of stat). */
function processGroupOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

function context(signal = new AbortController().signal): DiscoveryContext {
  return { cwd, env: minimalEnv(), signal, reserved: isBuiltinToolName };
}

function discover(mode: string, timeoutMs = 5000, signal?: AbortSignal): Promise<AnyTool[]> {
  return discoverTools({ command: `bash '${DISCOVER}' ${mode}`, callCommand: `bash '${CALL}'`, timeoutMs }, context(signal));
}

async function toolNamed(name: string, timeoutMs = 5000): Promise<AnyTool> {
  const tools = await discover('array', timeoutMs);
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`fixture has no ${name}`);
  return tool;
}

describe('discoverTools: accepted output', () => {
  it.each([
    ['array', ['word_count', 'fail_loudly', 'take_forever', 'leave_child', 'print_lots', 'log_lots']],
    ['snake-wrapper', ['word_count']],
    ['gemini-wrapper', ['word_count', 'say_hi']],
    ['empty', []],
  ])('%s output gives tools %j', async (mode, names) => {
    const tools = await discover(mode);
    expect(tools.map((t) => t.name)).toEqual(names);
  });

  it('declares the schema to the model cleaned for the providers (Gemini OBJECT/STRING lowercased)', async () => {
    const [tool] = await discover('snake-wrapper');
    expect(tool!.schema).toEqual({
      name: 'word_count',
      description: 'Counts words',
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
    });
  });

  it('a name providers refuse (a dot) is offered sanitised; rules and the call command keep the declared name', async () => {
    const [, tool] = await discover('gemini-wrapper');
    expect(tool!.schema.name).toBe('say_hi');
    expect(tool!.schema.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(tool!.ruleNames).toEqual(['say.hi']);
    const result = await tool!.execute({}, new AbortController().signal);
    expect(result.error?.message).toBe("tool 'say.hi' exited with code 127; stderr: no such tool: say.hi");
  });

  it('always asks for confirmation, and validates arguments against the declared schema', async () => {
    const tool = await toolNamed('word_count');
    expect(tool.kind).toBe('other');
    expect(await tool.shouldConfirmExecute({ text: 'a' }, new AbortController().signal)).toMatchObject({ kind: 'other' });
    expect(tool.validateToolParams({})).toBe("missing required parameter 'text'");
    expect(tool.validateToolParams({ text: 3 })).toMatch(/must be string/);
    expect(tool.validateToolParams({ text: 'ok' })).toBeNull();
  });
});

describe('discoverTools: schemas as Python tools write them', () => {
  it('optional parameters and a Python regular expression are accepted, and calls are checked', async () => {
    const file = path.join(cwd, 'optional.json');
    const parameters = {
      type: 'object',
      properties: {
        o: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
        v: { type: ['string', 'integer', 'null'] },
        z: { type: 'null' },
        s: { type: 'string', pattern: '^(?P<x>a+)$' },
      },
    };
    fs.writeFileSync(file, JSON.stringify([{ name: 'word_count', description: 'd', parameters }]));
    const [tool] = await discoverTools({ command: `cat '${file}'`, callCommand: `bash '${CALL}'`, timeoutMs: 5000 }, context());
    expect(tool!.validateToolParams({ o: null, v: null, z: null, s: 'aa' })).toBeNull();
    expect(tool!.validateToolParams({ o: 'x', v: 3 })).toBeNull();
    expect(tool!.validateToolParams({ v: true })).toMatch(/'v' must be/);
  });
});

describe('discoverTools: output that stops the run', () => {
  it.each([
    ['not-json', /not JSON.*starts with: word_count: counts words/],
    ['not-a-list', /must be a JSON array of function declarations/],
    ['bad-name', /invalid name "rm -rf"/],
    ['no-description', /'word_count'\) needs a description/],
    ['bad-parameters', /parameters must be a JSON Schema object/],
    ['duplicate', /declares 'a' twice/],
    ['shadow', /'shell' would shadow a built-in/],
    ['sanitised-clash', /declares 'git\.status' and 'git_status', which would both be offered as 'git_status'/],
    ['dunder', /\('p__evil'\): a name with '__' is reserved for MCP servers' tools \(alias__tool\), so that rules naming a server's tools, such as 'p__\*', never name a discovered one/],
    ['exit-1', /exited with code 1; stderr: discovery backend unreachable/],
  ])('%s -> DiscoveryError %s', async (mode, message) => {
    const error = await discover(mode).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscoveryError);
    expect((error as Error).message).toMatch(message);
  });

  it('a declaration whose schema explodes once its $refs are inlined stops the run with a DiscoveryError', async () => {
    const defs: Record<string, unknown> = { D5: { type: 'string' } };
    for (let level = 4; level >= 0; level--) {
      defs[`D${level}`] = { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, { $ref: `#/$defs/D${level + 1}` }])) };
    }
    const file = path.join(cwd, 'huge.json');
    fs.writeFileSync(file, JSON.stringify([{ name: 'huge', description: 'd', parameters: { type: 'object', properties: { x: { $ref: '#/$defs/D0' } }, $defs: defs } }]));
    const error = await discoverTools({ command: `cat '${file}'`, callCommand: `bash '${CALL}'`, timeoutMs: 5000 }, context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscoveryError);
    expect((error as Error).message).toMatch(/\('huge'\): parameters are not a usable JSON Schema: with its \$refs inlined the schema is larger than 65536 bytes/);
  });

  it('a discovery command that hangs is stopped at its timeout', async () => {
    const started = Date.now();
    const error = await discover('slow', 300).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/did not finish within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('DiscoveredTool.execute', () => {
  const signal = () => new AbortController().signal;

  it('passes the JSON arguments on stdin and the tool name as $1; stdout is the result', async () => {
    const tool = await toolNamed('word_count');
    const result = await tool.execute({ text: 'three small words' }, signal());
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe('tool=word_count words=3 args={"text":"three small words"}');
  });

  it('output past 1 MiB keeps its head and tail, as the shell\'s does, instead of being lost', async () => {
    const tool = await toolNamed('print_lots');
    const result = await tool.execute({}, signal());
    expect(result.error).toBeUndefined();
    const text = String(result.llmContent);
    expect(text).toMatch(/^START\nxxx/);
    expect(text).toMatch(/xxx\nEND$/);
    expect(text).toMatch(/\[… \d+ bytes cut: only the first 512 KiB and the last 512 KiB are kept …\]/);
    expect(text.length).toBeLessThan(1100 * 1024);
  });

  it('a call that logs much to stderr and succeeds is a success, not a failure for its log\'s size', async () => {
    const tool = await toolNamed('log_lots');
    const result = await tool.execute({}, signal());
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe('built');
  });

  it('a non-zero exit is an error result carrying stderr', async () => {
    const tool = await toolNamed('fail_loudly');
    const result = await tool.execute({}, signal());
    expect(result.error?.type).toBe('execution_failed');
    expect(result.error?.message).toBe("tool 'fail_loudly' exited with code 3; stderr: disk quota exceeded");
    // What it printed to stdout before failing reaches the model too (a test runner's report).
    expect(result.llmContent).toBe("Error: tool 'fail_loudly' exited with code 3; stderr: disk quota exceeded\nStdout:\npartial output");
  });

  it('a call that outlives its timeout is an error result, and its whole process group is killed', async () => {
    const tool = await toolNamed('take_forever', 400);
    const pidfile = path.join(cwd, 'forever.pid');
    const started = Date.now();
    const result = await tool.execute({ pidfile }, signal());
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.error?.type).toBe('timeout');
    expect(result.error?.message).toMatch(/did not finish within 400 ms; stderr: started/);
    expect(await waitFor(() => !isAlive(readPid(pidfile)))).toBe(true);
  });

  it('limits.tool_timeout clamps a call below the discovery timeout', async () => {
    const tools = await discoverTools(
      { command: `bash '${DISCOVER}' array`, callCommand: `bash '${CALL}'`, timeoutMs: 20_000 },
      { ...context(), maxCallMs: 400 },
    );
    const tool = tools.find((t) => t.name === 'take_forever')!;
    const pidfile = path.join(cwd, 'clamped.pid');
    const started = Date.now();
    const result = await tool.execute({ pidfile }, signal());
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.error?.type).toBe('timeout');
    expect(result.error?.message).toMatch(/did not finish within 400 ms/);
    expect(await waitFor(() => !isAlive(readPid(pidfile)))).toBe(true);
  });

  it('the run signal cancels a call at once, grandchildren included', async () => {
    const tool = await toolNamed('take_forever');
    const pidfile = path.join(cwd, 'cancelled.pid');
    const controller = new AbortController();
    const pending = tool.execute({ pidfile }, controller.signal);
    await waitFor(() => fs.existsSync(pidfile) && fs.readFileSync(pidfile, 'utf8').trim() !== '');
    const started = Date.now();
    controller.abort();
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.error?.type).toBe('aborted');
    expect(await waitFor(() => !isAlive(readPid(pidfile)))).toBe(true);
  });

  it('a running call\'s process group is registered for the runner\'s last-resort kill, and released after', async () => {
    const tool = await toolNamed('take_forever');
    const pidfile = path.join(cwd, 'tracked.pid');
    const controller = new AbortController();
    const pending = tool.execute({ pidfile }, controller.signal);
    await waitFor(() => fs.existsSync(pidfile) && fs.readFileSync(pidfile, 'utf8').trim() !== '');
    const group = processGroupOf(readPid(pidfile));
    expect(group).not.toBe(process.pid);
    expect(trackedProcessGroups()).toContain(group);
    controller.abort();
    await pending;
    expect(trackedProcessGroups()).not.toContain(group);
  });

  it('processes a call leaves in the background do not outlive it', async () => {
    const tool = await toolNamed('leave_child');
    const pidfile = path.join(cwd, 'child.pid');
    const result = await tool.execute({ pidfile }, signal());
    expect(result.llmContent).toBe('left a child behind');
    expect(await waitFor(() => !isAlive(readPid(pidfile)))).toBe(true);
  });
});
