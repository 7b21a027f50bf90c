import { afterAll, describe, expect, it } from 'vitest';
import { STALE_READ_NOTE, StaleReads } from '../../src/loop/stale-reads.js';
import type { Content } from '../../src/types/content.js';
import { removeHarnessDirs, responsesSent, runInProcess } from './harness.js';

afterAll(removeHarnessDirs);

const read = (file: string, text: string): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id: 'c', name: 'read_file', response: { output: text } } }],
});

function history(): Content[] {
  return [{ role: 'user', parts: [{ text: 'task' }] }, { role: 'model', parts: [] }, read('a.ts', 'CONTENT OF A')];
}

describe('stale reads', () => {
  it('keeps a read whose file never changed', () => {
    const contents = history();
    const stale = new StaleReads(2);
    stale.recordRead(2, 0, 'a.ts', 1);
    expect(stale.prune(contents, 10)).toBe(0);
    expect(JSON.stringify(contents)).toContain('CONTENT OF A');
  });

  it('keeps a superseded read while its file is worked on, then replaces it with a note', () => {
    const contents = history();
    const original = contents[2];
    const stale = new StaleReads(2);
    stale.recordRead(2, 0, 'a.ts', 1);
    stale.recordChange('a.ts', 2);
    expect(stale.prune(contents, 4)).toBe(0); // changed at turn 2, now turn 4: within 2 turns
    stale.recordChange('a.ts', 4); // a second edit: the model still works on a.ts
    expect(stale.prune(contents, 6)).toBe(0);
    expect(stale.stableUntil(contents.length)).toBe(2); // the note will replace entry 2
    expect(stale.prune(contents, 7)).toBe(1); // left alone for 3 turns
    expect(stale.stableUntil(contents.length)).toBe(2); // replaced just now: the prefix before it is what was sent
    expect(stale.prune(contents, 8)).toBe(0);
    expect(stale.stableUntil(contents.length)).toBe(contents.length);
    const response = contents[2]!.parts[0]!.functionResponse!;
    expect(response.response.output).toBe(STALE_READ_NOTE);
    expect(STALE_READ_NOTE).toMatch(/file changed/);
    expect(response.id).toBe('c');
    expect(response.name).toBe('read_file');
    // A new object: the old one (which a provider may have cached) is untouched.
    expect(contents[2]).not.toBe(original);
    expect(JSON.stringify(original)).toContain('CONTENT OF A');
  });

  it('does not count a change of another file, and prunes once', () => {
    const contents = history();
    const stale = new StaleReads(0);
    stale.recordRead(2, 0, 'a.ts', 1);
    stale.recordChange('b.ts', 2);
    expect(stale.prune(contents, 5)).toBe(0);
    stale.recordChange('a.ts', 3);
    expect(stale.prune(contents, 5)).toBe(1);
    expect(stale.prune(contents, 6)).toBe(0);
  });

  it('replaces a superseded read as soon as the model reads or changes another file', () => {
    for (const touchOther of ['read', 'change'] as const) {
      const contents = history();
      const stale = new StaleReads(2);
      stale.recordRead(2, 0, 'a.ts', 1);
      stale.recordChange('a.ts', 2);
      expect(stale.prune(contents, 3)).toBe(0); // turn 3 ran a command: still working on a.ts
      if (touchOther === 'read') stale.recordRead(3, 0, 'b.ts', 3);
      else stale.recordChange('b.ts', 3);
      expect(stale.prune(contents, 4), touchOther).toBe(1); // within the window, but moved on
      expect(contents[2]!.parts[0]!.functionResponse!.response.output).toBe(STALE_READ_NOTE);
    }
  });

  it('does not count another file touched in the same turn, or before the change, as moving on', () => {
    const contents = history();
    const stale = new StaleReads(2);
    stale.recordRead(2, 0, 'a.ts', 1);
    stale.recordRead(3, 0, 'b.ts', 1);
    // One turn edits both: in either order, neither has moved on from the other.
    stale.recordChange('b.ts', 2);
    stale.recordChange('a.ts', 2);
    expect(stale.prune(contents, 4)).toBe(0);
    // A later read of b.ts while a.ts is edited again in the same turn: a.ts is still worked on.
    stale.recordRead(4, 0, 'b.ts', 4);
    stale.recordChange('a.ts', 4);
    expect(stale.prune(contents, 5)).toBe(1); // b.ts's first read: b.ts changed at 2, and a.ts was changed since
    expect(stale.prune(contents, 7)).toBe(1); // a.ts's read: left alone for 3 turns
  });

  it('replaces the media parts of a superseded image read, keeping part positions', () => {
    const contents: Content[] = [
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'read_file', response: { output: 'image' } } },
          { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
          { functionResponse: { name: 'ls', response: { output: 'x' } } },
        ],
      },
    ];
    const stale = new StaleReads(0);
    stale.recordRead(0, 0, 'logo.png', 1);
    stale.recordChange('logo.png', 2);
    stale.prune(contents, 3);
    expect(contents[0]!.parts).toHaveLength(3);
    expect(contents[0]!.parts.some((p) => p.inlineData)).toBe(false);
    expect(contents[0]!.parts[1]!.text).toBe('[logo.png omitted]');
    expect(contents[0]!.parts[2]!.functionResponse!.name).toBe('ls');
  });
});

