// goose extensions -> our MCP servers and built-in tools. stdio servers (`cmd`, `args`, `envs`) and
// HTTP servers (`uri`) are MCP servers here too, their tools named `name__tool` as goose names
// them; goose's `developer` extension is our file and shell tools; `memory`, `todo` and `summon`
// have built-in counterparts. The rest (goose's desktop and UI extensions, inline Python) is
// reported and left out.
import { DEFAULT_TOOL_NAMES } from '../../tools/names.js';
import { describe, isDict, seconds, type ConversionContext, type Dict } from './context.js';
import { convertLiteral } from './template.js';

export interface ConvertedExtensions {
  /** Built-in tools, in order; null when the recipe names no extensions (goose then uses the user's defaults). */
  tools: string[] | null;
  servers: Record<string, Dict>;
  /** Variables the servers need from the environment (goose `env_keys`). */
  envPass: string[];
}

/** goose `developer` tool -> ours. Reading and searching come with it whatever it lists. */
const DEVELOPER_TOOLS: Record<string, string[]> = {
  shell: ['shell'],
  text_editor: ['write_file', 'edit'],
  write: ['write_file'],
  edit: ['edit'],
  tree: ['ls'],
};
const READ_ONLY = ['ls', 'read_file', 'grep', 'glob', 'read_many_files'];

/** goose builtin or platform extension name -> our built-in tools. */
const COUNTERPARTS: Record<string, string[]> = { memory: ['save_memory'], todo: ['todo_write'], summon: ['task'] };

