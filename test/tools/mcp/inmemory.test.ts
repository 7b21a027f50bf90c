// Edge cases against real MCP servers defined here, talking over the SDK's in-memory pair.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../src/recipe/types.js';
import { McpStartError, connectMcpServers, type McpServers } from '../../../src/tools/mcp/connect-all.js';
import { McpTool } from '../../../src/tools/mcp/mcp-tool.js';
import { isBuiltinToolName } from '../../../src/tools/names.js';
import type { AnyTool } from '../../../src/tools/tools.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==';
const EMPTY_SCHEMA = { type: 'object' as const, properties: {} };

type Handler = (args: Record<string, unknown>, signal: AbortSignal) => Promise<CallToolResult> | CallToolResult;

interface FakeServer {
  tools: Tool[];
  handlers: Record<string, Handler>;
  /** Leave initialize unanswered: the server is never connected. */
  silent?: boolean;
}

function config(alias: string, over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    alias,
    command: null,
    args: [],
    env: {},
    cwd: null,
    url: null,
    headers: {},
    timeoutMs: 2000,
    includeTools: null,
    excludeTools: [],
    trust: false,
    required: false,
    ...over,
  };
}

const opened: McpServers[] = [];
const closedServers: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function connect(
  fakes: Record<string, FakeServer>,
  configs: McpServerConfig[],
  reserved: (name: string) => boolean = isBuiltinToolName,
): Promise<McpServers & { warnings: string[] }> {
  const warnings: string[] = [];
  const servers = await connectMcpServers(configs, {
    env: {},
    signal: new AbortController().signal,
    reserved,
    onWarning: (m) => warnings.push(m),
    createTransport: (cfg) => {
      const fake = fakes[cfg.alias]!;
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      if (!fake.silent) void startServer(cfg.alias, fake, serverSide);
      return clientSide;
    },
  });
  opened.push(servers);
  return { ...servers, warnings };
}

async function startServer(alias: string, fake: FakeServer, transport: InMemoryTransport): Promise<void> {
  const server = new Server({ name: alias, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: fake.tools }));
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    const handler = fake.handlers[req.params.name];
    if (!handler) throw new Error(`no tool ${req.params.name}`);
    return handler(req.params.arguments ?? {}, extra.signal);
  });
  server.onclose = () => closedServers.push(alias);
  await server.connect(transport);
}

function tool(name: string, inputSchema: Tool['inputSchema'] = EMPTY_SCHEMA, extra: Partial<Tool> = {}): Tool {
  return { name, description: `does ${name}`, inputSchema, ...extra };
}

function named(tools: AnyTool[], name: string): AnyTool {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return found;
}

const signal = () => new AbortController().signal;

/** A tool that runs until the client cancels it, and remembers that it was cancelled. */
function waitingTool() {
  const state = { started: false, cancelled: false };
  const handler: Handler = (_args, sig) =>
    new Promise((resolve) => {
      state.started = true;
      sig.addEventListener('abort', () => {
        state.cancelled = true;
        resolve({ content: [{ type: 'text', text: 'cancelled' }] });
      });
    });
  return { state, handler };
}

