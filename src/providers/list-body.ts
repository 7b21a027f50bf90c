// A request body that is a lead (`{"system…":…,"contents":[`), a list of entries' JSON texts, and
// `]}`, built as bytes from the bytes of the one before, and handed out as a list of chunks.
//
// Each turn resends the history, and from one request to the next only its end changes: a turn is
// appended, the read a later edit made stale is replaced by a note. So the entries the two requests
// share (the same objects, in the same places, under the same lead) are not encoded again, and
// most of their bytes are not even copied: the body is kept as full chunks that are never written
// again, plus a tail. A request is the full chunks as they are and a new tail: the shared bytes
// after the last full chunk, the new entries' texts and `]}`. A tail that grows past CHUNK_BYTES
// becomes a full chunk. So a turn copies at most CHUNK_BYTES plus what it adds, whatever the size
// of the history (copying the whole body into a new buffer cost ~50 us a turn at 75 KB, most of it
// the kernel handing a new buffer's pages over, and grew with the run), and the socket takes the
// chunks in one writev.
//
// A body handed out is never written again: the next one shares its full chunks and has a tail of
// its own (the last body's write to the socket may still be under way after a retry).

/** A tail longer than this becomes a full chunk. */
export const CHUNK_BYTES = 32 * 1024;

export interface ChunkedBody {
  chunks: readonly Buffer[];
  /** Bytes in all the chunks. */
  length: number;
}

export class ListBody<Entry extends object> {
  private lead = '';
  private entries: Entry[] = [];
  /** Where each entry's text ends, in bytes from the start of the body (its separating comma comes before it). */
  private ends: number[] = [];
  /** Chunks never written again, and their bytes in all. */
  private full: Buffer[] = [];
  private fullBytes = 0;
  /** The bytes after the full chunks, up to the end of the last entry (the last body's tail without `]}`). */
  private tail: Buffer = Buffer.alloc(0);

  /** @param json - an entry's JSON text (the caller caches it: it is asked once per new entry) */
  constructor(private readonly json: (entry: Entry) => string) {}

  /** `lead` + the entries' texts, comma-separated, + `]}`. */
  next(lead: string, entries: readonly Entry[]): ChunkedBody {
    let shared = 0;
    if (lead === this.lead) {
      const most = Math.min(entries.length, this.entries.length);
      while (shared < most && entries[shared] === this.entries[shared]) shared++;
    }
    // The bytes the two bodies share: up to the end of the last shared entry (its lead with them), or none.
    const kept = shared === 0 ? 0 : this.ends[shared - 1]!;
    const carried = this.keepUpTo(kept);
    const texts: string[] = [];
    let added = shared === 0 ? Buffer.byteLength(lead) : 0;
    for (let i = shared; i < entries.length; i++) {
      const text = this.json(entries[i]!);
      texts.push(text);
      added += (i > 0 ? 1 : 0) + Buffer.byteLength(text);
    }
    const tail = Buffer.allocUnsafe(carried.length + added + 2);
    let at = carried.copy(tail, 0);
    if (shared === 0) at += tail.write(lead, at);
    this.entries.length = shared;
    this.ends.length = shared;
    for (let i = shared; i < entries.length; i++) {
      if (i > 0) tail[at++] = 0x2c; // ,
      at += tail.write(texts[i - shared]!, at);
      this.entries.push(entries[i]!);
      this.ends.push(this.fullBytes + at);
    }
    tail[at] = 0x5d; // ]
    tail[at + 1] = 0x7d; // }
    this.lead = lead;
    const body = { chunks: [...this.full, tail], length: this.fullBytes + at + 2 };
    if (at >= CHUNK_BYTES) {
      this.full.push(tail.subarray(0, at));
      this.fullBytes += at;
      this.tail = Buffer.alloc(0);
    } else {
      this.tail = tail.subarray(0, at);
    }
    return body;
  }

  /** Drops the bytes from `kept` on; returns those of them after the full chunks that remain (to be copied into the next tail). */
  private keepUpTo(kept: number): Buffer {
    while (this.full.length > 0 && this.fullBytes > kept) {
      const last = this.full.pop()!;
      this.fullBytes -= last.length;
      if (this.fullBytes < kept) {
        // The cut is inside this chunk: its start up to the cut is carried into the new tail.
        return last.subarray(0, kept - this.fullBytes);
      }
    }
    return this.tail.subarray(0, kept - this.fullBytes);
  }
}
