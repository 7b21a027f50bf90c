// Files named by flags that other agents' users already have: an `mcpServers` JSON (Claude Code,
// Gemini CLI and Qwen Code share the shape), a JSON Schema for the answer (`codex exec
// --output-schema`), and text for the system prompt (`--append-system-prompt`, `@FILE` to read it).
// They are the user's own configuration, named on the command line, never found in the workspace.
// Each problem is one line naming the flag, the file and what to change.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { jsonErrorOffset, lineColOfOffset } from '../util/json-position.js';
import { compileSchema } from '../util/json-schema.js';
import { oneLine } from '../util/one-line.js';
import { firstInvalidUtf8, lineColOfByte, utf16Bom, utf8TextWithoutBom } from '../util/utf8.js';
import { DEFAULT_MCP_TIMEOUT_MS } from './build.js';
import { MAX_TIMER_MS } from './duration.js';
import { MAX_RECIPE_BYTES } from './recipe-text.js';
import { looksLikeToml, tomlMcpConfigProblem } from './toml-config.js';
import type { McpServerConfig } from './types.js';

const ALIAS = /^[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*$/;
const KNOWN_KEYS = new Set([
  'type', 'command', 'args', 'env', 'cwd', 'url', 'httpUrl', 'headers', 'timeout', 'trust', 'includeTools', 'excludeTools', 'disabled',
  // Read by the peers for things this runner does otherwise (or not at all): accepted, ignored.
  'description', 'autoApprove', 'alwaysAllow', 'oauth', 'authProviderType', 'targetAudience', 'targetServiceAccount',
]);

type Result<T> = { value: T; problems: string[] };

/** The stand-in file name of inline JSON: its directory is the current one. */
const INLINE = '(inline JSON)';


function readText(flag: string, file: string, cwd: string): { text: string | null; problem: string | null; path: string } {
  const full = resolve(cwd, file);
  // An empty value (`--output-schema "$SCHEMA"` with the variable unset) resolves to the current
  // directory, and was told "cannot read it (a directory, not a file)".
  if (file.trim() === '') return { text: null, problem: `${flag} is empty: name a file`, path: full };
  try {
    // As a recipe: larger is more than any model reads, and would only cost memory and time.
    if ((statSync(full, { throwIfNoEntry: false })?.size ?? 0) > MAX_RECIPE_BYTES) {
      return { text: null, problem: `${flag} ${file}: larger than ${MAX_RECIPE_BYTES / 1024 / 1024} MB, far more than a model reads`, path: full };
    }
    const bytes = readFileSync(full);
    const utf16 = utf16Bom(bytes);
    if (utf16) return { text: null, problem: `${flag} ${file}: ${utf16} text (it starts with that byte-order mark), not UTF-8: save it as UTF-8`, path: full };
    // 'utf8' would turn each invalid byte into U+FFFD in silence, and the model read "Ren�".
    const bad = firstInvalidUtf8(bytes);
    if (bad >= 0) {
      const { line, col } = lineColOfByte(bytes, bad);
      return { text: null, problem: `${flag} ${file}: not UTF-8 text (byte 0x${bytes[bad]!.toString(16).padStart(2, '0')} at line ${line}, column ${col}): save it as UTF-8`, path: full };
    }
    return { text: utf8TextWithoutBom(bytes), problem: null, path: full };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (code ?? String(error));
    return { text: null, problem: `${flag} ${file}: cannot read it (${why}; resolved to ${full})`, path: full };
  }
}

/**
 * A value that starts with `{` is the JSON itself, as Claude Code reads `--mcp-config '{"mcpServers": …}'`
 * and `--json-schema '{…}'` (a file of that name still wins); its relative paths are from `cwd`.
 */
const isInline = (value: string, cwd: string) => value.trimStart().startsWith('{') && !existsSync(resolve(cwd, value));

/** How a problem names a flag's value: the file, or `(inline JSON)`. */
export function flagValueName(value: string, cwd: string): string {
  return isInline(value, cwd) ? INLINE : value;
}

function readJson(flag: string, file: string, cwd: string): { value: unknown; problem: string | null; path: string; name: string } {
  // Problems name `(inline JSON)`, not the whole text again.
  const inline = isInline(file, cwd);
  const name = inline ? INLINE : file;
  const read = inline ? { text: file, problem: null, path: join(cwd, INLINE) } : readText(flag, file, cwd);
  if (read.text === null) return { value: undefined, problem: read.problem, path: read.path, name };
  try {
    return { value: JSON.parse(read.text) as unknown, problem: null, path: read.path, name };
  } catch (error) {
    if (flag === '--mcp-config' && looksLikeToml(read.text)) return { value: undefined, problem: tomlMcpConfigProblem(flag, name, read.text), path: read.path, name };
    return { value: undefined, problem: `${flag} ${jsonSyntaxProblem(name, read.text, (error as Error).message)}`, path: read.path, name };
  }
}

/**
 * NAME:LINE:COL, as a recipe's problems are: Node names a character offset, or no place at all
 * ("Unexpected token ']', …" for a list's trailing comma, "Unexpected end of JSON input").
 */
function jsonSyntaxProblem(name: string, text: string, message: string): string {
  const stated = /at position (\d+)/.exec(message);
  const offset = stated ? Number(stated[1]) : jsonErrorOffset(text);
  const where = offset >= 0 ? (({ line, col }) => `:${line}:${col}`)(lineColOfOffset(text, offset)) : '';
  // Node's message quotes the text around the place (line breaks and all): the place says it now.
  const what = oneLine(message.replace(/ in JSON at position \d+.*$/s, '').replace(/^(Unexpected token '.*?'), .*$/s, '$1'), 200);
  const trailingComma = offset >= 0 && /[\]}]/.test(text[offset] ?? '') && /,\s*$/.test(text.slice(0, offset));
  const hint = trailingComma
    ? 'remove the comma before it (JSON allows none after the last item)'
    : 'fix the JSON there (names and strings in double quotes, no comments, no comma after the last item)';
  return `${name}${where}: not valid JSON (${what}): ${hint}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isStringMap = (v: unknown): v is Record<string, string> => isObject(v) && Object.values(v).every((x) => typeof x === 'string');

/**
 * `--mcp-config FILE`: `{"mcpServers": {name: {...}}}` -> the recipe's MCP servers. `${VAR}`,
 * `${VAR:-default}` and `$VAR` in command, args, env, url and headers are filled from the runner's
 * environment, as Claude Code and Gemini CLI fill them (a key kept out of the file); a variable
 * that is not set and has no default is a problem, not an empty string.
 */
export function mcpServersFromFile(file: string, cwd: string, env: NodeJS.ProcessEnv = process.env): Result<McpServerConfig[]> {
  const flag = '--mcp-config';
  const { value, problem, path, name } = readJson(flag, file, cwd);
  if (problem) return { value: [], problems: [problem] };
  const servers = isObject(value) ? value.mcpServers : undefined;
  if (!isObject(servers)) {
    // VS Code's .vscode/mcp.json holds the same entries under "servers": the fix is one key.
    const vscode = isObject(value) && isObject(value.servers) ? `; this file has "servers" (VS Code's mcp.json): rename that key to "mcpServers"` : '';
    return { value: [], problems: [`${flag} ${name}: expected {"mcpServers": {"name": {"command": …} or {"url": …}}}${vscode}`] };
  }
  const out: McpServerConfig[] = [];
  const problems: string[] = [];
  for (const [alias, raw] of Object.entries(servers)) {
    const where = `${flag} ${name}: server '${alias}'`;
    if (!ALIAS.test(alias)) {
      problems.push(`${where}: a name is letters, digits, - and single _ (\`__\` separates server and tool)`);
      continue;
    }
    if (!isObject(raw)) {
      problems.push(`${where}: expected an object`);
      continue;
    }
    if (raw.disabled !== undefined && typeof raw.disabled !== 'boolean') {
      problems.push(`${where}: "disabled" must be true or false`);
      continue;
    }
    // Kept (its alias stays known to the policy) but never started, and not checked further: the
    // peers skip a disabled entry whatever else it holds.
    if (raw.disabled === true) {
      out.push({ ...DISABLED_SERVER, alias, disabledIn: `${flag} ${name}`, fromFile: `${flag} ${name}` });
      continue;
    }
    const entry = windsurfEntry(raw, where, problems);
    if (!entry) continue;
    const server = mcpServer(expandVariables(entry, env, where, problems) as Record<string, unknown>, dirname(path), where, problems);
    if (server) out.push({ alias, ...server, ...writtenForm(entry), fromFile: `${flag} ${name}` });
  }
  return { value: out, problems };
}

