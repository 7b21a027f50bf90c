// The image type a file's or a tool result's first bytes say. A name or a declared MIME type is not
// enough: a provider refuses an image whose bytes are not the type it was sent as (Anthropic:
// "Image does not match the provided media type image/jpeg", a Figma MCP server's PNG labelled
// JPEG, anthropics/claude-code#12009), or that is none of the kinds it takes, and the image stays in
// the history, so every later request of the run is refused too.

/** The kinds every provider takes (Anthropic and OpenAI take exactly these; Gemini all but GIF, and HEIC). */
export const SENDABLE_IMAGE_TYPES = 'PNG, JPEG, GIF or WebP';

/** The image type `head`'s bytes say (PNG, JPEG, GIF, WebP), or null. */
export function imageTypeOf(head: Buffer): string | null {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  const ascii = head.toString('latin1', 0, 12);
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image/gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** The image type the start of base64 `data` says, or null (16 characters are 12 bytes, all a signature needs). */
export function imageTypeOfBase64(data: string): string | null {
  return imageTypeOf(Buffer.from(data.slice(0, 16), 'base64'));
}

/**
 * An image's width and height in pixels, read from its header (PNG's IHDR, GIF's screen, WebP's
 * VP8/VP8L/VP8X frame, JPEG's first SOF segment), or null when they cannot be read.
 */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  const type = imageTypeOf(bytes);
  if (type === 'image/png' && bytes.length >= 24 && bytes.toString('latin1', 12, 16) === 'IHDR') return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (type === 'image/gif' && bytes.length >= 10) return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (type === 'image/webp' && bytes.length >= 30) return webpSize(bytes);
  if (type === 'image/jpeg') return jpegSize(bytes);
  return null;
}

function webpSize(bytes: Buffer): { width: number; height: number } | null {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  return null;
}

/** The first start-of-frame segment's size; segments before it (EXIF, ICC profiles) are skipped by their lengths. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // SOF0-SOF15, but not DHT (C4), JPG (C8) or DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}
