// Small helpers the built-in tools share: confinement errors, file probing, notes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Resolved } from '../../util/workspace.js';
import { errorResult, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';

/** Whitespace runs (newlines included) become one space: for titles, list items and headers. */
export { oneLine } from '../../util/one-line.js';

/** Bytes inspected for NUL to call a file binary (git's heuristic). */
export const BINARY_SNIFF_BYTES = 8192;

/** Where a tool's path leads: refused outside the workspace, and at credentials inside it (Workspace.keptAt). */
export function resolvePath(ctx: ToolContext, p: string): Resolved {
  return ctx.workspace.resolveForTools(p);
}

/**
 * Why a file tool must not take `p`: a path ending in '/' (or '/.') names a directory, and the
 * kernel refuses it for a file (ENOTDIR), but resolving drops the slash, so `a.txt/` would reach
 * the file a.txt and `newdir/` would become a file named newdir.
 */
export function directorySyntaxProblem(p: string, tool: string): string | null {
  if (!/\/\.?$/.test(p)) return null;
  return `'${p}' ends in '${p.endsWith('.') ? '/.' : '/'}', which names a directory; ${tool} takes a file: give its path without that`;
}

export function outsideWorkspace(resolved: Extract<Resolved, { ok: false }>): ToolResult {
  return errorResult(resolved.credentials ? 'permission_denied' : 'path_outside_workspace', resolved.reason);
}

export type Probe =
  /** throughFile: the kernel said ENOTDIR, so something on the way is not a directory (fileInTheWay). */
  | { kind: 'missing'; throughFile?: true }
  | { kind: 'file'; size: number; mode: number }
  | { kind: 'directory' }
  | { kind: 'other' };

/**
 * What is at a canonical path (stat follows nothing further: resolve() already did). Synchronous,
 * like the other small-file operations here: a local stat takes microseconds, a promise round trip
 * through the thread pool far longer.
 */
export function probe(canonical: string | Buffer): Probe {
  try {
    const stat = fs.statSync(canonical);
    if (stat.isFile()) return { kind: 'file', size: stat.size, mode: stat.mode & 0o7777 };
    if (stat.isDirectory()) return { kind: 'directory' };
    return { kind: 'other' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ENOTDIR') return { kind: 'missing', throughFile: true };
    throw error;
  }
}

/**
 * What stands where a directory should, for a path probe() found missing with ENOTDIR: "'a.txt' is a
 * file" for 'a.txt/b.txt' (the bare ENOTDIR names neither it nor anything but the full path).
 * `name` is the workspace-relative name of `canonical`; only ancestors inside it are looked at.
 */
export function fileInTheWay(canonical: string, name: string): string | null {
  const parts = name.split('/');
  let dir = canonical;
  for (let up = 1; up < parts.length; up++) {
    dir = path.dirname(dir);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(dir);
    } catch {
      continue; // ENOTDIR again, further up
    }
    if (stat.isDirectory()) return null;
    return `'${parts.slice(0, parts.length - up).join('/')}' is ${stat.isFile() ? 'a file' : 'not a directory'}`;
  }
  return null;
}

/** The refusal for creating `name` (probed missing) under something that is no directory, or null. */
export function cannotCreateUnder(what: Probe, canonical: string, name: string): ToolResult | null {
  const blocker = what.kind === 'missing' && what.throughFile ? fileInTheWay(canonical, name) : null;
  return blocker ? errorResult('not_a_directory', `${blocker}, not a directory, so '${name}' cannot be created in it`) : null;
}

/** "'x/y' does not exist", saying why when something on the way is a file. */
export function doesNotExist(what: Probe, canonical: string, name: string): string {
  const blocker = what.kind === 'missing' && what.throughFile ? fileInTheWay(canonical, name) : null;
  return blocker ? `'${name}' does not exist: ${blocker}, not a directory` : `'${name}' does not exist`;
}

/** What a path that is neither file nor directory is, for a message: 'a named pipe'. */
export function specialFileKind(canonical: string): string {
  return specialKind(canonical) ?? 'not a regular file';
}

/** `'fifo' is a named pipe, not a regular file` */
export function notRegularFile(name: string, canonical: string): string {
  const kind = specialKind(canonical);
  return kind ? `'${name}' is ${kind}, not a regular file` : `'${name}' is not a regular file`;
}

function specialKind(canonical: string): string | null {
  try {
    const stat = fs.statSync(canonical);
    if (stat.isFIFO()) return 'a named pipe';
    if (stat.isSocket()) return 'a socket';
    if (stat.isCharacterDevice()) return 'a character device';
    if (stat.isBlockDevice()) return 'a block device';
  } catch {
    // gone meanwhile
  }
  return null;
}

export function hasNulByte(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** The first bytes of a file, for binary detection. */
export function readHead(file: string | Buffer, bytes = BINARY_SNIFF_BYTES): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const bytesRead = fs.readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    fs.closeSync(fd);
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** An I/O failure as data: a full disk ends the run, anything else goes back to the model. */
export function ioError(action: string, error: unknown): ToolResult {
  const code = (error as NodeJS.ErrnoException).code;
  const message = `${action}: ${error instanceof Error ? error.message : String(error)}`;
  return errorResult(code === 'ENOSPC' || code === 'EDQUOT' ? 'fatal' : 'io_error', message);
}

export { plural } from '../../util/plural.js';

/**
 * Control characters that text for a terminal has: bell, backspace (a spinner's `|\b/\b-`), tab,
 * newline, form feed, carriage return (a progress bar redrawn), shift out and in (charset
 * switches), escape (colours, cursor moves).
 */
const TERMINAL_TEXT = new Set([7, 8, 9, 10, 12, 13, 14, 15, 27]);

/**
 * A line of decoded text that is really binary: a NUL, control characters that no text has, or
 * mostly invalid UTF-8 (decoded as U+FFFD). Prose in another encoding is not binary: a Latin-1
 * "café crème" has a few U+FFFD, never a majority of its characters.
 */
export function looksBinary(line: string): boolean {
  if (line.includes('\u0000')) return true;
  let control = 0;
  let invalid = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0xfffd) invalid++;
    else if ((c < 32 && !TERMINAL_TEXT.has(c)) || c === 0x7f) control++;
  }
  return (control >= 4 && control > line.length / 10) || (invalid >= 8 && invalid > line.length * 0.4);
}

