// The charset an HTML page names for itself (`<meta charset="...">`, or the `http-equiv` form),
// for a page whose Content-Type header names none: read from its first 1,024 bytes, as a
// browser's prescan does. Without it, a windows-1252 or Shift_JIS page reads as mojibake.

/** How far into the page the declaration is looked for (the HTML standard's prescan length). */
const PRESCAN_BYTES = 1024;

// On at most 1,024 characters: no pattern here can take long, whatever the page.
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i;

/** The encoding label the page's meta tag names, or null. A UTF-16 label means UTF-8, as in a browser (the tag could not have been read in UTF-16). */
export function metaCharset(body: Uint8Array): string | null {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, PRESCAN_BYTES)).toString('latin1');
  const label = META_CHARSET.exec(head)?.[1]?.toLowerCase() ?? null;
  if (label === null) return null;
  return /^utf-?16/.test(label) ? 'utf-8' : label;
}
