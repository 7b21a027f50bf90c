// The JSON bytes of history entries (and of the tool declarations), each object measured once. The
// loop replaces an entry when it changes it, never changes one in place, so an object's size is
// fixed; the context estimate and the stale-match rule both need the same entries' sizes before
// every request, and JSON.stringify of a file's content is the costly part of either.
import { uncountedImageBytesOf, type Content } from '../types/content.js';

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

// Images count for at most IMAGE_ESTIMATE_BYTES each (types/content.ts says why): counted by their
// base64, a screenshot was taken out by compaction before the model had seen it. Counted low, an
// image costs at most one refusal for length, which compaction answers.
const imageExcess = new WeakMap<Content, number>();

/** The base64 bytes of an entry's images beyond IMAGE_ESTIMATE_BYTES each: what the estimate does not count. */
export function uncountedImageBytes(content: Content): number {
  let size = imageExcess.get(content);
  if (size === undefined) {
    size = uncountedImageBytesOf(content.parts);
    imageExcess.set(content, size);
  }
  return size;
}

/** The bytes an entry counts for in the context estimate: its JSON, each image at most IMAGE_ESTIMATE_BYTES. */
export function estimateBytes(content: Content): number {
  return jsonBytes(content) - uncountedImageBytes(content);
}

/** The bytes an entry's media count for in the context estimate (estimateBytes's share of them). */
export function countedMediaBytes(content: Content): number {
  return mediaBytes(content) - uncountedImageBytes(content);
}

/**
 * Sizes of a history kept by position, beside the object each was measured on: a sum costs one
 * identity check per entry (microseconds for thousands) plus the entries new or replaced since.
 */
export class EntrySizes {
  private readonly measured: Content[] = [];
  private readonly bytes: number[] = [];

  constructor(private readonly measure: (content: Content) => number = jsonBytes) {}

  /** The bytes of `contents[from..]`. */
  sum(contents: readonly Content[], from = 0): number {
    this.measured.length = this.bytes.length = Math.min(this.measured.length, contents.length);
    let total = 0;
    for (let i = from; i < contents.length; i++) {
      const content = contents[i]!;
      if (this.measured[i] !== content) {
        this.measured[i] = content;
        this.bytes[i] = this.measure(content);
      }
      total += this.bytes[i]!;
    }
    return total;
  }
}
