// Superseded lines leave search results too. A grep result holds lines of many files, and a run
// that greps and then changes those files resends lines that are no longer true on every later
// request (on the rename benchmark, a 6 KB result of 100 lines, 200 times over).
//
// A search usually sits early in the history, and rewriting an entry ends a provider's prefix
// cache there: everything after it is billed as new once. So a result is rewritten only when that
// has paid for itself: once the stale lines resent since they went stale, at the cached price,
// have cost what the rewrite costs (the bytes from the entry on, billed as new instead of cached,
// at the provider's prices: ModelProvider.cachePrices). This is the ski-rental rule: whatever the
// rest of the run holds, it never costs more than twice the better of rewriting at once and never
// rewriting. On the rename benchmark (Gemini's prices) it rewrites the result twice, after 39 and
// 93 files.
//
// Only the lines of files changed since are left out, and a note counts them; the other lines,
// and the tool's own notes (a cap reached), stay as they were.
import type { CachePrices } from '../providers/provider.js';
import type { Content, Part } from '../types/content.js';
import { plural } from '../util/plural.js';
import { EntrySizes } from './entry-bytes.js';

/** Gemini's implicit caching and OpenAI's cached input: a cached byte at a quarter of a new one. */
export const DEFAULT_CACHE_PRICES: CachePrices = { read: 0.25, write: 1 };

interface Search {
  entry: number;
  part: number;
  /** The result's text as the tool gave it, line by line. */
  lines: string[];
  /** The file of each of the first lines (the matches). */
  files: string[];
  /** The output the history holds now: a rewrite checks it is still there (compaction may have replaced it). */
  current: string;
  /** Lines whose file changed since, not yet left out, and their bytes. */
  pending: Set<number>;
  pendingBytes: number;
  left: Set<number>;
  /** Stale bytes resent since they went stale (or since the last rewrite), summed over requests. */
  wasted: number;
}

export class StaleMatches {
  private readonly searches: Search[] = [];
  private readonly sizes = new EntrySizes();

  constructor(private readonly prices: CachePrices = DEFAULT_CACHE_PRICES) {}

  /** `contents[entry].parts[part]` is a function response whose first lines are lines of `files`, in order. */
  record(contents: readonly Content[], entry: number, part: number, files: string[]): void {
    const current = outputOf(contents[entry]?.parts[part]);
    if (current === null) return;
    const lines = current.split('\n');
    // Only a result whose lines are still the matches (not cut to fit, say) is tracked.
    if (lines.length < files.length || files.some((file, i) => !lines[i]!.startsWith(`${file}:`))) return;
    this.searches.push({ entry, part, lines, files, current, pending: new Set(), pendingBytes: 0, left: new Set(), wasted: 0 });
  }

  /** `file` changed: its lines in every earlier result are stale. */
  recordChange(file: string): void {
    for (const search of this.searches) {
      for (let i = 0; i < search.files.length; i++) {
        if (search.files[i] !== file || search.left.has(i) || search.pending.has(i)) continue;
        search.pending.add(i);
        search.pendingBytes += Buffer.byteLength(search.lines[i]!) + 1;
      }
    }
  }

  /**
   * Before a request: counts what stale lines cost this request, and rewrites each result whose
   * stale lines have paid for the rewrite (every one with stale lines when `now`, as compaction
   * asks, before `beforeEntry`). Returns how many it rewrote and the earliest entry rewritten.
   */
  prune(contents: Content[], now: boolean, beforeEntry = Infinity): { rewritten: number; from: number } {
    let rewritten = 0;
    let from = Infinity;
    for (let s = this.searches.length - 1; s >= 0; s--) {
      const search = this.searches[s]!;
      if (search.pendingBytes === 0 || search.entry >= beforeEntry) continue;
      search.wasted += search.pendingBytes;
      const { read, write } = this.prices;
      const pays = search.wasted * read >= (write - read) * this.sizes.sum(contents, search.entry);
      if (!now && !pays) continue;
      if (!this.rewrite(contents, search)) {
        this.searches.splice(s, 1);
        continue;
      }
      rewritten++;
      from = Math.min(from, search.entry);
    }
    return { rewritten, from };
  }

  /** History entries [from, from + count) were removed: their results are forgotten, later ones move up. */
  removed(from: number, count: number): void {

    for (let i = this.searches.length - 1; i >= 0; i--) {
      const search = this.searches[i]!;
      if (search.entry >= from + count) search.entry -= count;
      else if (search.entry >= from) this.searches.splice(i, 1);
    }
  }

  private rewrite(contents: Content[], search: Search): boolean {
    const content = contents[search.entry];
    const part = content?.parts[search.part];
    if (!content || outputOf(part) !== search.current) return false;
    for (const i of search.pending) search.left.add(i);
    search.pending.clear();
    search.pendingBytes = 0;
    search.wasted = 0;
    const matches = search.files.length;
    const kept = search.lines.slice(0, matches).filter((_, i) => !search.left.has(i));
    const note = `[${plural(search.left.size, 'match', 'matches')} left out: their files changed since]`;
    search.current = [...kept, note, ...search.lines.slice(matches)].join('\n');
    const response = part!.functionResponse!;
    const parts = content.parts.map((p, i): Part => (i === search.part ? { functionResponse: { ...response, response: { output: search.current } } } : p));
    contents[search.entry] = { role: content.role, parts };
    return true;
  }

}

function outputOf(part: Part | undefined): string | null {
  const output = part?.functionResponse?.response.output;
  return typeof output === 'string' ? output : null;
}
