// A line-level prefilter for grep patterns with look-arounds or back-references, which V8's
// linear-time engine does not take (regexp-fallback.ts): such a pattern that backtracks
// catastrophically ran to grep's 30 s limit in JavaScript wherever its line was, where ripgrep
// (which matches a superset with those left out, grep-regex.ts) passed the file over at once when
// it held no other match. The same superset is written in JavaScript here, look-arounds as nothing
// and back-references as any text: a line it does not match cannot match the pattern, and it has
// neither construct, so the linear engine takes it over when it backtracks. The scanner matches a
// line with the pattern only once the superset matched it, on either engine alike.
import { spelledCaseless } from './grep-caseless.js';

/** The superset of `source` (flags '' or 'i', past compileSearchPattern) and its flags, or null when it has no look-around nor back-reference. */
export function lineSuperset(source: string, flags: string): { source: string; flags: string } | null {
  const named = /\(\?<[^=!]/.test(source);
  let out = '';
  let changed = false;
  for (let i = 0; i < source.length; ) {
    const ch = source[i]!;
    if (ch === '\\') {
      const backreference = /^\\(?:[1-9]\d*|k<[^>]*>)/.exec(source.slice(i));
      if (backreference && (backreference[0][1] !== 'k' || named)) {
        out += '(?:[\\s\\S]*)';
        changed = true;
        i += backreference[0].length;
      } else {
        out += source.slice(i, i + 2);
        i += 2;
      }
    } else if (ch === '[') {
      const end = classEnd(source, i);
      out += source.slice(i, end);
      i = end;
    } else if (/^\(\?<?[=!]/.test(source.slice(i))) {
      out += '(?:)';
      changed = true;
      i = groupEnd(source, i);
    } else {
      out += ch;
      i++;
    }
  }
  if (!changed) return null;
  // The linear engine takes no i flag: the superset's letters spelled in both cases (grep-caseless.ts).
  const spelled = flags.includes('i') ? spelledCaseless(out) : null;
  const superset = spelled === null ? { source: out, flags } : { source: spelled, flags: flags.replace('i', '') };
  try {
    new RegExp(superset.source, superset.flags);
  } catch {
    return null; // not expected: the pattern is then matched alone, as before
  }
  return superset;
}

/** The index after the class that starts at source[i] ('['); ']' right after '[' or '[^' closes it ([] and [^] are classes). */
function classEnd(source: string, i: number): number {
  let at = i + 1;
  if (source[at] === '^') at++;
  while (at < source.length && source[at] !== ']') at += source[at] === '\\' ? 2 : 1;
  return at + 1;
}

/** The index after the group that opens at source[i] ('('). */
function groupEnd(source: string, i: number): number {
  let depth = 0;
  let at = i;
  while (at < source.length) {
    const ch = source[at]!;
    if (ch === '\\') at += 2;
    else if (ch === '[') at = classEnd(source, at);
    else {
      if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) return at + 1;
      at++;
    }
  }
  return at;
}
