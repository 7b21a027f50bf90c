// Superseded file contents leave the history. Every request resends the whole conversation, so a
// file read at turn 3 and rewritten at turn 4 is paid for again on every later turn, and what the
// model sees of it is no longer true. Once a file has changed after a read, and that read is a few
// turns old (so the usual read -> several edits sequence keeps its context), the read's content is
// replaced by a one-line note saying how to get the current text back.
import type { Content, Part } from '../types/content.js';

/** A superseded read is kept this many turns after it was made. */
export const KEEP_STALE_READ_TURNS = 4;

interface Read {
  entry: number;
  part: number;
  file: string;
  turn: number;
  changedAt: number | null;
}

export class StaleReads {
  private readonly reads: Read[] = [];

  constructor(private readonly keepTurns = KEEP_STALE_READ_TURNS) {}

  /** `entry` is the history index of the user content, `part` the index of the function response in it. */
  recordRead(entry: number, part: number, file: string, turn: number): void {
    this.reads.push({ entry, part, file, turn, changedAt: null });
  }

  recordChange(file: string, turn: number): void {
    for (const read of this.reads) if (read.file === file && read.changedAt === null) read.changedAt = turn;
  }

  /**
   * Replaces superseded reads older than the keep window; returns how many it replaced. Compaction
   * (compaction.ts) passes a window of 0 and the first history entry it keeps verbatim.
   */
  prune(contents: Content[], turn: number, keepTurns = this.keepTurns, beforeEntry = Infinity): number {
    let pruned = 0;
    for (let i = this.reads.length - 1; i >= 0; i--) {
      const read = this.reads[i]!;
      if (read.changedAt === null || turn - read.turn <= keepTurns || read.entry >= beforeEntry) continue;
      const content = contents[read.entry];
      if (content) contents[read.entry] = withNote(content, read);
      this.reads.splice(i, 1);
      pruned++;
    }
    return pruned;
  }

  /** History entries [from, from + count) were removed: their reads are forgotten, later ones move up. */
  removed(from: number, count: number): void {
    for (let i = this.reads.length - 1; i >= 0; i--) {
      const read = this.reads[i]!;
      if (read.entry >= from + count) read.entry -= count;
      else if (read.entry >= from) this.reads.splice(i, 1);
    }
  }
}

function withNote(content: Content, read: Read): Content {
  const parts = content.parts.map((part, i): Part => {
    if (i === read.part && part.functionResponse) {
      const note = `[The content of ${read.file} read here is omitted: the file changed at turn ${read.changedAt}. Read it again if you need it.]`;
      return { functionResponse: { ...part.functionResponse, response: { output: note } } };
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
