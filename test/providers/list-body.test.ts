import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, ListBody, type ChunkedBody } from '../../src/providers/list-body.js';

interface Entry {
  text: string;
}

/** The body as a plain join would build it. */
const joined = (lead: string, entries: Entry[]) => `${lead}${entries.map((e) => JSON.stringify(e)).join(',')}]}`;

/** The body's bytes, its chunks joined (as the socket sends them). */
const bytesOf = (body: ChunkedBody) => {
  const all = Buffer.concat(body.chunks);
  expect(all.length).toBe(body.length);
  return all;
};

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
}

describe('ListBody', () => {
  it('builds the same bytes as a join, over a history that grows, is rewritten near its end, compacted and re-led', () => {
    const next = random(7);
    const words = ['read', 'edit ✓', 'héllo', '日本語', 'a"quote', 'tab\there', '🙂 emoji', ''];
    const body = new ListBody<Entry>((e) => JSON.stringify(e));
    const leads = ['{"contents":[', '{"systemInstruction":{"parts":[{"text":"ü"}]},"contents":['];
    let lead = leads[0]!;
    const history: Entry[] = [];
    const handedOut: Array<{ body: ChunkedBody; copy: Buffer }> = [];
    for (let turn = 0; turn < 600; turn++) {
      const roll = next();
      // Some entries are large, so the body passes many chunks and rewrites land inside full ones.
      const size = next() < 0.1 ? 2000 : 1 + Math.floor(next() * 5);
      if (roll < 0.55 || history.length === 0) history.push({ text: words[Math.floor(next() * words.length)]!.repeat(size) });
      else if (roll < 0.8) history[history.length - 1 - Math.floor(next() * Math.min(3, history.length))] = { text: '[stale]' };
      else if (roll < 0.9) history.splice(Math.floor(next() * history.length), 1 + Math.floor(next() * 3));
      else if (roll < 0.95) lead = leads[Math.floor(next() * leads.length)]!;
      // 0.95+: the same request again (a retry).
      const built = body.next(lead, history);
      expect(bytesOf(built).toString('utf8')).toBe(joined(lead, history));
      handedOut.push({ body: built, copy: bytesOf(built) });
    }
    expect(Math.max(...handedOut.map(({ body }) => body.chunks.length))).toBeGreaterThan(3);
    // A body handed out is never written again, whatever came after it.
    for (const { body, copy } of handedOut) expect(bytesOf(body).equals(copy)).toBe(true);
  });

  it('encodes only the entries after the last one the previous request shared', () => {
    const encoded: string[] = [];
    const body = new ListBody<Entry>((e) => (encoded.push(e.text), JSON.stringify(e)));
    const history: Entry[] = [{ text: 'prompt' }, { text: 'call 1' }, { text: 'result 1' }];
    body.next('{"contents":[', history);
    history.push({ text: 'call 2' }, { text: 'result 2' });
    body.next('{"contents":[', history);
    expect(encoded).toEqual(['prompt', 'call 1', 'result 1', 'call 2', 'result 2']);
    // A pruned entry is a new object: it and what follows are encoded again, nothing before it.
    history[2] = { text: '[stale]' };
    body.next('{"contents":[', history);
    expect(encoded.slice(5)).toEqual(['[stale]', 'call 2', 'result 2']);
    // A new lead (the tools changed) starts over.
    body.next('{"tools":[],"contents":[', history);
    expect(encoded.slice(8)).toEqual(['prompt', 'call 1', '[stale]', 'call 2', 'result 2']);
  });

  it('writes an empty history as an empty list', () => {
    expect(bytesOf(new ListBody<Entry>(JSON.stringify).next('{"contents":[', [])).toString()).toBe('{"contents":[]}');
  });

  it('copies a bounded tail each turn, not the whole history: earlier chunks are handed out again as they are', () => {
    const body = new ListBody<Entry>((e) => JSON.stringify(e));
    const history: Entry[] = [];
    let last: ChunkedBody | null = null;
    for (let turn = 0; turn < 400; turn++) {
      history.push({ text: 'x'.repeat(1500) });
      if (turn % 2 === 1) history[history.length - 2] = { text: '[file changed since]' }; // a read pruned near the end
      const built = body.next('{"contents":[', history);
      const tail = built.chunks[built.chunks.length - 1]!;
      expect(tail.length).toBeLessThanOrEqual(CHUNK_BYTES + 2 * 1600);
      // Every chunk but the tail is the very buffer an earlier body handed out.
      if (last) for (const chunk of built.chunks.slice(0, -1)) expect(last.chunks.includes(chunk) || chunk.buffer === last.chunks[last.chunks.length - 1]!.buffer).toBe(true);
      last = built;
    }
    expect(last!.chunks.length).toBeGreaterThan(5);
  });
});
