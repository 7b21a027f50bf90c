// --mcp-config reads the mcpServers files users already have for Claude Code, Gemini CLI and Qwen Code.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendedInstructions, mcpServersFromFile, outputSchemaFromFile } from '../../src/recipe/flag-files.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(() => removeTempDirs());

function file(content: unknown): { dir: string; name: string } {
  const dir = tempDir('unattended-mcp-config-');
  fs.writeFileSync(path.join(dir, 'mcp.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return { dir, name: path.join(dir, 'mcp.json') };
}

describe('mcpServersFromFile', () => {
  it("a VS Code mcp.json (servers, not mcpServers) is told which key to rename", () => {
    // Before: only 'expected {"mcpServers": ...}', though the file plainly held servers.
    const vscode = file({ servers: { docs: { type: 'stdio', command: 'npx' } } });
    expect(mcpServersFromFile(vscode.name, '/').problems).toEqual([
      `--mcp-config ${vscode.name}: expected {"mcpServers": {"name": {"command": …} or {"url": …}}}; this file has "servers" (VS Code's mcp.json): rename that key to "mcpServers"`,
    ]);
  });

  it('maps the stdio and HTTP shapes of each peer', () => {
    const { dir, name } = file({
      mcpServers: {
        git: { type: 'stdio', command: 'uvx', args: ['mcp-server-git'], env: { A: '1' }, cwd: 'tools' }, // Claude Code
        docs: { httpUrl: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer x' }, timeout: 5000, trust: true, includeTools: ['search'] }, // Gemini CLI
        api: { type: 'http', url: 'https://api.example.com/mcp', excludeTools: ['delete'] }, // Claude Code
      },
    });
    const { value, problems } = mcpServersFromFile(name, '/');
    expect(problems).toEqual([]);
    expect(value).toEqual([
      { alias: 'git', command: 'uvx', args: ['mcp-server-git'], env: { A: '1' }, cwd: path.join(dir, 'tools'), url: null, headers: {}, timeoutMs: 60000, includeTools: null, excludeTools: [], trust: false, required: false, fromFile: `--mcp-config ${name}` },
      { alias: 'docs', command: null, args: [], env: {}, cwd: null, url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer x' }, timeoutMs: 5000, includeTools: ['search'], excludeTools: [], trust: true, required: false, fromFile: `--mcp-config ${name}` },
      { alias: 'api', command: null, args: [], env: {}, cwd: null, url: 'https://api.example.com/mcp', headers: {}, timeoutMs: 60000, includeTools: null, excludeTools: ['delete'], trust: false, required: false, fromFile: `--mcp-config ${name}` },
    ]);
  });

  it("takes Streamable HTTP as each peer names its type (Roo Code's streamable-http, Cline's streamableHttp); a type the keys contradict is said", () => {
    const { name } = file({ mcpServers: { roo: { type: 'streamable-http', url: 'https://a.example.com/mcp' }, cline: { type: 'streamableHttp', url: 'https://b.example.com/mcp' } } });
    const { value, problems } = mcpServersFromFile(name, '/');
    expect(problems).toEqual([]);
    expect(value.map((s) => [s.alias, s.url, s.command])).toEqual([
      ['roo', 'https://a.example.com/mcp', null],
      ['cline', 'https://b.example.com/mcp', null],
    ]);
    const wrong = file({ mcpServers: { s: { type: 'stdio', url: 'https://a.example.com/mcp' }, h: { type: 'http', command: 'npx' } } });
    expect(mcpServersFromFile(wrong.name, '/').problems).toEqual([
      `--mcp-config ${wrong.name}: server 's': "type": "stdio" needs "command"; for a server at a URL write "type": "http"`,
      `--mcp-config ${wrong.name}: server 'h': "type": "http" needs "url"; for a server started by a command write "type": "stdio"`,
    ]);
  });

  it("takes Windsurf's serverUrl for the server's Streamable HTTP URL, variables filled; one beside url is said", () => {
    const { name } = file({ mcpServers: { wind: { serverUrl: '${HOST}/mcp', headers: { Authorization: 'Bearer x' } } } });
    const { value, problems } = mcpServersFromFile(name, '/', { HOST: 'https://w.example.com' });
    expect(problems).toEqual([]);
    expect(value.map((s) => [s.alias, s.url, s.command, s.headers])).toEqual([['wind', 'https://w.example.com/mcp', null, { Authorization: 'Bearer x' }]]);
    const both = file({ mcpServers: { w: { serverUrl: 'https://a.example.com/mcp', url: 'https://b.example.com/mcp' } } });
    expect(mcpServersFromFile(both.name, '/').problems).toEqual([
      `--mcp-config ${both.name}: server 'w': "serverUrl" (Windsurf's spelling) and "url" both name the server's URL: keep one`,
    ]);
  });

  it('fills ${VAR}, ${VAR:-default} and $VAR from the environment, and names a variable that is not set', () => {
    const { name } = file({
      mcpServers: {
        gh: { command: 'npx', args: ['server', '--repo', '$REPO'], env: { GITHUB_TOKEN: '${GH_TOKEN}', LEVEL: '${LOG_LEVEL:-info}' } },
        api: { type: 'http', url: '${API_URL}/mcp', headers: { Authorization: 'Bearer ${API_KEY}' } },
      },
    });
    const env = { GH_TOKEN: 'ghp_x', REPO: 'o/r', API_URL: 'https://api.example.com' };
    const { value, problems } = mcpServersFromFile(name, '/', env);
    expect(value[0]).toMatchObject({ args: ['server', '--repo', 'o/r'], env: { GITHUB_TOKEN: 'ghp_x', LEVEL: 'info' } });
    expect(problems).toEqual([`--mcp-config ${name}: server 'api': \${API_KEY} is not set in the environment (export API_KEY=…, or write \${API_KEY:-default})`]);
  });

  it('names every problem with the file and the server', () => {
    const { name } = file({ mcpServers: { 'a__b': { command: 'x' }, sse: { type: 'sse', url: 'https://x/sse' }, bad: { command: 'x', args: 'y', colour: 1 } } });
    const { problems } = mcpServersFromFile(name, '/');
    expect(problems).toEqual([
      `--mcp-config ${name}: server 'a__b': a name is letters, digits, - and single _ (\`__\` separates server and tool)`,
      expect.stringContaining(`--mcp-config ${name}: server 'sse': SSE servers are not supported`),
      `--mcp-config ${name}: server 'bad': unknown key 'colour'`,
      `--mcp-config ${name}: server 'bad': "args" must be a list of strings`,
    ]);
    expect(mcpServersFromFile(file({ mcpServers: { slow: { command: 'x', timeout: 2 ** 31 } } }).name, '/').problems[0]).toMatch(/"timeout" is milliseconds, a number above 0 and at most 2147483647/);
    expect(mcpServersFromFile(file({ mcpServers: { slow: { command: 'x', timeout: 2 ** 31 - 1 } } }).name, '/').problems).toEqual([]);
    expect(mcpServersFromFile(file('{ not json').name, '/').problems[0]).toMatch(/not valid JSON/);
    // One line, though the parser's message quotes a text with line breaks.
    expect(mcpServersFromFile(file('not json {\n\n').name, '/').problems[0]).toMatch(/^--mcp-config .*: not valid JSON \([^\n]*\)$/);
    expect(mcpServersFromFile(file({ servers: {} }).name, '/').problems[0]).toMatch(/expected \{"mcpServers"/);
  });

  it('invalid JSON is placed at FILE:LINE:COL, as a recipe problem is, with what to fix', () => {
    // Before: "not valid JSON (Expected double-quoted property name in JSON at position 57)", no line.
    const object = file('{\n  "mcpServers": {\n    "git": {"command": "uvx"},\n  }\n}\n');
    expect(mcpServersFromFile(object.name, '/').problems).toEqual([
      `--mcp-config ${object.name}:4:3: not valid JSON (Expected double-quoted property name): remove the comma before it (JSON allows none after the last item)`,
    ]);
    // Node names no position for a list's trailing comma, nor for a file that ends too soon.
    const list = file('{"mcpServers": {"git": {"command": "uvx",\r\n  "args": ["a",\r\n  ]}}}');
    expect(mcpServersFromFile(list.name, '/').problems).toEqual([
      `--mcp-config ${list.name}:3:3: not valid JSON (Unexpected token ']'): remove the comma before it (JSON allows none after the last item)`,
    ]);
    const cut = file('{"mcpServers":\n');
    expect(mcpServersFromFile(cut.name, '/').problems[0]).toBe(
      `--mcp-config ${cut.name}:2:1: not valid JSON (Unexpected end of JSON input): fix the JSON there (names and strings in double quotes, no comments, no comma after the last item)`,
    );
    const schema = file("{'type': 'object'}");
    expect(outputSchemaFromFile(schema.name, '/').problems).toEqual([
      `--output-schema ${schema.name}:1:2: not valid JSON (Expected property name or '}'): fix the JSON there (names and strings in double quotes, no comments, no comma after the last item)`,
    ]);
    expect(outputSchemaFromFile('{"type": tru}', '/').problems).toEqual([
      `--output-schema (inline JSON):1:13: not valid JSON (Unexpected token '}'): fix the JSON there (names and strings in double quotes, no comments, no comma after the last item)`,
    ]);
  });
});

describe('files named by flags that are not UTF-8', () => {
  it('are refused, naming the byte and where it is, never read with U+FFFD in its place', () => {
    const dir = tempDir('unattended-flag-latin1-');
    const notes = path.join(dir, 'notes.md');
    fs.writeFileSync(notes, Buffer.from('Greet Ren\xe9.\n', 'latin1'));
    expect(appendedInstructions(`@${notes}`, '/')).toEqual({ value: null, problems: [`--append-system-prompt ${notes}: not UTF-8 text (byte 0xe9 at line 1, column 10): save it as UTF-8 (a value starting with @ names a file)`] });
    fs.writeFileSync(notes, 'Greet René.\n');
    expect(appendedInstructions(`@${notes}`, '/')).toEqual({ value: 'Greet René.\n', problems: [] });
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(config, Buffer.from('{"mcpServers": {"docs": {"command": "caf\xe9"}}}', 'latin1'));
    expect(mcpServersFromFile(config, '/').problems[0]).toContain('not UTF-8 text (byte 0xe9 at line 1, column 41)');
  });

  it('are refused when larger than a recipe may be', () => {
    const big = path.join(tempDir('unattended-flag-big-'), 'big.md');
    fs.writeFileSync(big, 'x'.repeat(16 * 1024 * 1024 + 1));
    expect(appendedInstructions(`@${big}`, '/').problems[0]).toContain(`--append-system-prompt ${big}: larger than 16 MB, far more than a model reads`);
  });
});

describe('--append-system-prompt @ with no file name', () => {
  // It read the current directory and said "--append-system-prompt : cannot read it (a directory…)".
  it('says @ names no file, and what to write', () => {
    for (const value of ['@', '@ '])
      expect(appendedInstructions(value, '/tmp')).toEqual({ value: null, problems: ['--append-system-prompt @ names no file: write @FILE (e.g. @CONVENTIONS.md), or the text itself'] });
  });
});

describe('--output-schema and --mcp-config given an empty value', () => {
  // `--output-schema "$SCHEMA"` with the variable unset read the current directory and said
  // "--output-schema : cannot read it (a directory, not a file; …)".
  it('say the value is empty, not that the current directory is no file', () => {
    expect(outputSchemaFromFile('', '/tmp').problems).toEqual(['--output-schema is empty: name a file']);
    expect(mcpServersFromFile(' ', '/tmp').problems).toEqual(['--mcp-config is empty: name a file']);
  });
});