describe('what the model sees of a file it read and then edited (in process, real tools)', () => {
  const at = (file: string) => `{{workspace}}/${file}`;
  const readOf = (history: Content[]) => String(history[2]!.parts[0]!.functionResponse!.response.output);

  it('keeps the read while the model works on the file, then a note once it moves on to another file', async () => {
    const run = await runInProcess({
      recipe: 'tools: [read_file, edit, grep]\nconfirmation: {mode: auto-approve}',
      files: { 'a.ts': 'const a = 1;\nconst b = 2;\n', 'b.ts': 'const c = 3;\n' },
      turns: [
        { calls: [{ name: 'read_file', args: { absolute_path: at('a.ts') } }] },
        { calls: [{ name: 'edit', args: { file_path: at('a.ts'), old_string: 'b = 2', new_string: 'b = 20' } }] },
        { calls: [{ name: 'grep', args: { pattern: 'b = 20' } }] },
        { calls: [{ name: 'edit', args: { file_path: at('a.ts'), old_string: 'const a = 1;\n', new_string: '// a\nconst a = 1;\n' } }] },
        { calls: [{ name: 'read_file', args: { absolute_path: at('b.ts') } }] },
        { text: 'done' },
      ],
    });
    expect(run.result).toMatchObject({ status: 'success' });
    // After an edit: where the new text is, in lines of the edited file (the call names the file).
    expect(responsesSent(run, 2)).toEqual([{ name: 'edit', response: { output: 'Replaced at line 2.' } }]);
    expect(responsesSent(run, 4)).toEqual([{ name: 'edit', response: { output: 'Replaced at lines 1-2.' } }]);
    // Editing, searching, editing again: the read stays, as the model made it.
    for (const request of [2, 3, 4]) expect(readOf(run.requests[request]!), `request ${request}`).toBe('const a = 1;\nconst b = 2;');
    // Reading another file is moving on: the next request carries the note, and the model's own call
    // (which names the file) is untouched.
    const after = run.requests[5]!;
    expect(readOf(after)).toBe(STALE_READ_NOTE);
    expect(after[1]!.parts[0]!.functionCall).toMatchObject({ name: 'read_file', args: { absolute_path: `${run.root}/a.ts` } });
    expect(String(responsesSent(run, 5)[0]!.response.output)).toBe('const c = 3;');
  });

  it('a file a sub-agent changed is changed for the main loop too: its earlier read becomes the note once the model moves on', async () => {
    const run = await runInProcess({
      recipe: 'tools: [read_file, edit, task]\nconfirmation: {mode: auto-approve}',
      files: { 'a.ts': 'const a = 1;\n', 'b.ts': 'const b = 2;\n' },
      turns: [
        { calls: [{ name: 'read_file', args: { absolute_path: at('a.ts') } }] },
        { calls: [{ name: 'task', args: { description: 'edit a', prompt: 'Set a to 10.' } }] },
        // The sub-agent's turns: it edits a.ts and answers.
        { calls: [{ name: 'edit', args: { file_path: at('a.ts'), old_string: 'a = 1', new_string: 'a = 10' } }] },
        { text: 'a is 10 now' },
        { calls: [{ name: 'read_file', args: { absolute_path: at('b.ts') } }] },
        { text: 'done' },
      ],
    });
    expect(run.result).toMatchObject({ status: 'success' });
    expect(run.read('a.ts')).toBe('const a = 10;\n');
    const last = run.requests[run.requests.length - 1]!;
    expect(readOf(last)).toBe(STALE_READ_NOTE);
  });
});