/**
 * Windsurf's mcp_config.json names a server's Streamable HTTP endpoint `serverUrl`: read as the
 * `httpUrl` of Gemini CLI. With a `url` or `httpUrl` beside it, which one is meant is unclear.
 */
function windsurfEntry(raw: Record<string, unknown>, where: string, problems: string[]): Record<string, unknown> | null {
  if (raw.serverUrl === undefined) return raw;
  if (raw.url !== undefined || raw.httpUrl !== undefined) {
    problems.push(`${where}: "serverUrl" (Windsurf's spelling) and "${raw.url !== undefined ? 'url' : 'httpUrl'}" both name the server's URL: keep one`);
    return null;
  }
  const { serverUrl, ...rest } = raw;
  return { ...rest, httpUrl: serverUrl };
}

const DISABLED_SERVER: Omit<McpServerConfig, 'alias'> = {
  command: null,
  args: [],
  env: {},
  cwd: null,
  url: null,
  headers: {},
  timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
  includeTools: null,
  excludeTools: [],
  trust: false,
  required: false,
};

function mcpServer(raw: Record<string, unknown>, dir: string, where: string, problems: string[]): Omit<McpServerConfig, 'alias'> | null {
  const before = problems.length;
  const fail = (message: string) => void problems.push(`${where}: ${message}`);
  for (const key of Object.keys(raw)) if (!KNOWN_KEYS.has(key)) fail(`unknown key '${key}'`);
  const type = raw.type;
  // Streamable HTTP is `http` to Claude Code, `streamable-http` to Roo Code, `streamableHttp` to Cline.
  const httpType = ['http', 'streamable-http', 'streamableHttp'].includes(String(type));
  if (type !== undefined && !httpType && !['stdio', 'sse'].includes(String(type))) fail(`type '${String(type)}' is not stdio, http (streamable-http) or sse`);
  const command = raw.command;
  // An entry whose type says one transport and whose keys say the other was run as the keys said.
  if (type === 'stdio' && command === undefined && (raw.url ?? raw.httpUrl) !== undefined) fail('"type": "stdio" needs "command"; for a server at a URL write "type": "http"');
  if (httpType && command !== undefined && (raw.url ?? raw.httpUrl) === undefined) fail(`"type": "${String(type)}" needs "url"; for a server started by a command write "type": "stdio"`);
  // Gemini CLI and Qwen Code: `httpUrl` is Streamable HTTP, `url` is SSE; Claude Code: `url` with `type`.
  const sse = type === 'sse' || (raw.url !== undefined && raw.httpUrl === undefined && type === undefined);
  const url = raw.httpUrl ?? raw.url;
  if ((command === undefined) === (url === undefined)) fail(`needs either "command" (stdio) or "url"/"httpUrl" (HTTP)${command !== undefined ? ', not both' : ''}`);
  if (command !== undefined && (typeof command !== 'string' || command === '')) fail('"command" must be a non-empty string');
  if (url !== undefined && !isHttpUrl(url)) fail(`the URL must be http or https, got '${String(url)}'`);
  if (url !== undefined && sse) {
    fail('SSE servers are not supported (only Streamable HTTP): give the server\'s Streamable HTTP endpoint as "httpUrl", or "type": "http" with "url"');
  }
  if (raw.args !== undefined && !isStringList(raw.args)) fail('"args" must be a list of strings');
  if (raw.env !== undefined && !isStringMap(raw.env)) fail('"env" must map names to strings');
  if (raw.headers !== undefined && !isStringMap(raw.headers)) fail('"headers" must map names to strings');
  if (raw.cwd !== undefined && typeof raw.cwd !== 'string') fail('"cwd" must be a string');
  if (raw.timeout !== undefined && !(typeof raw.timeout === 'number' && raw.timeout > 0 && raw.timeout <= MAX_TIMER_MS))
    fail(`"timeout" is milliseconds, a number above 0 and at most ${MAX_TIMER_MS} (about 24 days)`);
  if (raw.trust !== undefined && typeof raw.trust !== 'boolean') fail('"trust" must be true or false');
  if (raw.includeTools !== undefined && !isStringList(raw.includeTools)) fail('"includeTools" must be a list of tool names');
  if (raw.excludeTools !== undefined && !isStringList(raw.excludeTools)) fail('"excludeTools" must be a list of tool names');
  if (problems.length > before) return null;
  return {
    command: typeof command === 'string' ? command : null,
    args: (raw.args as string[] | undefined) ?? [],
    env: (raw.env as Record<string, string> | undefined) ?? {},
    // Relative to the config file, as a recipe's cwd is to the recipe.
    cwd: typeof raw.cwd === 'string' ? resolve(dir, raw.cwd) : null,
    url: typeof url === 'string' ? url : null,
    headers: (raw.headers as Record<string, string> | undefined) ?? {},
    timeoutMs: typeof raw.timeout === 'number' ? raw.timeout : DEFAULT_MCP_TIMEOUT_MS,
    includeTools: (raw.includeTools as string[] | undefined) ?? null,
    excludeTools: (raw.excludeTools as string[] | undefined) ?? [],
    trust: raw.trust === true,
    required: false,
  };
}

