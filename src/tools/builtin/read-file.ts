// read_file: one file, paged by lines; binary files described, images returned inline.
import fs from 'node:fs/promises';
import path from 'node:path';
import { BaseTool, errorResult, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { directorySyntaxProblem, doesNotExist, firstBinaryLine, formatBytes, hasNulByte, ioError, notRegularFile, outsideWorkspace, plural, probe, readHead, resolvePath } from './common.js';
import { MAX_LINE_CHARS, MAX_PAGE_CHARS, readLinePage, readTextPage, SMALL_FILE_BYTES, type LinePage } from './line-pager.js';
import { notUtf8Note, utf16Note, utf16Of } from './text-encoding.js';
import { byteNamedFile } from '../path-bytes.js';
// By its bytes: a Git LFS pointer named logo.png, or a text file named .png, is no image.
import { imageTypeOf } from '../../util/image-type.js';

export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

/** Names read as images when their bytes say so. SVG is text and is read as text. */
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

export interface ReadFileParams {
  absolute_path: string;
  offset?: number;
  limit?: number;
}

export class ReadFileTool extends BaseTool<ReadFileParams> {
  readonly name = 'read_file';
  readonly displayName = 'Read file';
  readonly description =
    'Read a text file (raw, no line numbers) or an image. Pages with offset (0-based line) and limit (default 2000).';
  readonly parameterSchema = {
    type: 'object',
    properties: {
      absolute_path: { type: 'string', description: 'Absolute path' },
      offset: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: 1 },
    },
    required: ['absolute_path'],
    additionalProperties: false,
  };
  readonly kind = 'read' as const;
  override readonly pathParams = ['absolute_path'];

  constructor(private readonly ctx: ToolContext) {
    super();
  }

  // Its notes (a long line, an encoding, a directory) name only tools the agent calling has.
  override forTools(names: readonly string[]): ReadFileTool {
    return new ReadFileTool({ ...this.ctx, offered: names });
  }

  protected override validateSemantics(params: ReadFileParams): string | null {
    const directory = directorySyntaxProblem(params.absolute_path, 'read_file');
    if (directory) return directory;
    if (!path.isAbsolute(params.absolute_path)) {
      const example = path.join(this.ctx.workspace.root, params.absolute_path);
      return `absolute_path must be absolute, e.g. '${example}'`;
    }
    const resolved = resolvePath(this.ctx, params.absolute_path);
    return resolved.ok ? null : resolved.reason;
  }

  getDescription(params: ReadFileParams): string {
    const range = params.offset || params.limit ? ` (offset ${params.offset ?? 0}, limit ${params.limit ?? DEFAULT_LINE_LIMIT})` : '';
    return `read ${params.absolute_path}${range}`;
  }

  async shouldConfirmExecute(): Promise<false> {
    return false;
  }

  async execute(params: ReadFileParams, signal: AbortSignal): Promise<ToolResult> {
    const directory = directorySyntaxProblem(params.absolute_path, 'read_file');
    if (directory) return errorResult('invalid_params', directory);
    const resolved = resolvePath(this.ctx, params.absolute_path);
    if (!resolved.ok) return outsideWorkspace(resolved);
    const name = resolved.relative;
    try {
      let file: string | Buffer = resolved.path;
      let what = probe(file);
      // A name the listing tools showed with \xHH for bytes that are not UTF-8 (path-bytes.ts).
      const raw = what.kind === 'missing' ? byteNamedFile(resolved.path) : null;
      // Checked as another name (a hard link) of a credential file, as the text's path was.
      const kept = raw ? this.ctx.workspace.keptByIdentity(raw, name) : null;
      if (kept) return errorResult('permission_denied', kept);
      if (raw) [file, what] = [raw, probe(raw)];
      if (what.kind === 'missing') return errorResult('file_not_found', doesNotExist(what, resolved.path, name));
      if (what.kind === 'directory') return errorResult('not_a_file', `'${name}' is a directory${this.listWith()}`);
      if (what.kind !== 'file') return errorResult('not_a_file', notRegularFile(name, resolved.path));

      const head = readHead(file);
      const mimeType = IMAGE_EXTENSIONS.has(path.extname(resolved.path).toLowerCase()) ? imageTypeOf(head) : null;
      if (mimeType) return await readImage(file, name, mimeType, what.size);
      const utf16 = utf16Of(head);
      if (utf16) return await readUtf16(file, name, what.size, utf16, params, this.ctx.offered);
      if (hasNulByte(head)) {
        const text = `Binary file ${name} (${formatBytes(what.size)}); not shown.`;
        return { llmContent: text, returnDisplay: text };
      }
      const page = await readLinePage(file, what.size, params.offset ?? 0, params.limit ?? DEFAULT_LINE_LIMIT, signal);
      return showPage(page, name, what.size, params, page.validUtf8 ? null : notUtf8Note(name, this.ctx.offered), this.ctx.offered);
    } catch (error) {
      if (signal.aborted) return errorResult('aborted', 'read_file was cancelled');
      return ioError(`cannot read '${name}'`, error);
    }
  }

  /** What lists a directory, of the tools the agent calling has. */
  private listWith(): string {
    const offered = this.ctx.offered;
    if (offered === undefined || offered.includes('ls')) return '; use ls';
    return offered.includes('glob') ? '; use glob' : '';
  }
}

