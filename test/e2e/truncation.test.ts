// Output caps through the built CLI: a tool that stopped at a cap says so to the model, the report
// counts the calls cut so, and a call cut that way can always be followed by one that reads on.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

interface Call {
  name: string;
  args: Record<string, unknown>;
}

/** Runs the scripted turns (each a list of calls, then `done`) in `ws`; the tool results in order. */
async function run(ws: string, turns: Call[][], flags: string[] = []) {
  const out = path.join(tempDir('unattended-trunc-out-'), 'run');
  const script = path.join(tempDir('unattended-trunc-script-'), 'turns.json');
  fs.writeFileSync(script, JSON.stringify({ turns: [...turns.map((calls) => ({ calls })), { text: 'done' }] }));
  const r = await cli(['run', '--provider', 'scripted', '--script', script, '--prompt', 'go', '--approval', 'auto-approve', '--sandbox', 'off', '--workspace', ws, '--out', out, ...flags]);
  const files = readRun(out);
  return { ...r, ...files, results: files.events.filter((e) => e.type === 'tool_result') };
}

describe('results cut at a cap', () => {
  it('are marked in the transcript, counted by tool in report.json and report.md, and said on stderr', async () => {
    const ws = tempDir('unattended-trunc-ws-');
    fs.mkdirSync(path.join(ws, 'd'));
    for (let i = 0; i < 600; i++) fs.writeFileSync(path.join(ws, 'd', `f${i}.txt`), `match ${i}\n`);
    fs.writeFileSync(path.join(ws, 'long.txt'), Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n'));
    const r = await run(ws, [
      [{ name: 'shell', args: { command: 'seq 1 100000', description: 'count' } }], // the loop's 40,000-character cap
      [{ name: 'shell', args: { command: 'echo small', description: 'small' } }],
      [{ name: 'grep', args: { pattern: 'match' } }], // 200 matches
      [{ name: 'grep', args: { pattern: 'match 599$' } }],
      [{ name: 'ls', args: { path: `${ws}/d` } }], // 500 entries
      [{ name: 'glob', args: { pattern: 'd/*.txt' } }], // 500 paths
      [{ name: 'read_file', args: { absolute_path: `${ws}/long.txt` } }], // a 2,000-line page of 5,000
      [{ name: 'read_file', args: { absolute_path: `${ws}/long.txt`, offset: 10, limit: 20 } }], // the page asked for: no cut
      [{ name: 'read_many_files', args: { paths: ['d/*.txt'] } }], // 100 files
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e) => [e.name, e.truncated])).toEqual([
      ['shell', true],
      ['shell', false],
      ['grep', true],
      ['grep', false],
      ['ls', true],
      ['glob', true],
      ['read_file', true],
      ['read_file', false],
      ['read_many_files', true],
    ]);
    // Each cut result tells the model so.
    for (const e of r.results.filter((e) => e.truncated)) expect(String(e.llm_content)).toMatch(/\[(truncated|lines 1-2000 of 5000|\.\.\. \d+ characters cut)/);
    expect(r.report.tool_calls.truncated).toBe(6);
    expect(r.report.tool_calls.by_tool.shell).toMatchObject({ success: 2, truncated: 1 });
    expect(r.report.tool_calls.by_tool.read_file).toMatchObject({ success: 2, truncated: 1 });
    expect(r.reportMd).toContain('| tool | ok | error | denied | errors by type | truncated |');
    expect(r.reportMd).toContain('| `grep` | 2 | 0 | 0 |  | 1 |');
    expect(r.stderr).toMatch(/✓ grep: grep \/match\/ in \. \(truncated\)\n/);
    expect(r.stderr).toMatch(/✓ grep: grep \/match 599\$\/ in \.\n/);
  });
});

describe('grep and files over its 1 MB limit', () => {
  it('never answers a plain "No matches" when a file was not searched for its size: it names the file and counts the call as truncated', async () => {
    const ws = tempDir('unattended-trunc-ws-');
    // A 2 MB log with the needle at its end, and a small file without it.
    fs.writeFileSync(path.join(ws, 'server.log'), `${'ordinary line\n'.repeat(150_000)}NEEDLE at the end\n`);
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'nothing here\n');
    fs.writeFileSync(path.join(ws, 'blob.bin'), Buffer.from([0x4e, 0x45, 0, 1]));
    const r = await run(ws, [[{ name: 'grep', args: { pattern: 'NEEDLE' } }], [{ name: 'grep', args: { pattern: 'NEEDLE', path: 'server.log' } }]]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e) => e.llm_content)).toEqual([
      'No matches for /NEEDLE/ in the 1 file searched under .; 1 file over 1 MB was not searched (see below), so there may be matches.\n[1 file over 1 MB not searched: server.log; search it with the shell (grep -n PATTERN FILE)]\n[1 binary file skipped]',
      'No matches for /NEEDLE/ in the 0 files searched under server.log; 1 file over 1 MB was not searched (see below), so there may be matches.\n[1 file over 1 MB not searched: server.log; search it with the shell (grep -n PATTERN FILE)]',
    ]);
    expect(r.results.map((e) => e.truncated)).toEqual([true, true]);
    expect(r.report.tool_calls.by_tool.grep).toMatchObject({ success: 2, truncated: 2 });
  });
});

describe('read_many_files and a line longer than one call', () => {
  it('shows a first file whose first line is past the limit cut, as read_file does, and reads the files after it', async () => {
    const ws = tempDir('unattended-trunc-ws-');
    // Minified code: one line of 50,000 characters, then a short one.
    fs.writeFileSync(path.join(ws, 'bundle.min.js'), `${'x'.repeat(50_000)}\nlast\n`);
    fs.writeFileSync(path.join(ws, 'small.txt'), 'small\n');
    const r = await run(ws, [[{ name: 'read_many_files', args: { paths: ['bundle.min.js', 'small.txt'] } }], [{ name: 'read_many_files', args: { paths: ['bundle.min.js'] } }]]);
    expect(r.code, r.stderr).toBe(0);
    for (const result of r.results) {
      const text = String(result.llm_content);
      // Not "No files read" with advice to call again, which would answer the same forever.
      expect(text).not.toContain('No files read');
      expect(text).toMatch(/^--- bundle\.min\.js ---\nx{2000} … \[line cut: over \d+ chars\]\n\[bundle\.min\.js: line 1 is longer than the 32000-character limit of one call, cut at 2000 characters as read_file cuts it; read_file with offset=1 reads on from line 2\]/);
    }
    expect(String(r.results[0]!.llm_content)).toContain('--- small.txt ---\nsmall\n');
  });

  it('still names a file not read when earlier files took the room: another call, with it first, reads it', async () => {
    const ws = tempDir('unattended-trunc-ws-');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(ws, 'long.json'), `${'y'.repeat(40_000)}\n`);
    const r = await run(ws, [[{ name: 'read_many_files', args: { paths: ['a.txt', 'long.json'] } }]]);
    expect(String(r.results[0]!.llm_content)).toBe('--- a.txt ---\na\n\n[not read, past the 32000-character limit of one call: long.json; read them with another call, or with read_file]');
  });
});
