// read_file's note under a line cut at 2,000 characters points at the shell only when the agent
// that called it has one: a sub-agent given read_file alone, and a run in plan mode before its plan,
// are told no tool they have shows the rest, never to run sed in a shell they cannot call. grep's
// note on files over 1 MB likewise.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { readRun } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir, writeRecipe } from './temp-recipe.js';

afterAll(cleanupTempDirs);

function workspaceWithLongLine(): string {
  const ws = tempDir();
  fs.writeFileSync(path.join(ws, 'wide.txt'), `short\n${'x'.repeat(2500)}\n`);
  return ws;
}

const read = (ws: string) => ({ name: 'read_file', args: { absolute_path: path.join(ws, 'wide.txt') } });

function readNotes(out: string): Array<{ sub: boolean; note: string }> {
  return readRun(out)
    .events.filter((e) => e.type === 'tool_result' && e.name === 'read_file')
    .map((e) => ({ sub: e.parent_call_id !== undefined, note: String(e.llm_content).split('\n').pop()! }));
}

describe('the long-line note names only tools the calling agent has', () => {
  it('a sub-agent given read_file alone is not sent to the shell; the main agent, which has it, is', async () => {
    const ws = workspaceWithLongLine();
    const { file, out } = writeRecipe({ prompt: 'x', tools: ['read_file', 'shell', 'task'], confirmation: { mode: 'auto-approve' } }, [
      { calls: [{ name: 'task', args: { description: 'read it', prompt: 'Read wide.txt.', tools: ['read_file'] } }] },
      { calls: [read(ws)] },
      { text: 'Read.' },
      { calls: [read(ws)] },
      { text: 'Done.' },
    ]);
    const r = await cliInProcess(['run', file, '--workspace', ws, '--out', out], { cwd: ws, env: {}, stdin: null });
    expect(r.code, r.stderr).toBe(0);
    expect(readNotes(out)).toEqual([
      { sub: true, note: '[line 2 cut at 2,000 characters; no tool you have shows the rest]' },
      { sub: false, note: '[line 2 cut at 2,000 characters; see the rest with the shell: sed -n 2p wide.txt | cut -c 2001-]' },
    ]);
  });

  it('in plan mode the shell is offered only after the plan', async () => {
    const ws = workspaceWithLongLine();
    const { file, out } = writeRecipe({ prompt: 'x', mode: 'plan', tools: ['read_file', 'shell'], confirmation: { mode: 'auto-approve' } }, [
      { calls: [read(ws)] },
      { calls: [{ name: 'exit_plan_mode', args: { plan: '1. Read it.' } }] },
      { calls: [read(ws)] },
      { text: 'Done.' },
    ]);
    const r = await cliInProcess(['run', file, '--workspace', ws, '--out', out], { cwd: ws, env: {}, stdin: null });
    expect(r.code, r.stderr).toBe(0);
    expect(readNotes(out).map((n) => n.note)).toEqual([
      '[line 2 cut at 2,000 characters; no tool you have shows the rest]',
      '[line 2 cut at 2,000 characters; see the rest with the shell: sed -n 2p wide.txt | cut -c 2001-]',
    ]);
  });
  it("grep's note on a file over 1 MB: the shell for the main agent, read_file for a sub-agent without one", async () => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'big.txt'), `needle\n${'x'.repeat(1024 * 1024)}\n`);
    const grep = { name: 'grep', args: { pattern: 'needle' } };
    const { file, out } = writeRecipe({ prompt: 'x', tools: ['grep', 'read_file', 'shell', 'task'], confirmation: { mode: 'auto-approve' } }, [
      { calls: [{ name: 'task', args: { description: 'search', prompt: 'Find it.', tools: ['grep', 'read_file'] } }] },
      { calls: [grep] },
      { text: 'Searched.' },
      { calls: [grep] },
      { text: 'Done.' },
    ]);
    const r = await cliInProcess(['run', file, '--workspace', ws, '--out', out], { cwd: ws, env: {}, stdin: null });
    expect(r.code, r.stderr).toBe(0);
    const notes = readRun(out)
      .events.filter((e) => e.type === 'tool_result' && e.name === 'grep')
      .map((e) => String(e.llm_content).split('\n').pop());
    expect(notes).toEqual([
      '[1 file over 1 MB not searched: big.txt; read it with read_file, a page at a time]',
      '[1 file over 1 MB not searched: big.txt; search it with the shell (grep -n PATTERN FILE)]',
    ]);
  });
  it('the notes on a Latin-1 file name the shell and write_file only to an agent that has them', async () => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'lat.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    const readIt = { name: 'read_file', args: { absolute_path: path.join(ws, 'lat.txt') } };
    const editIt = { name: 'edit', args: { file_path: 'lat.txt', old_string: 'caf', new_string: 'CAF' } };
    const { file, out } = writeRecipe({ prompt: 'x', tools: ['read_file', 'edit', 'write_file', 'shell', 'task'], confirmation: { mode: 'auto-approve' } }, [
      { calls: [{ name: 'task', args: { description: 'fix', prompt: 'Fix it.', tools: ['read_file', 'edit'] } }] },
      { calls: [readIt, editIt] },
      { text: 'Cannot.' },
      { calls: [readIt, editIt] },
      { text: 'Done.' },
    ]);
    const r = await cliInProcess(['run', file, '--workspace', ws, '--out', out], { cwd: ws, env: {}, stdin: null });
    // Every edit was refused and no file changed: the run failed, whatever its answer says.
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('every edit the model tried failed');
    const results = readRun(out).events.filter((e) => e.type === 'tool_result' && (e.name === 'read_file' || e.name === 'edit'));
    const ends = results.map((e) => ({ sub: e.parent_call_id !== undefined, end: /(?:shown as \ufffd|left as it is)(.*)$/s.exec(String(e.llm_content))?.[1] }));
    expect(ends).toEqual([
      { sub: true, end: '; edit writes only UTF-8 and refuses it]' },
      { sub: true, end: '; no tool you have can change it' },
      { sub: false, end: '; edit and write_file write only UTF-8 and refuse it; change it with the shell (sed works on its bytes, iconv converts it)]' },
      { sub: false, end: '. Change it with the shell (sed works on its bytes, iconv converts it), or remove it first to replace it' },
    ]);
    expect(fs.readFileSync(path.join(ws, 'lat.txt'))).toEqual(Buffer.from('caf\xe9\n', 'latin1'));
  });
  it('read_many_files names read_file as the way on only to an agent that has it', async () => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'big.txt'), 'line\n'.repeat(30_000));
    const many = { name: 'read_many_files', args: { paths: ['big.txt'] } };
    const { file, out } = writeRecipe({ prompt: 'x', tools: ['read_many_files', 'read_file', 'task'], confirmation: { mode: 'auto-approve' } }, [
      { calls: [{ name: 'task', args: { description: 'read', prompt: 'Read it.', tools: ['read_many_files'] } }] },
      { calls: [many] },
      { text: 'Read.' },
      { calls: [many] },
      { text: 'Done.' },
    ]);
    const r = await cliInProcess(['run', file, '--workspace', ws, '--out', out], { cwd: ws, env: {}, stdin: null });
    expect(r.code, r.stderr).toBe(0);
    const notes = readRun(out)
      .events.filter((e) => e.type === 'tool_result' && e.name === 'read_many_files')
      .map((e) => /\[big\.txt cut after line \d+: [^\]]*\]/.exec(String(e.llm_content))?.[0]);
    expect(notes[0]).toMatch(/^\[big\.txt cut after line \d+: the [\d,]+-character limit of one call\]$/);
    expect(notes[1]).toMatch(/; read_file with offset=\d+ reads on\]$/);
  });
});
