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
