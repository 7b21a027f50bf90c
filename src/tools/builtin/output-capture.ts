// Keeps the head and the tail of a stream of bytes and counts what was between: a command that
// prints gigabytes costs the same memory as one that prints 32 KB.
import { isUtf8 } from 'node:buffer';

export class HeadTailCapture {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;

  constructor(
    private readonly headLimit: number,
    private readonly tailLimit: number,
  ) {}

  push(data: Buffer | string): void {
    let chunk = typeof data === 'string' ? Buffer.from(data) : data;
    this.total += chunk.length;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(chunk.length, this.headLimit - this.headBytes);
      this.head.push(Buffer.from(chunk.subarray(0, take)));
      this.headBytes += take;
      chunk = chunk.subarray(take);
    }
    if (chunk.length === 0) return;
    this.tail.push(Buffer.from(chunk));
    this.tailBytes += chunk.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= this.tailLimit) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  /** True when bytes were dropped between the head and the tail. */
  get cut(): boolean {
    return this.total > this.headLimit + this.tailLimit;
  }

  /**
   * Whether the kept bytes are UTF-8: each byte that is not reads as U+FFFD in text(). A character
   * the cut split (the head's end, the tail's start) is not held against them.
   */
  get validUtf8(): boolean {
    const tail = Buffer.concat(this.tail);
    const keptTail = tail.subarray(Math.max(0, tail.length - this.tailLimit));
    if (this.total - this.headBytes - keptTail.length === 0) return isUtf8(Buffer.concat([...this.head, keptTail]));
    let start = 0;
    while (start < 3 && start < keptTail.length && (keptTail[start]! & 0xc0) === 0x80) start++;
    return utf8UpToACutEnd(Buffer.concat(this.head)) && isUtf8(keptTail.subarray(start));
  }

  /** The kept text; when bytes were dropped, a note in their place says how many. */
  text(): string {
    const tail = Buffer.concat(this.tail);
    const keptTail = tail.subarray(Math.max(0, tail.length - this.tailLimit));
    const dropped = this.total - this.headBytes - keptTail.length;
    // Contiguous output is decoded in one piece, so no character is split at the seam.
    if (dropped === 0) return Buffer.concat([...this.head, keptTail]).toString('utf8');
    const head = Buffer.concat(this.head).toString('utf8');
    const kept = this.headLimit > 0 ? `the first ${formatKeep(this.headLimit)} and the last ${formatKeep(this.tailLimit)}` : `the last ${formatKeep(this.tailLimit)}`;
    return `${head}\n[… ${dropped} bytes cut: only ${kept} are kept …]\n${keptTail.toString('utf8')}`;
  }
}

function formatKeep(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/** UTF-8, but for a character its end may cut short. */
function utf8UpToACutEnd(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