describe('MCP tools over the in-memory pair', () => {
  const weather: FakeServer = {
    tools: [
      tool('forecast', {
        type: 'object',
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        additionalProperties: false,
        properties: { city: { type: 'string' } },
        required: ['city'],
      }),
      tool('fail'),
      tool('picture'),
      tool('get.weather/now'),
      tool('throws'),
    ],
    handlers: {
      forecast: (args) => ({ content: [{ type: 'text', text: `sunny in ${String(args.city)}` }] }),
      fail: () => ({ isError: true, content: [{ type: 'text', text: 'quota exceeded' }] }),
      picture: () => ({
        content: [
          { type: 'text', text: 'here:' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
        ],
      }),
      'get.weather/now': () => ({ content: [{ type: 'text', text: 'now: rain' }] }),
      throws: () => {
        throw new Error('database is down');
      },
    },
  };

  it('offers alias__tool names, declares cleaned schemas, and calls the server', async () => {
    const { tools, warnings } = await connect({ weather }, [config('weather')]);
    expect(warnings).toEqual([]);
    expect(tools.map((t) => t.name)).toEqual([
      'weather__forecast',
      'weather__fail',
      'weather__picture',
      'weather__get_weather_now',
      'weather__throws',
    ]);
    const forecast = named(tools, 'weather__forecast');
    expect(forecast.schema.parameters).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(forecast.validateToolParams({})).toBe("missing required parameter 'city'");
    expect(await forecast.execute({ city: 'Lisbon' }, signal())).toEqual({
      llmContent: 'sunny in Lisbon',
      returnDisplay: 'sunny in Lisbon',
    });
    // The sanitised name still calls the server's own tool name.
    expect((await named(tools, 'weather__get_weather_now').execute({}, signal())).llmContent).toBe('now: rain');
  });

  it('isError results reach the model as execution_failed errors with the server text', async () => {
    const { tools } = await connect({ weather }, [config('weather')]);
    const result = await named(tools, 'weather__fail').execute({}, signal());
    expect(result.error).toEqual({ type: 'execution_failed', message: 'quota exceeded' });
    expect(result.llmContent).toBe('Error: quota exceeded');
  });

  it('a protocol error (the handler threw) is an error result, not an exception', async () => {
    const { tools } = await connect({ weather }, [config('weather')]);
    const result = await named(tools, 'weather__throws').execute({}, signal());
    expect(result.error?.type).toBe('execution_failed');
    expect(result.error?.message).toMatch(/MCP server 'weather' failed on throws: .*database is down/);
  });

  it('images arrive as inlineData parts', async () => {
    const { tools } = await connect({ weather }, [config('weather')]);
    const result = await named(tools, 'weather__picture').execute({}, signal());
    expect(result.llmContent).toEqual([{ text: 'here:' }, { inlineData: { mimeType: 'image/png', data: PNG } }]);
    expect(result.returnDisplay).toMatch(/\[image: image\/png, \d+ B\]/);
  });

  it('untrusted servers need confirmation; trusted ones do not', async () => {
    const { tools } = await connect({ weather, trusted: weather }, [config('weather'), config('trusted', { trust: true })]);
    expect(await named(tools, 'weather__forecast').shouldConfirmExecute({ city: 'x' }, signal())).toEqual({
      kind: 'other',
      title: 'Call MCP tool weather: forecast {"city":"x"}',
    });
    expect(await named(tools, 'trusted__forecast').shouldConfirmExecute({ city: 'x' }, signal())).toBe(false);
    expect(named(tools, 'trusted__forecast').kind).toBe('other');
  });

  it('include_tools and exclude_tools filter by the server-side name; unknown includes are reported', async () => {
    const { tools, warnings } = await connect({ weather }, [
      config('weather', { includeTools: ['forecast', 'fail', 'get.weather/now', 'radar'], excludeTools: ['fail'] }),
    ]);
    expect(tools.map((t) => t.name)).toEqual(['weather__forecast', 'weather__get_weather_now']);
    expect(warnings).toEqual(["MCP server 'weather' has no tool 'radar' (named in include_tools)"]);
  });

  it("an exclude_tools or include_tools name that matches no tool is said, with the server's own name when it was written as the model sees it", async () => {
    // exclude_tools: [weather__fail] excluded nothing, in silence: the tool stayed offered.
    const { tools, warnings } = await connect({ weather }, [
      config('weather', { includeTools: ['forecast', 'mcp__weather__fail', 'fail'], excludeTools: ['weather__fail', 'hail'] }),
    ]);
    expect(tools.map((t) => t.name)).toEqual(['weather__forecast', 'weather__fail']);
    expect(warnings).toEqual([
      "MCP server 'weather' has no tool 'mcp__weather__fail' (named in include_tools): include_tools takes the server's own tool names, here 'fail'",
      "MCP server 'weather' has no tool 'weather__fail' (named in exclude_tools): exclude_tools takes the server's own tool names, here 'fail'",
      "MCP server 'weather' has no tool 'hail' (named in exclude_tools)",
    ]);
  });

  it('names that collide across servers or with reserved names get stable hashed suffixes', async () => {
    const a: FakeServer = { tools: [tool('b__c'), tool('x')], handlers: { 'b__c': () => ({ content: [{ type: 'text', text: 'from a' }] }) } };
    const ab: FakeServer = { tools: [tool('c')], handlers: { c: () => ({ content: [{ type: 'text', text: 'from a__b' }] }) } };
    const reserved = (n: string) => isBuiltinToolName(n) || n === 'a__x';
    const first = await connect({ a, a__b: ab }, [config('a'), config('a__b')], reserved);
    const second = await connect({ a, a__b: ab }, [config('a'), config('a__b')], reserved);
    const names = first.tools.map((t) => t.name);
    expect(names[0]).toBe('a__b__c');
    expect(names[1]).toMatch(/^a__x_[0-9a-f]{8}$/);
    expect(names[2]).toMatch(/^a__b__c_[0-9a-f]{8}$/);
    expect(second.tools.map((t) => t.name)).toEqual(names);
    expect((await named(first.tools, names[2]!).execute({}, signal())).llmContent).toBe('from a__b');
  });

  it('a tool whose schema explodes once its $refs are inlined is left out with a warning; the others are offered', async () => {
    const defs: Record<string, unknown> = { D5: { type: 'string' } };
    for (let level = 4; level >= 0; level--) {
      defs[`D${level}`] = { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, { $ref: `#/$defs/D${level + 1}` }])) };
    }
    const huge = { type: 'object' as const, properties: { x: { $ref: '#/$defs/D0' } }, $defs: defs };
    const bloat: FakeServer = { tools: [tool('huge', huge), tool('ok')], handlers: {} };
    const { tools, warnings } = await connect({ bloat }, [config('bloat')]);
    expect(tools.map((t) => t.name)).toEqual(['bloat__ok']);
    expect(warnings).toEqual([expect.stringMatching(/^MCP server 'bloat': tool 'huge' is left out: its input schema is unusable \(with its \$refs inlined the schema is larger than 65536 bytes/)]);
  });

  it('tools that only run as MCP tasks are left out with a warning', async () => {
    const tasky: FakeServer = { tools: [tool('research', EMPTY_SCHEMA, { execution: { taskSupport: 'required' } }), tool('ok')], handlers: {} };
    const { tools, warnings } = await connect({ tasky }, [config('tasky')]);
    expect(tools.map((t) => t.name)).toEqual(['tasky__ok']);
    expect(warnings[0]).toMatch(/'research' is left out: it only runs as an MCP task/);
  });
});

