// Every command the documentation shows a newcomer runs as written: the examples of
// `unattended --help` and the right-hand column of the README's "Coming from another tool" table.
// In process (runCli), against fake Gemini and OpenAI-compatible endpoints on 127.0.0.1, in a
// directory holding the files the commands name. The one substitution is the one a reader's
// machine makes: the DashScope URL becomes the fake OpenAI-compatible endpoint.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP_EXAMPLES } from '../../src/cli/examples.js';
import { removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { runInProcess, shellWords } from './in-process.js';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The unattended column of the table after `<!-- peer-commands -->`. */
function peerRows(): Array<{ tool: string; theirs: string; ours: string }> {
  const table = readme.slice(readme.indexOf('<!-- peer-commands -->')).split('\n').slice(1);
  const rows: Array<{ tool: string; theirs: string; ours: string }> = [];
  for (const line of table.slice(2)) {
    if (!line.startsWith('|')) break;
    const [tool, theirs, ours] = line.split(/ \| /).map((c) => c.replace(/^\|? ?`?|`? ?\|?$/g, ''));
    rows.push({ tool: tool!, theirs: theirs!, ours: ours! });
  }
  return rows;
}

let cwd: string;
beforeAll(() => {
  cwd = tempDir('unattended-documented-');
  fs.symlinkSync(path.join(ROOT, 'recipes'), path.join(cwd, 'recipes'));
  fs.writeFileSync(path.join(cwd, 'README.md'), '# app\n\nTeh app.\n');
  fs.writeFileSync(path.join(cwd, 'CONVENTIONS.md'), 'Tabs, not spaces.\n');
  const schema = JSON.stringify({ type: 'object', required: ['typos'], properties: { typos: { type: 'integer' } } });
  fs.writeFileSync(path.join(cwd, 'schema.json'), schema);
  fs.writeFileSync(path.join(cwd, 'todos.schema.json'), schema);
  const server = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
  fs.writeFileSync(path.join(cwd, 'mcp.json'), JSON.stringify({ mcpServers: { docs: { command: 'node', args: [server, '.'] } } }));
});
afterAll(() => removeTempDirs());

/** Runs one documented command; the model answers JSON when the command asks for a schema. */
async function runDocumented(command: string): Promise<{ code: number; stderr: string; prompt: string | undefined; requests: number }> {
  const reply = command.includes('--output-schema') ? '{"typos": 1}' : 'Done.';
  const openai = await startFakeOpenAI([{ text: reply }]);
  try {
    const line = command.replace('https://dashscope-intl.aliyuncs.com/compatible-mode/v1', openai.url);
    const r = await runInProcess(line, { cwd, replies: [{ text: reply }], env: { OPENAI_API_KEY: 'test-key' } });
    const body = r.requests[0]?.body ?? openai.requests[0]?.body;
    const prompt = body?.contents ? body.contents.at(-1).parts.at(-1).text : body?.messages?.at(-1)?.content;
    return { code: r.code, stderr: r.stderr, prompt, requests: r.requests.length + openai.requests.length };
  } finally {
    await openai.close();
  }
}

/** The prompt a command gives: -p/--prompt, or the words after the command that are not flags. */
function promptOf(command: string): string | null {
  const words = shellWords(command);
  const flag = words.findIndex((w) => w === '-p' || w === '--prompt' || w === '--continue');
  if (flag >= 0 && words[flag + 1] && !words[flag + 1]!.startsWith('-')) return words[flag + 1]!;
  const positional = words[1] === 'run' ? words[2] : words[1];
  return positional && !positional.startsWith('-') && !positional.endsWith('.yaml') ? positional : null;
}

describe('the README: coming from another tool', () => {
  const rows = peerRows();
  it('has a row for each peer', () => {
    expect(new Set(rows.map((r) => r.tool))).toEqual(new Set(['Claude Code', 'Gemini CLI', 'Codex', 'Qwen Code', 'goose']));
  });
  it.each(rows.map((r) => [r.tool, r.ours] as const))('%s: %s', async (_tool, ours) => {
    const r = await runDocumented(ours);
    expect({ command: ours, code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ command: ours, code: 0, stderr: '' });
    expect(r.requests).toBeGreaterThan(0);
    const expected = promptOf(ours);
    if (expected) expect(r.prompt).toBe(expected);
  });
});

describe('unattended --help', () => {
  it('shows every example', async () => {
    const help = await runInProcess('unattended --help', { cwd });
    // Two wrapped columns: each example's words appear in order, interleaved with its description's.
    const words = help.stdout.slice(help.stdout.indexOf('Examples:')).split(/\s+/);
    let at = 0;
    for (const [command, description] of HELP_EXAMPLES) {
      for (const word of command.split(' ')) {
        const found = words.indexOf(word, at);
        expect({ command, word, found: found >= 0 }).toEqual({ command, word, found: true });
        at = found + 1;
      }
      for (const word of description.split(' ')) expect(words).toContain(word);
    }
  });
  it.each(HELP_EXAMPLES.map(([command]) => [command]))('%s', async (command) => {
    const r = await runDocumented(command);
    expect({ command, code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ command, code: 0, stderr: '' });
    const expected = promptOf(command);
    if (expected) expect(r.prompt).toBe(expected);
  });
});
