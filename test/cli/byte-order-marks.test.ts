// Files and input saved by an editor that writes a UTF-8 byte-order mark (Notepad, Visual Studio,
// VS Code's "UTF-8 with BOM"): read as the text they hold, never with an invisible first character
// (a --mcp-config or --output-schema refused as "not valid JSON", a script's first turn refused, a
// prompt or AGENTS.md reaching the model with U+FEFF, a first target that names no directory).
// UTF-16 input (Windows' "Unicode") is refused saying what it is. Through the built CLI.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const withBom = (text: string) => Buffer.concat([BOM, Buffer.from(text)]);

function setUp() {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(dir, 'turns.jsonl'), withBom('{"text":"{\\"ok\\": true}"}\n'));
  return { dir, ws, run: ['run', '--provider', 'scripted', '--script', path.join(dir, 'turns.jsonl')] };
}

describe('a byte-order mark before UTF-8 text', () => {
  it('is not part of a piped prompt, an AGENTS.md, or a recorded script', async () => {
    const { dir, ws, run } = setUp();
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), withBom('Answer in JSON.\n'));
    const out = path.join(dir, 'out');
    const r = await cli([...run, '--out', out], { cwd: ws, input: withBom('Check the build') });
    expect(r.code, r.stderr).toBe(0);
    const start = readRun(out).events.find((e) => e.type === 'run_start')!;
    expect(start.prompt).toBe('Check the build');
    expect(JSON.stringify(readRun(out).events)).not.toContain('\ufeff');
  });

  it('does not make --mcp-config or --output-schema JSON invalid', async () => {
    const { dir, ws, run } = setUp();
    fs.writeFileSync(path.join(dir, 'mcp.json'), withBom('{"mcpServers": {}}'));
    fs.writeFileSync(path.join(dir, 'schema.json'), withBom('{"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}'));
    const out = path.join(dir, 'out');
    const r = await cli([...run, '-p', 'Check', '--mcp-config', path.join(dir, 'mcp.json'), '--output-schema', path.join(dir, 'schema.json'), '--out', out], { cwd: ws });
    expect(r.code, r.stderr).toBe(0);
    expect(readRun(out).report.structured_output).toEqual({ ok: true });
  });

  it("is not the first character of a batch's first target", async () => {
    const { dir } = setUp();
    for (const name of ['alpha', 'beta']) fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, 'targets.txt'), withBom('alpha\nbeta\n'));
    fs.writeFileSync(path.join(dir, 'recipe.yaml'), 'version: 1\nname: b\nprompt: hi\nprovider: scripted\nscript: turns.jsonl\nconfirmation: { mode: deny }\n');
    const r = await cli(['batch', path.join(dir, 'recipe.yaml'), '--targets', path.join(dir, 'targets.txt'), '--dry-run', '--out', path.join(dir, 'batch')], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ +1\. alpha +\(in place/m);
    expect(r.stdout).not.toContain('\ufeff');
  });
});

describe('UTF-16 text on standard input', () => {
  it.each([
    ['UTF-16LE', Buffer.from([0xff, 0xfe, 0x46, 0x00, 0x69, 0x00, 0x78, 0x00])],
    ['UTF-16BE', Buffer.from([0xfe, 0xff, 0x00, 0x46, 0x00, 0x69, 0x00, 0x78])],
  ])('%s is refused for what it is, with the conversion (exit 42)', async (encoding, bytes) => {
    const { dir, ws, run } = setUp();
    const r = await cli([...run, '--out', path.join(dir, 'out')], { cwd: ws, input: bytes });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(`standard input is ${encoding} text (it starts with that byte-order mark), not UTF-8`);
    expect(r.stderr).toContain('iconv -f utf-16 -t utf-8');
  });
});