const ALIAS_OK = /^[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*$/;

/** Every field of a goose extension, of any type: another one (`env:` for `envs:`) is a typo, said. */
const EXTENSION_FIELDS = new Set([
  'type', 'name', 'cmd', 'args', 'envs', 'env_keys', 'uri', 'headers', 'timeout', 'available_tools',
  'description', 'display_name', 'bundled', 'enabled', 'code', 'dependencies', 'tools', 'instructions',
]);

export function convertExtensions(raw: unknown, ctx: ConversionContext): ConvertedExtensions {
  if (raw === undefined || raw === null) return { tools: null, servers: {}, envPass: [] };
  if (!Array.isArray(raw)) {
    ctx.problem(['extensions'], 'goose extensions are a list of {type, name, ...}');
    return { tools: null, servers: {}, envPass: [] };
  }
  const tools = new Set<string>();
  const servers: Record<string, Dict> = {};
  const envPass = new Set<string>();
  ctx.from(['tools'], ['extensions']);
  raw.forEach((ext, i) => {
    if (!isDict(ext) || typeof ext.type !== 'string' || typeof ext.name !== 'string' || ext.name.trim() === '') {
      return ctx.problem(['extensions', i], 'an extension needs a type and a name');
    }
    const label = `extensions[${i}] '${ext.name}'`;
    for (const field of Object.keys(ext)) if (!EXTENSION_FIELDS.has(field)) ctx.warn(`${label}.${field}`, 'not a goose extension field; ignored');
    const name = ext.name.trim();
    const key = name.toLowerCase();
    if (ext.type === 'builtin' && key === 'developer') {
      for (const tool of developerTools(ext, i, label, ctx)) tools.add(tool);
    } else if ((ext.type === 'builtin' || ext.type === 'platform') && COUNTERPARTS[key]) {
      for (const tool of COUNTERPARTS[key]!) tools.add(tool);
    } else if (ext.type === 'stdio' || ext.type === 'streamable_http' || ext.type === 'sse') {
      const alias = aliasFor(name, servers);
      if (alias !== name) ctx.warn(label, `named '${alias}' here (server names are letters, digits, - and single _); its tools are ${alias}__<tool>`);
      ctx.from(['mcp_servers', alias], ['extensions', i]);
      servers[alias] = server(ext, i, alias, label, ctx, envPass);
    } else {
      ctx.warn(label, `${ext.type} extension with no counterpart here; ignored`);
    }
  });
  return { tools: sortTools(tools), servers, envPass: [...envPass] };
}

function developerTools(ext: Dict, i: number, label: string, ctx: ConversionContext): string[] {
  const given = ext.available_tools;
  if (given !== undefined && given !== null && !(Array.isArray(given) && given.every((t) => typeof t === 'string'))) {
    // Read as "no list", it would offer every tool, the shell included.
    ctx.problem(['extensions', i, 'available_tools'], `${label}.available_tools must be a list of tool names, got ${describe(given)}`);
    return [...READ_ONLY];
  }
  const listed = Array.isArray(given) ? given.map(String) : [];
  if (listed.length === 0) return [...DEFAULT_TOOL_NAMES];
  const tools = [...READ_ONLY];
  for (const name of listed) {
    const ours = DEVELOPER_TOOLS[name];
    if (ours) tools.push(...ours);
    else ctx.warn(`${label}.available_tools`, `'${name}' has no counterpart here; ignored`);
  }
  return tools;
}

function server(ext: Dict, i: number, alias: string, label: string, ctx: ConversionContext, envPass: Set<string>): Dict {
  const out: Dict = {};
  const at = ['mcp_servers', alias];
  // goose templates the whole file, so `{{ recipe_dir }}/server.py` is a common argument.
  const literal = (value: unknown, field: string) => {
    if (typeof value !== 'string') return value;
    const converted = convertLiteral(value, { recipe_dir: ctx.dir });
    for (const d of converted.dropped) ctx.warn(`${label}.${field}`, d);
    return converted.text;
  };
  const stdio = ext.type === 'stdio';
  // A field of the wrong shape is never dropped in silence: one whose loss changes what runs (the
  // arguments, which tools are offered) is an error; one whose loss the run survives, a warning.
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  const refuse = (field: string, what: string) => ctx.problem(['extensions', i, field], `${label}.${field} must be ${what}, got ${describe(ext[field])}`);
  const ignore = (field: string, what: string) => ctx.warn(`${label}.${field}`, `must be ${what}, got ${describe(ext[field])}; ignored`);
  const map = (field: string): Dict | null => {
    const v = ext[field];
    if (v === undefined || v === null) return null;
    if (!isDict(v) || !Object.values(v).every(scalar)) {
      ignore(field, 'a map of names to text');
      return null;
    }
    return Object.keys(v).length ? v : null;
  };
  if (stdio) {
    if (ext.cmd !== undefined) out.command = literal(ext.cmd, 'cmd');
    ctx.from([...at, 'command'], ['extensions', i, 'cmd']);
    if (ext.args !== undefined && ext.args !== null) {
      // Without its arguments the server would start as the bare command (`npx`): another program.
      if (Array.isArray(ext.args) && ext.args.every(scalar)) out.args = ext.args.map((a) => literal(String(a), 'args'));
      else refuse('args', 'a list of arguments (args: ["-y", "@scope/server"])');
    }
    const envs = map('envs');
    if (envs) {
      out.env = Object.fromEntries(Object.entries(envs).map(([k, v]) => [k, literal(String(v), 'envs')]));
      ctx.from([...at, 'env'], ['extensions', i, 'envs']);
    }
  } else {
    if (ext.uri !== undefined) out.url = literal(ext.uri, 'uri');
    ctx.from([...at, 'url'], ['extensions', i, 'uri']);
    if (ext.type === 'sse') ctx.warn(label, 'sse transport: connected with Streamable HTTP, the transport that replaced it (goose no longer speaks SSE either)');
    const headers = map('headers');
    if (headers) out.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, literal(String(v), 'headers')]));
    if (isDict(ext.envs) && Object.keys(ext.envs).length) ctx.warn(`${label}.envs`, 'an HTTP server runs no process to give variables to; ignored');
  }
  if (ext.env_keys !== undefined && ext.env_keys !== null && !(Array.isArray(ext.env_keys) && ext.env_keys.every(scalar))) ignore('env_keys', 'a list of variable names');
  const keys = Array.isArray(ext.env_keys) && ext.env_keys.every(scalar) ? ext.env_keys.map(String) : [];
  if (keys.length) {
    for (const k of keys) envPass.add(k);
    ctx.warn(`${label}.env_keys`, `${keys.join(', ')} passed from the environment with env.pass, which every tool process sees, not only this server${stdio ? '' : ' (and an HTTP server gets none of them)'}`);
  }
  const timeout = seconds(ext.timeout);
  if (timeout) out.timeout = timeout;
  else if (ext.timeout !== undefined && ext.timeout !== null) ignore('timeout', 'a number of seconds above 0');
  if (ext.available_tools !== undefined && ext.available_tools !== null) {
    // Without the list every tool of the server would be offered, not the few it names.
    if (!Array.isArray(ext.available_tools) || !ext.available_tools.every(scalar)) refuse('available_tools', 'a list of tool names');
    else if (ext.available_tools.length) out.include_tools = ext.available_tools.map(String);
  }
  for (const field of ['code', 'dependencies', 'tools', 'instructions']) if (ext[field] !== undefined) ctx.warn(`${label}.${field}`, 'ignored');
  return out;
}

function aliasFor(name: string, taken: Record<string, unknown>): string {
  let alias = ALIAS_OK.test(name)
    ? name
    : name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/_{2,}/g, '_').replace(/^[-_]+|[-_]+$/g, '') || 'server';
  for (let n = 2; Object.hasOwn(taken, alias); n++) alias = `${alias.replace(/-\d+$/, '')}-${n}`;
  return alias;
}

function sortTools(tools: Set<string>): string[] {
  const order = [...DEFAULT_TOOL_NAMES, 'save_memory', 'todo_write', 'task'] as string[];
  return [...tools].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