describe('MCP servers that misbehave', () => {
  it('a server that never answers initialize is left out after its timeout, the others still start', async () => {
    const ok: FakeServer = { tools: [tool('ping')], handlers: {} };
    const started = Date.now();
    const { tools, failures, warnings } = await connect({ mute: { tools: [], handlers: {}, silent: true }, ok }, [
      config('mute', { timeoutMs: 200 }),
      config('ok'),
    ]);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(tools.map((t) => t.name)).toEqual(['ok__ping']);
    expect(failures).toEqual([{ alias: 'mute', error: 'did not start and list its tools within 200 ms' }]);
    expect(warnings).toEqual(["MCP server 'mute' is left out: did not start and list its tools within 200 ms"]);
  });

  it('a required server that never answers fails the start with McpStartError, and the others are closed', async () => {
    const ok: FakeServer = { tools: [tool('ping')], handlers: {} };
    closedServers.length = 0;
    const error = await connect({ mute: { tools: [], handlers: {}, silent: true }, ok }, [
      config('mute', { timeoutMs: 200, required: true }),
      config('ok'),
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpStartError);
    expect((error as McpStartError).message).toBe(
      "required MCP server 'mute' failed to start: did not start and list its tools within 200 ms",
    );
    expect(closedServers).toContain('ok');
  });

  it('cancelling the run while servers start ends the wait at once', async () => {
    const controller = new AbortController();
    const warnings: string[] = [];
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const servers = await connectMcpServers([config('mute', { timeoutMs: 10_000 })], {
      env: {},
      signal: controller.signal,
      reserved: isBuiltinToolName,
      onWarning: (m) => warnings.push(m),
      createTransport: () => InMemoryTransport.createLinkedPair()[0],
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(servers.failures).toEqual([{ alias: 'mute', error: 'start was cancelled' }]);
  });

  it('the run signal cancels a call in flight, and the server hears about it', async () => {
    const { state, handler } = waitingTool();
    const { tools } = await connect({ slow: { tools: [tool('wait')], handlers: { wait: handler } } }, [config('slow')]);
    const controller = new AbortController();
    const pending = named(tools, 'slow__wait').execute({}, controller.signal);
    await expect.poll(() => state.started).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.error?.type).toBe('aborted');
    await expect.poll(() => state.cancelled).toBe(true);
  });

  it('a call that outlives the server timeout is a timeout error result', async () => {
    const { handler } = waitingTool();
    const { tools } = await connect({ slow: { tools: [tool('wait')], handlers: { wait: handler } } }, [
      config('slow', { timeoutMs: 250 }),
    ]);
    const result = await named(tools, 'slow__wait').execute({}, signal());
    expect(result.error).toEqual({ type: 'timeout', message: "MCP server 'slow' did not answer wait within 250 ms" });
  });

  it('after close(), calls fail as error results instead of hanging', async () => {
    closedServers.length = 0;
    const servers = await connect({ weather: { tools: [tool('ping')], handlers: {} } }, [config('weather')]);
    await servers.close();
    expect(closedServers).toEqual(['weather']);
    const tool0 = servers.tools[0] as McpTool;
    const result = await tool0.execute({}, signal());
    expect(result.error).toEqual({ type: 'execution_failed', message: "MCP server 'weather' failed on ping: Not connected" });
  });
});
