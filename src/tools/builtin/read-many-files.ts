// read_many_files: several files (paths, directories or globs) concatenated, within a character budget.
import fs from 'node:fs/promises';
import path from 'node:path';
import { picomatchLib } from '../../util/globs.js';
import { BaseTool, DEFAULT_OUTPUT_THRESHOLD, errorResult, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { globMatcher, globPatternProblem, walk, type WalkStats } from '../walk.js';
import { findFiles } from './glob.js';
import { hasNulByte, ioError, outsideWorkspace, plural, probe, resolvePath, specialFileKind, textBeforeBinary } from './common.js';
import { KEPT_CREDENTIALS, UnreadablePaths } from '../unreadable-paths.js';
import { byteNamedFile, fsPath, joinPath, shownText } from '../path-bytes.js';
import { isUtf8Head, utf16Of } from './text-encoding.js';
import { MAX_LINE_CHARS } from './line-pager.js';

export const READ_MANY_MAX_FILES = 100;
/**
 * Characters of file text one call returns. Below the loop's cap on a result, which would cut the
 * middle out (whole files, without a word of which), with room for the notes: past it, a file is
 * cut after a whole line and the note says where to go on, and the files not read are named.
 */
export const READ_MANY_MAX_CHARS = DEFAULT_OUTPUT_THRESHOLD - 8_000;
/** Names a note lists, and characters of them, before it only counts the rest. */
const LISTED_NAMES = 20;
const LISTED_CHARS = 1_500;

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

export interface ReadManyFilesParams {
  paths: string[];
  exclude?: string[];
}

export class ReadManyFilesTool extends BaseTool<ReadManyFilesParams> {
  readonly name = 'read_many_files';
  readonly displayName = 'Read many files';
  readonly description = `Read several text files at once: file paths, directories or globs (max 100 files, ${READ_MANY_MAX_CHARS} chars).`;
  readonly parameterSchema = {
    type: 'object',
    properties: {
      paths: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 100 },
      exclude: { type: 'array', items: { type: 'string' }, description: 'Globs to skip' },
    },
    required: ['paths'],
    additionalProperties: false,
  };
  readonly kind = 'read' as const;
  override readonly pathParams = ['paths'];

  constructor(private readonly ctx: ToolContext) {
    super();
  }

  // Its notes point at read_file only when the agent calling has it.
  override forTools(names: readonly string[]): ReadManyFilesTool {
    return new ReadManyFilesTool({ ...this.ctx, offered: names });
  }

  protected override validateSemantics(params: ReadManyFilesParams): string | null {
    for (const p of params.paths) {
      const problem = isGlob(p) ? globPatternProblem(p) : resolveProblem(this.ctx, p);
      if (problem) return problem;
    }
    for (const p of params.exclude ?? []) {
      const problem = globPatternProblem(p);
      if (problem) return `exclude: ${problem}`;
    }
    return null;
  }

  getDescription(params: ReadManyFilesParams): string {
    return `read ${params.paths.join(', ')}`;
  }

  async shouldConfirmExecute(): Promise<false> {
    return false;
  }

  async execute(params: ReadManyFilesParams, signal: AbortSignal): Promise<ToolResult> {
    for (const p of params.paths.filter((p) => !isGlob(p))) {
      const resolved = resolvePath(this.ctx, p);
      if (!resolved.ok) return outsideWorkspace(resolved);
    }
    const invalid = this.validateSemantics(params);
    if (invalid) return errorResult('invalid_params', invalid);
    try {
      const collected = await this.collect(params, signal);
      return await readAll(collected, signal, this.ctx.offered);
    } catch (error) {
      if (signal.aborted) return errorResult('aborted', 'read_many_files was cancelled');
      return ioError('read_many_files failed', error);
    }
  }

  /** Canonical files in the order asked (globs and directories expanded in walk order), de-duplicated. */
  private async collect(params: ReadManyFilesParams, signal: AbortSignal): Promise<Collected> {
    const excluded = globMatcher(params.exclude ?? [], true);
    const seen = new Map<string, string | Buffer>();
    const collected: Collected = { files: [], missing: [], special: [], outside: [], unfinished: [], matched: 0, unreadable: new UnreadablePaths() };
    // Every match is counted, so the note can say how many were left out; only the first are kept.
    const byIdentity = this.ctx.workspace.mayHoldLinkedCredentials();
    const add = (relative: string) => {
      if (excluded(relative) || seen.has(relative)) return;
      if (this.ctx.workspace.keptAt(relative) !== null || (byIdentity && this.ctx.workspace.keptByIdentity(joinPath(this.ctx.workspace.root, fsPath(relative)), relative) !== null)) {
        collected.unreadable.add(relative, false, KEPT_CREDENTIALS);
        return;
      }
      collected.matched++;
      if (seen.size < READ_MANY_MAX_FILES) seen.set(relative, joinPath(this.ctx.workspace.root, fsPath(relative)));
    };
    const maxEntries = this.ctx.maxWalkEntries;
    for (const p of params.paths) {
      if (isGlob(p)) {
        const found = await findFiles(this.ctx, this.ctx.workspace.root, p, signal, READ_MANY_MAX_FILES + 1);
        if (found.outside) {
          collected.outside.push(found.outside);
          continue;
        }
        found.paths.forEach(add);
        if (found.stats.unreadable) collected.unreadable.addAll(found.stats.unreadable);
        // Beyond the paths kept, the matches are known only by number.
        collected.matched += Math.max(0, found.total - found.paths.length);
        if (found.walkLimitHit) collected.unfinished.push(p);
        // A name pattern matches at the top only: say where its names are (glob.ts findFiles).
        else if (found.total === 0) collected.missing.push(found.deeper > 0 ? `${p} (at the top; ${plural(found.deeper, 'file')} deeper down match${found.deeper === 1 ? 'es' : ''} '**/${p.replace(/^(\.\/)+/, '')}')` : p);
        continue;
      }
      const resolved = resolvePath(this.ctx, p);
      if (!resolved.ok) continue; // checked by validation
      let what = probe(resolved.path);
      // The path as text, in the form the walk shows names (path-bytes.ts); or, when the text names
      // nothing, a name shown with \xHH for its bytes that are not UTF-8.
      let shown = shownText(resolved.relative);
      const raw = what.kind === 'missing' ? byteNamedFile(resolved.path) : null;
      if (raw) [what, shown] = [probe(raw), resolved.relative];
      // 'a.txt/' names a directory: the kernel would not open the file a.txt for it.
      if (what.kind === 'file' && /\/\.?$/.test(p)) collected.missing.push(`${p} (a file, not a directory)`);
      else if (what.kind === 'file') add(shown);
      else if (what.kind === 'directory') {
        const stats: WalkStats = { visited: 0, limitHit: false, unreadable: collected.unreadable };
        for await (const entry of walk(this.ctx.workspace, resolved.path, { signal, stats, maxEntries })) add(entry.relative);
        if (stats.limitHit) collected.unfinished.push(p);
      } else if (what.kind === 'other') collected.special.push(`${p} (${specialFileKind(resolved.path)})`);
      else collected.missing.push(p);
    }
    collected.files = [...seen].map(([relative, absolute]) => [absolute, relative]);
    return collected;
  }
}

