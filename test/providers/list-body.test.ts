import { describe, expect, it } from 'vitest';
import { ListBody } from '../../src/providers/list-body.js';

interface Entry {
  text: string;
}

/** The body as a plain join would build it. */
const joined = (lead: string, entries: Entry[]) => `${lead}${entries.map((e) => JSON.stringify(e)).join(',')}]}`;

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
    const handedOut: Array<{ bytes: Buffer; copy: Buffer }> = [];
    for (let turn = 0; turn < 600; turn++) {
      const roll = next();
      if (roll < 0.55 || history.length === 0) history.push({ text: words[Math.floor(next() * words.length)]!.repeat(1 + Math.floor(next() * 5)) });
      else if (roll < 0.8) history[history.length - 1 - Math.floor(next() * Math.min(3, history.length))] = { text: '[stale]' };
      else if (roll < 0.9) history.splice(Math.floor(next() * history.length), 1 + Math.floor(next() * 3));
      else if (roll < 0.95) lead = leads[Math.floor(next() * leads.length)]!;
      // 0.95+: the same request again (a retry).
      const bytes = body.next(lead, history);
      expect(bytes.toString('utf8')).toBe(joined(lead, history));
      handedOut.push({ bytes, copy: Buffer.from(bytes) });
    }
    // A body handed out is never written again, whatever came after it.
    for (const { bytes, copy } of handedOut) expect(bytes.equals(copy)).toBe(true);
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
    expect(new ListBody<Entry>(JSON.stringify).next('{"contents":[', []).toString()).toBe('{"contents":[]}');
  });
});
