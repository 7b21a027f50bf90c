// The JSON bytes of a history entry (or of the tool declarations), measured once per object. The
// loop replaces an entry when it changes it, never changes one in place, so an object's size is
// fixed; the context estimate and the stale-match rule both need the same entries' sizes before
// every request, and JSON.stringify of a file's content is the costly part of either.
const sizes = new WeakMap<object, number>();

export function jsonBytes(value: object): number {
  let size = sizes.get(value);
  if (size === undefined) {
    size = Buffer.byteLength(JSON.stringify(value));
    sizes.set(value, size);
  }
  return size;
}