/** `--output-schema FILE`: a JSON Schema object that passes the meta-schema. */
export function outputSchemaFromFile(file: string, cwd: string): Result<Record<string, unknown> | null> {
  const { value, problem, name } = readJson('--output-schema', file, cwd);
  if (problem) return { value: null, problems: [problem] };
  if (!isObject(value)) return { value: null, problems: [`--output-schema ${name}: a JSON Schema is an object, e.g. {"type": "object", "properties": {…}}`] };
  try {
    compileSchema(value, { check: true });
  } catch (error) {
    return { value: null, problems: [`--output-schema ${name}: ${(error as Error).message}`] };
  }
  return { value, problems: [] };
}

/** `--append-system-prompt TEXT`, or `@FILE` for the text of a file. */
export function appendedInstructions(value: string, cwd: string): Result<string | null> {
  if (!value.startsWith('@')) {
    return value.trim() === '' ? { value: null, problems: ['--append-system-prompt is empty'] } : { value, problems: [] };
  }
  // `@` alone named the current directory, and was refused as "--append-system-prompt : … a directory".
  if (value.slice(1).trim() === '') return { value: null, problems: ['--append-system-prompt @ names no file: write @FILE (e.g. @CONVENTIONS.md), or the text itself'] };
  const read = readText('--append-system-prompt', value.slice(1), cwd);
  if (read.text === null) return { value: null, problems: [`${read.problem} (a value starting with @ names a file)`] };
  return { value: read.text, problems: [] };
}