/**
 * Index of the first line that looks binary, or -1. Binary split at random newline bytes makes
 * short "lines" too few to judge alone: those right before a binary line that hold any invalid or
 * control character, or hardly any characters, belong to the same blob.
 */
export function firstBinaryLine(lines: readonly string[]): number {
  let at = lines.findIndex(looksBinary);
  while (at > 0 && (hasOddCharacter(lines[at - 1]!) || lines[at - 1]!.length < 4)) at--;
  return at;
}

export function hasOddCharacter(line: string): boolean {
  // Control characters other than TERMINAL_TEXT's, DEL, or U+FFFD.
  return /[\u0000-\u0006\u000b\u0010-\u001a\u001c-\u001f\u007f\ufffd]/.test(line);
}

/** The text up to the first binary-looking line (binary that follows text), and that line's number. */
export function textBeforeBinary(bytes: Uint8Array): { text: string; binaryAt: number | null } {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const lines = text.split('\n');
  const at = firstBinaryLine(lines);
  if (at === -1) return { text, binaryAt: null };
  return { text: lines.slice(0, at).join('\n'), binaryAt: at + 1 };
}

/** SIGSEGV for 139: the signal a sandbox's 128+n stands for (SpawnSpec.signalsAsExitCodes), or undefined. */
export function signalOfExitCode(code: number | undefined): string | undefined {
  if (code === undefined || code <= 128) return undefined;
  return Object.entries(os.constants.signals).find(([, n]) => n === code - 128)?.[0];
}
