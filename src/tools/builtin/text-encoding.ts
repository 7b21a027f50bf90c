// What the file tools say about text that is not UTF-8. They read and write UTF-8 only: a file in
// another encoding is shown as well as it can be, with a note that says so, and never rewritten
// (its characters would come back as U+FFFD, or in another encoding, without a word).
import { isUtf8 } from 'node:buffer';

export type Utf16 = 'utf-16le' | 'utf-16be';

/** UTF-16 by its byte order mark, or null. (FF FE 00 00 is UTF-32's mark: not UTF-16.) */
export function utf16Of(head: Uint8Array): Utf16 | null {
  if (head[0] === 0xff && head[1] === 0xfe) return head[2] === 0 && head[3] === 0 ? null : 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return null;
}

/**
 * Whether the calling agent has the tool `name`: `offered` is its list (a sub-agent's, plan mode's
 * before the plan), unset for a tool made alone, which is taken to have them all.
 */
const has = (offered: readonly string[] | undefined, name: string) => offered === undefined || offered.includes(name);

/**
 * The model's way on when read_file showed it a file that is not UTF-8, naming only the tools the
 * calling agent has: a sub-agent given read_file alone was sent to edit, write_file and the shell.
 */
function notUtf8WayOn(offered: readonly string[] | undefined): string {
  const writers = ['edit', 'write_file'].filter((name) => has(offered, name));
  const refuse = writers.length ? `; ${writers.join(' and ')} write${writers.length === 1 ? 's' : ''} only UTF-8 and refuse${writers.length === 1 ? 's' : ''} it` : '';
  return refuse + (has(offered, 'shell') ? '; change it with the shell (sed works on its bytes, iconv converts it)' : '');
}

/** For read_file: the bytes that are not UTF-8 were shown as U+FFFD. */
export function notUtf8Note(name: string, offered: readonly string[] | undefined): string {
  return `[${name} is not valid UTF-8 (Latin-1 or another encoding?): each byte that is not UTF-8 is shown as \ufffd${notUtf8WayOn(offered)}]`;
}

export function utf16Note(name: string, encoding: Utf16, offered: readonly string[] | undefined): string {
  const order = encoding === 'utf-16le' ? 'little-endian' : 'big-endian';
  return `[${name} is UTF-16 text (${order}, with a byte order mark), shown decoded${notUtf8WayOn(offered)}]`;
}

/**
 * Why the file tools must not rewrite `bytes` (an existing file's content) as UTF-8 text, or null.
 * `whole`: the bytes are all of the file (else its head, and a sequence cut at the end is fine).
 * The shell is named as the way on only to an agent that has it (`offered`).
 */
export function notUtf8Refusal(name: string, bytes: Uint8Array, whole: boolean, offered: readonly string[] | undefined): string | null {
  const valid = whole ? isUtf8(bytes) : isUtf8Head(bytes);
  if (valid) return null;
  const what = utf16Of(bytes) ? 'UTF-16 text' : 'not valid UTF-8 (Latin-1 or another encoding, or binary)';
  return `'${name}' is ${what}; the file tools write only UTF-8, and rewriting it would change each of its characters that is not UTF-8 (into U+FFFD, or into UTF-8), so it is left as it is${has(offered, 'shell') ? '. Change it with the shell (sed works on its bytes, iconv converts it), or remove it first to replace it' : '; no tool you have can change it'}`;
}

/** Whether `bytes`, the head of a file, are UTF-8, a sequence the end cuts short included. */
export function isUtf8Head(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