async function readImage(file: string | Buffer, name: string, mimeType: string, size: number): Promise<ToolResult> {
  if (size > MAX_IMAGE_BYTES) {
    const text = `Image ${name} is ${formatBytes(size)}, over the ${formatBytes(MAX_IMAGE_BYTES)} limit; not shown.`;
    return { llmContent: text, returnDisplay: text };
  }
  const data = (await fs.readFile(file)).toString('base64');
  return { llmContent: [{ inlineData: { mimeType, data } }], returnDisplay: `Read image ${name} (${formatBytes(size)})`, contentOf: name };
}

/** Decoded whole: UTF-16 files are small (editors and PowerShell write them); a large one is described. */
async function readUtf16(file: string | Buffer, name: string, size: number, encoding: 'utf-16le' | 'utf-16be', params: ReadFileParams, offered: readonly string[] | undefined): Promise<ToolResult> {
  if (size > SMALL_FILE_BYTES) {
    const way = offered === undefined || offered.includes('shell') ? '; convert it with the shell: iconv -f UTF-16 -t UTF-8' : '';
    const text = `${name} is UTF-16 text (${formatBytes(size)}), too large to decode here${way}`;
    return { llmContent: text, returnDisplay: text };
  }
  // The decoder drops the byte order mark.
  const text = new TextDecoder(encoding).decode(await fs.readFile(file));
  const page = await readTextPage(text, params.offset ?? 0, params.limit ?? DEFAULT_LINE_LIMIT);
  return showPage(page, name, size, params, utf16Note(name, encoding, offered), offered);
}

/**
 * The note under a page with lines cut at MAX_LINE_CHARS: which lines, and what shows the rest.
 * No call of read_file can (every page cuts them alike), nor grep (it shows 250 characters of a
 * line): only the shell, when the run offers it. Sent with every such page, so kept short.
 */
function cutLinesNote(lines: readonly number[], name: string, offered: readonly string[] | undefined): string {
  const shown = lines.length <= 5 ? lines : lines.slice(0, 4);
  const which = shown.length === lines.length ? `${shown.slice(0, -1).join(', ')}${shown.length > 1 ? ' and ' : ''}${shown[shown.length - 1]}` : `${shown.join(', ')} and ${lines.length - shown.length} more`;
  const cut = `${lines.length === 1 ? 'line' : 'lines'} ${which} cut at ${String(MAX_LINE_CHARS).replace(/\B(?=(\d{3})+$)/g, ',')} characters`;
  if (!offered?.includes('shell')) return `[${cut}; no tool you have shows the rest]`;
  const quoted = /^[\w./@%+=:,-]+$/.test(name) ? name : `'${name.replace(/'/g, "'\\''")}'`;
  const file = quoted.startsWith('-') ? `./${quoted}` : quoted;
  return `[${cut}; see the rest with the shell${lines.length > 1 ? `, e.g. line ${lines[0]}` : ''}: sed -n ${lines[0]}p ${file} | cut -c ${MAX_LINE_CHARS + 1}-]`;
}

function showPage(page: LinePage, name: string, size: number, params: ReadFileParams, encodingNote: string | null, offered: readonly string[] | undefined): ToolResult {
  const offset = params.offset ?? 0;
  const limit = params.limit ?? DEFAULT_LINE_LIMIT;
  // Binary that follows text (an archive appended to a script, a log with a core dump in it): the
  // text is shown, the binary described.
  const binary = firstBinaryLine(page.lines);
  if (binary !== -1) {
    page.lines.length = binary;
    page.more = false;
  }
  const binaryNote = binary === -1 ? null : `[binary content from line ${offset + binary + 1} on (${formatBytes(size)} file): not shown]`;
  if (binaryNote && page.lines.length === 0) return { llmContent: binaryNote, returnDisplay: binaryNote };
  if (page.lines.length === 0) {
    if (offset === 0) return { llmContent: '[empty file]', returnDisplay: `Read ${name}: empty file` };
    return errorResult('invalid_params', `offset ${offset} is past the end of '${name}' (${plural(page.totalLines ?? 0, 'line')})`);
  }
  const first = offset + 1;
  const last = offset + page.lines.length;
  const notes: string[] = [];
  if (offset > 0 || page.more) {
    const of = page.totalLines === null ? `of a ${formatBytes(size)} file` : `of ${page.totalLines}`;
    const next = page.more ? `; call again with offset=${last}` : '';
    const why = page.more && page.lines.length < limit ? ` (a page stops at ${MAX_PAGE_CHARS} characters)` : '';
    notes.push(`[lines ${first}-${last} ${of}${why}${next}]`);
  }
  if (page.cutLines.length > 0) notes.push(cutLinesNote(page.cutLines, name, offered));
  if (binaryNote) notes.push(binaryNote);
  // Binary content is not UTF-8 either: its note says enough.
  if (encodingNote && !binaryNote) notes.push(encodingNote);
  const text = notes.length ? `${page.lines.join('\n')}\n${notes.join('\n')}` : page.lines.join('\n');
  // Cut at a cap: the page stopped before the end of what the call asked for (the file's end, or its
  // own limit), or a line was cut. A page of exactly the lines asked for is no cut.
  const truncated = (page.more && (params.limit === undefined || page.lines.length < limit)) || page.cutLines.length > 0;
  return { llmContent: text, returnDisplay: `Read ${name}: lines ${first}-${last}`, contentOf: name, ...(truncated ? { truncated: true as const } : {}) };
}
