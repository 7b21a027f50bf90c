// The tool outputs a compaction turned into notes without a summary (compaction.ts, step 1) were
// read by the model: what it learnt from them may be needed later. The next summary request is
// given them as the model saw them, so that what it read can still go into the summary; until
// then the originals are kept here, up to a budget in bytes (a summary request cannot hold more
// than the window anyway), the oldest forgotten first.
import type { Content } from '../types/content.js';
import { jsonBytes } from './entry-bytes.js';

export class TrimmedOutputs {
  /** A history entry with notes, and the entry as the model saw it; in the order they were trimmed. */
  private readonly originals = new Map<Content, Content>();
  private bytes = 0;

  constructor(private readonly budgetBytes: () => number) {}

  /** `trimmed` replaced `original` in the history. */
  trimmed(trimmed: Content, original: Content): void {
    const seen = this.originals.get(original) ?? original;
    this.forget(original);
    this.originals.set(trimmed, seen);
    this.bytes += jsonBytes(seen);
    for (const oldest of this.originals.keys()) {
      if (this.bytes <= this.budgetBytes()) break;
      this.forget(oldest);
    }
  }

  /** The entry as the model saw it. */
  seen(entry: Content): Content {
    return this.originals.get(entry) ?? entry;
  }

  /** Only the entries still in `contents` are remembered (the others were summarised or replaced). */
  keepOnly(contents: readonly Content[]): void {
    if (this.originals.size === 0) return;
    const live = new Set(contents);
    for (const entry of [...this.originals.keys()]) if (!live.has(entry)) this.forget(entry);
  }

  private forget(entry: Content): void {
    const seen = this.originals.get(entry);
    if (seen === undefined) return;
    this.originals.delete(entry);
    this.bytes -= jsonBytes(seen);
  }
}
