// The JSON bytes of history entries (and of the tool declarations), each object measured once. The
// loop replaces an entry when it changes it, never changes one in place, so an object's size is
// fixed; the context estimate and the stale-match rule both need the same entries' sizes before
// every request, and JSON.stringify of a file's content is the costly part of either.
import type { Content } from '../types/content.js';

const sizes = new WeakMap<object, number>();

export function jsonBytes(value: object): number {
  let size = sizes.get(value);
  if (size === undefined) {
    size = Buffer.byteLength(JSON.stringify(value));
    sizes.set(value, size);
  }
  return size;
}

const media = new WeakMap<Content, number>();

/** The bytes of the media (inline images, audio, PDFs) in one history entry: their base64 text. */
export function mediaBytes(content: Content): number {
  let size = media.get(content);
  if (size === undefined) {
    size = content.parts.reduce((sum, part) => sum + (part.inlineData?.data.length ?? 0), 0);
    media.set(content, size);
  }
  return size;
}

/**
 * Sizes of a history kept by position, beside the object each was measured on: a sum costs one
 * identity check per entry (microseconds for thousands) plus the entries new or replaced since.
 */
export class EntrySizes {
  private readonly measured: Content[] = [];
  private readonly bytes: number[] = [];

  /** The bytes of `contents[from..]`. */
  sum(contents: readonly Content[], from = 0): number {
    this.measured.length = this.bytes.length = Math.min(this.measured.length, contents.length);
    let total = 0;
    for (let i = from; i < contents.length; i++) {
      const content = contents[i]!;
      if (this.measured[i] !== content) {
        this.measured[i] = content;
        this.bytes[i] = jsonBytes(content);
      }
      total += this.bytes[i]!;
    }
    return total;
  }
}
