import { describe, expect, it } from 'vitest';
import { STALE_READ_NOTE, StaleReads } from '../../src/loop/stale-reads.js';
import type { Content } from '../../src/types/content.js';

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
    expect(STALE_READ_NOTE).toMatch(/changed.*read it again/);
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