interface Collected {
  /** [absolute, relative], at most READ_MANY_MAX_FILES. */
  files: Array<[string | Buffer, string]>;
  missing: string[];
  /** Paths named that are neither file nor directory (a FIFO, a socket, a device), with what they are. */
  special: string[];
  /** Why globs were not searched: they start outside the workspace. */
  outside: string[];
  /** Globs and directories whose walk stopped at its entry limit: more files may be there. */
  unfinished: string[];
  /** Files the paths named or matched, excluded ones not counted (may exceed files.length). */
  matched: number;
  /** Directories that could not be listed, then files that could not be read: the rest is read all the same. */
  unreadable: UnreadablePaths;
}

async function readAll({ files, missing, special, outside, unfinished, matched, unreadable }: Collected, signal: AbortSignal, offered: readonly string[] | undefined): Promise<ToolResult> {
  // The ways on through read_file are named only to an agent that has it (a sub-agent's list may not).
  const hasReadFile = offered === undefined || offered.includes('read_file');
  const viaReadFile = (text: string): string => (hasReadFile ? text : '');
  const sections: string[] = [];
  const skipped: string[] = [];
  const notRead: string[] = [];
  let room = READ_MANY_MAX_CHARS;
  let read = 0;
  /** A file was cut: after a whole line, or in its one long line. */
  let cut = false;
  for (const [absolute, relative] of files) {
    signal.throwIfAborted();
    if (IMAGE_EXTENSIONS.has(path.extname(relative).toLowerCase())) {
      skipped.push(`${relative} (image${viaReadFile(': use read_file')})`);
      continue;
    }
    const header = `--- ${relative} ---\n`;
    // A character is at least a byte: this many bytes never decode to more than the room left.
    const fits = room - header.length - 1;
    if (fits <= 0) {
      notRead.push(relative);
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = await readUpTo(absolute, fits + 1);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT') throw error;
      unreadable.add(relative, false, code);
      continue;
    }
    if (utf16Of(bytes)) {
      skipped.push(`${relative} (UTF-16 text${viaReadFile(': use read_file')})`);
      continue;
    }
    if (hasNulByte(bytes)) {
      skipped.push(`${relative} (binary)`);
      continue;
    }
    const whole = bytes.length <= fits;
    const { text: raw, binaryAt } = textBeforeBinary(bytes.subarray(0, fits));
    // Without the \r of CRLF, as read_file shows a file: the model would copy it into old_string,
    // and edit and write_file keep a CRLF file's endings themselves (line-endings.ts).
    const decoded = raw.includes('\r\n') ? raw.replace(/\r\n/g, '\n') : raw;
    let text = decoded;
    let lineCut = false;
    if (binaryAt !== null) {
      text += `${text ? '\n' : ''}[binary content from line ${binaryAt} on: not shown]`;
    } else if (!whole) {
      // Cut after the last whole line that fits, and say where the rest begins.
      const lastNewline = decoded.lastIndexOf('\n');
      // The first file of the call whose first line alone is past the limit (minified code,
      // one-line JSON): no call could ever read that line whole, and naming the file as not read
      // would send the model round again. It is cut as read_file cuts a long line, and the files
      // after it still get the room left. After other files, another call can read it.
      const firstOfCall = room === READ_MANY_MAX_CHARS;
      if (lastNewline === -1 && !firstOfCall) {
        notRead.push(relative);
        room = 0;
        continue;
      }
      if (lastNewline === -1) {
        text = `${decoded.slice(0, MAX_LINE_CHARS)} … [line cut: over ${fits} chars]\n[${relative}: line 1 is longer than the ${READ_MANY_MAX_CHARS}-character limit of one call, cut at ${MAX_LINE_CHARS} characters${viaReadFile(' as read_file cuts it; read_file with offset=1 reads on from line 2')}]`;
        lineCut = true;
      } else {
        const lines = countNewlines(decoded, lastNewline + 1);
        text = `${decoded.slice(0, lastNewline)}\n[${relative} cut after line ${lines}: the ${READ_MANY_MAX_CHARS}-character limit of one call${viaReadFile(`; read_file with offset=${lines} reads on`)}]`;
      }
    }
    if (binaryAt === null && !isUtf8Head(bytes.subarray(0, fits))) text += `${text.endsWith('\n') ? '' : '\n'}[${relative} is not valid UTF-8: each byte that is not is shown as \ufffd${viaReadFile('; read_file says more')}]`;
    if (!whole && binaryAt === null) cut = true;
    room = whole || binaryAt !== null || lineCut ? room - header.length - text.length - 1 : 0;
    sections.push(`${header}${text}`);
    read++;
  }
  const notes: string[] = [];
  const narrow = 'name fewer paths, a subdirectory or a narrower glob, or add exclude';
  const unfinishedNote = unfinished.length ? ` (the search of ${unfinished.join(', ')} stopped at its entry limit, so there are more)` : '';
  if (matched > files.length || unfinished.length) {
    notes.push(`[truncated: ${files.length} of ${unfinished.length ? 'at least ' : ''}${matched} files taken (the limit is ${READ_MANY_MAX_FILES} per call)${unfinishedNote}; ${narrow}]`);
  }
  if (notRead.length) {
    notes.push(`[not read, past the ${READ_MANY_MAX_CHARS}-character limit of one call: ${listNames(notRead)}; read them with another call${viaReadFile(', or with read_file')}]`);
  }
  if (skipped.length) notes.push(`[skipped: ${listNames(skipped)}]`);
  if (special.length) notes.push(`[skipped, not regular files: ${listNames(special)}]`);
  if (missing.length) notes.push(`[not found: ${listNames(missing)}]`);
  for (const reason of outside) notes.push(`[not searched: ${reason}]`);
  const unreadableNote = unreadable.note();
  if (unreadableNote) notes.push(unreadableNote);
  const body = sections.length ? sections : ['No files read.'];
  const truncated = cut || matched > files.length || unfinished.length > 0 || notRead.length > 0;
  return { llmContent: [...body, ...notes].join('\n'), returnDisplay: `Read ${read} files`, ...(truncated ? { truncated: true as const } : {}) };
}

/** The first names, as many as fit a note, then how many more. */
function listNames(names: readonly string[]): string {
  const shown: string[] = [];
  let chars = 0;
  for (const name of names.slice(0, LISTED_NAMES)) {
    if (shown.length > 0 && chars + name.length > LISTED_CHARS) break;
    shown.push(name);
    chars += name.length + 2;
  }
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

async function readUpTo(file: string | Buffer, bytes: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, bytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function isGlob(p: string): boolean {
  return picomatchLib().scan(p).isGlob;
}

function resolveProblem(ctx: ToolContext, p: string): string | null {
  const resolved = resolvePath(ctx, p);
  return resolved.ok ? null : resolved.reason;
}
