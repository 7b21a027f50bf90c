// Small helpers the built-in tools share: confinement errors, file probing, notes.
import fs from 'node:fs';
import type { Resolved } from '../../util/workspace.js';
import { errorResult, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';

/** Whitespace runs (newlines included) become one space: for titles, list items and headers. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Bytes inspected for NUL to call a file binary (git's heuristic). */
export const BINARY_SNIFF_BYTES = 8192;

export function resolvePath(ctx: ToolContext, p: string): Resolved {
  return ctx.workspace.resolve(p);
}

export function outsideWorkspace(resolved: Extract<Resolved, { ok: false }>): ToolResult {
  return errorResult('path_outside_workspace', resolved.reason);
}

export type Probe =
  | { kind: 'missing' }
  | { kind: 'file'; size: number; mode: number }
  | { kind: 'directory' }
  | { kind: 'other' };

/**
 * What is at a canonical path (stat follows nothing further: resolve() already did). Synchronous,
 * like the other small-file operations here: a local stat takes microseconds, a promise round trip
 * through the thread pool far longer.
 */
export function probe(canonical: string): Probe {
  try {
    const stat = fs.statSync(canonical);
    if (stat.isFile()) return { kind: 'file', size: stat.size, mode: stat.mode & 0o7777 };
    if (stat.isDirectory()) return { kind: 'directory' };
    return { kind: 'other' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    throw error;
  }
}

export function hasNulByte(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** The first bytes of a file, for binary detection. */
export function readHead(file: string, bytes = BINARY_SNIFF_BYTES): Buffer {
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

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