const EXPANDED_KEYS = new Set(['command', 'args', 'env', 'url', 'httpUrl', 'headers']);

/** The command, args and URL as the file writes them, when one of them holds a variable. */
function writtenForm(raw: Record<string, unknown>): Pick<McpServerConfig, 'written'> {
  const command = typeof raw.command === 'string' ? raw.command : null;
  const args = Array.isArray(raw.args) ? raw.args.filter((a): a is string => typeof a === 'string') : [];
  const rawUrl = raw.url ?? raw.httpUrl;
  const url = typeof rawUrl === 'string' ? rawUrl : null;
  return [command, url, ...args].some((text) => text?.includes('$')) ? { written: { command, args, url } } : {};
}

function expandVariables(raw: Record<string, unknown>, env: NodeJS.ProcessEnv, where: string, problems: string[]): Record<string, unknown> {
  const fill = (text: string): string =>
    text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced: string | undefined, fallback: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare!;
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      problems.push(`${where}: ${whole} is not set in the environment (export ${name}=…, or write \${${name}:-default})`);
      return '';
    });
  const walk = (value: unknown): unknown =>
    typeof value === 'string' ? fill(value) : Array.isArray(value) ? value.map(walk) : isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)])) : value;
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, EXPANDED_KEYS.has(key) ? walk(value) : value]));
}

function isHttpUrl(v: unknown): boolean {
  try {
    return typeof v === 'string' && ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}
