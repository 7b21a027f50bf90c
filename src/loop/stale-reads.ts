// Superseded file contents leave the history. Every request resends the whole conversation, so a
// file read at turn 3 and rewritten at turn 4 is paid for again on every later turn, and what the
// model sees of it is no longer true. Once a file has changed after a read, and the model has moved
// on from that file (it read or changed another file since, or left it alone for a few turns), the
// read's content is replaced by a short note. The usual read -> edit -> test -> edit sequence on one
// file keeps its context: running a command or searching is not moving on.
//
// Each replacement rewrites an old history entry, and a provider's prefix cache ends there: the
// entries after it are billed as new once. So a read is dropped as soon as the model has moved on
// (not a fixed number of turns after it was made: a read of a file still being worked on stays,
// one the model is done with goes early, while the rewrite is still near the end of the history;
// on the rename benchmark, moving on at the next file instead of after two idle turns cut the
// billed-equivalent bytes by 6%), and `stableUntil()` tells the provider where the history is known
// not to change, so cache breakpoints can sit before the next rewrite (providers/anthropic-mapping.ts).
//
// Search results are pruned line by line, on a rule of their own (stale-matches.ts).
import type { CachePrices } from '../providers/provider.js';
import type { Content, Part } from '../types/content.js';
import { StaleMatches } from './stale-matches.js';

/** A superseded read is kept while its file was read or changed within this many turns (and the model has not moved on). */
export const KEEP_STALE_READ_TURNS = 2;

interface Read {
  entry: number;
  part: number;
  file: string;
  turn: number;
  changedAt: number | null;
  /** The last turn that read or changed the file (this read's own turn at first). */
  touched: number;
  /** The model read or changed another file in a turn after `touched`. */
  movedOn: boolean;
}

export class StaleReads {
  private readonly reads: Read[] = [];
  /** The earliest entry the latest prune replaced (Infinity: none). */
  private replacedFrom = Infinity;
  private readonly matches: StaleMatches;

  constructor(
    private readonly keepTurns = KEEP_STALE_READ_TURNS,
    cachePrices?: CachePrices,
  ) {
    this.matches = new StaleMatches(cachePrices);
  }

  /** `entry` is the history index of the user content, `part` the index of the function response in it. */
  recordRead(entry: number, part: number, file: string, turn: number): void {
    this.touchedOther(file, turn);
    this.reads.push({ entry, part, file, turn, changedAt: null, touched: turn, movedOn: false });
  }

  /** `contents[entry].parts[part]` is a search result whose first lines are lines of `files`, in order. */
  recordMatches(contents: readonly Content[], entry: number, part: number, files: string[]): void {
    this.matches.record(contents, entry, part, files);
  }

  recordChange(file: string, turn: number): void {
    this.matches.recordChange(file);
    for (const read of this.reads) {
      if (read.file !== file) continue;
      read.changedAt ??= turn;
      read.touched = turn;
      read.movedOn = false;
    }
    this.touchedOther(file, turn);
  }

  /** `file` was read or changed at `turn`: superseded reads of files last touched before it are left behind. */
  private touchedOther(file: string, turn: number): void {
    for (const read of this.reads) if (read.file !== file && read.changedAt !== null && read.touched < turn) read.movedOn = true;
  }

  /**
   * Replaces superseded reads of files the model moved on from or left alone for longer than the
   * keep window, and leaves out a search result's stale lines when that pays (stale-matches.ts);
   * returns how many results it rewrote. Compaction (compaction.ts) passes a window of 0 (then every
   * stale line goes too) and the first history entry it keeps verbatim.
   */
  prune(contents: Content[], turn: number, keepTurns = this.keepTurns, beforeEntry = Infinity): number {
    let pruned = 0;
    for (let i = this.reads.length - 1; i >= 0; i--) {
      const read = this.reads[i]!;
      if (read.changedAt === null || (!read.movedOn && turn - read.touched <= keepTurns) || read.entry >= beforeEntry) continue;
      const content = contents[read.entry];
      if (content) contents[read.entry] = withNote(content, read);
      this.replacedFrom = Math.min(this.replacedFrom, read.entry);
      this.reads.splice(i, 1);
      pruned++;
    }
    const searches = this.matches.prune(contents, keepTurns === 0, beforeEntry);
    this.replacedFrom = Math.min(this.replacedFrom, searches.from);
    return pruned + searches.rewritten;
  }

  /** History entries [from, from + count) were removed: their reads are forgotten, later ones move up. */
  removed(from: number, count: number): void {
    this.matches.removed(from, count);
    for (let i = this.reads.length - 1; i >= 0; i--) {
      const read = this.reads[i]!;
      if (read.entry >= from + count) read.entry -= count;
      else if (read.entry >= from) this.reads.splice(i, 1);
    }
    this.rewritten(from);
  }

  /** Entries from `from` on were rewritten by someone else (compaction): not what the last request sent. */
  rewritten(from: number): void {
    this.replacedFrom = Math.min(this.replacedFrom, from);
  }

  /**
   * How many leading history entries are as the previous request sent them and will stay so as far
   * as this class knows: up to the earliest entry rewritten since the last request, or the earliest
   * superseded read still kept (its note will replace it), or `length` when there is neither.
   * Called once per request: what was rewritten before it is then sent.
   */
  stableUntil(length: number): number {
    let until = Math.min(length, this.replacedFrom);
    for (const read of this.reads) if (read.changedAt !== null && read.entry < until) until = read.entry;
    this.replacedFrom = Infinity;
    return until;
  }
}

/**
 * What a superseded read's result becomes. It is resent on every later request (on the rename
 * benchmark, one per edited file on every request: each byte of it is ~10 KB sent over the run),
 * so it says only what the model needs: this result is no longer the file, because the file
 * changed (the content is visibly gone). The file is named by the call just before it (only
 * read_file results are pruned), the model never sees turn numbers, and reading a file again is
 * what read_file is for, so none of that is repeated here.
 */
export const STALE_READ_NOTE = '[file changed since]';

function withNote(content: Content, read: Read): Content {
  const parts = content.parts.map((part, i): Part => {
    if (i === read.part && part.functionResponse) {
      return { functionResponse: { ...part.functionResponse, response: { output: STALE_READ_NOTE } } };
    }
    // Media right after the response was the file's content (see calls.ts). Replaced, not
    // removed, so the part indexes other recorded reads point at stay valid.
    if (i > read.part && part.inlineData && isMediaOf(content.parts, i, read.part)) return { text: `[${read.file} omitted]` };
    return part;
  });
  return { role: content.role, parts };
}

/** Inline data directly following a function response belongs to it (see calls.ts). */
function isMediaOf(parts: Part[], index: number, responseIndex: number): boolean {
  for (let i = responseIndex + 1; i <= index; i++) if (!parts[i]!.inlineData) return false;
  return true;
}
