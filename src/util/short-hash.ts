// A short, stable name for a text (FNV-1a, 32 bits, hex), for file names: whoever uses one keeps
// the text itself in the file and checks it, so a collision is a miss, never a mix-up.
export function fnv1a(text: string, seed = 0x811c9dc5): string {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
