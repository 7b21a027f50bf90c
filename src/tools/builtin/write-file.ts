// write_file: replace or create a whole file, atomically; returns the diff.
import fs from 'node:fs';
import { BaseTool, errorResult, type ConfirmationDetails, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { makeFileDiff } from '../file-diff.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { replaceRefusal } from './replace-refusal.js';
import { lineEndingOf, withLineEnding } from './line-endings.js';
import { cannotCreateUnder, directorySyntaxProblem, formatBytes, ioError, notRegularFile, outsideWorkspace, plural, probe, readHead, resolvePath } from './common.js';
import { notUtf8Refusal } from './text-encoding.js';

const MAX_ORIGINAL_BYTES = 16 * 1024 * 1024;

export interface WriteFileParams {
  file_path: string;
  content: string;
}

export class WriteFileTool extends BaseTool<WriteFileParams> {
  readonly name = 'write_file';
  readonly displayName = 'Write file';
  readonly description = 'Create or overwrite a file with content (parent dirs created). Prefer edit for changes.';
  readonly parameterSchema = {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'Path, relative to the workspace or absolute' },
      content: { type: 'string' },
    },
    required: ['file_path', 'content'],
    additionalProperties: false,
  };
  readonly kind = 'edit' as const;
  override readonly pathParams = ['file_path'];

  constructor(private readonly ctx: ToolContext) {
    super();
  }

  // Its refusals name only tools the agent calling has (write_file, the shell).
  override forTools(names: readonly string[]): WriteFileTool {
    return new WriteFileTool({ ...this.ctx, offered: names });
  }

  protected override validateSemantics(params: WriteFileParams): string | null {
    const directory = directorySyntaxProblem(params.file_path, 'write_file');
    if (directory) return directory;
    const resolved = resolvePath(this.ctx, params.file_path);
    return resolved.ok ? null : resolved.reason;
  }

  getDescription(params: WriteFileParams): string {
    return `write ${params.file_path} (${params.content.length} chars)`;
  }

  async shouldConfirmExecute(params: WriteFileParams): Promise<ConfirmationDetails> {
    const resolved = resolvePath(this.ctx, params.file_path);
    // Unresolvable paths never get here (validation), but fail closed if the tree changed since.
    const target = resolved.ok ? resolved.path : params.file_path;
    return { kind: 'edit', title: `Write ${resolved.ok ? resolved.relative : params.file_path}`, paths: [target] };
  }

  async execute(params: WriteFileParams, signal: AbortSignal): Promise<ToolResult> {
    const directory = directorySyntaxProblem(params.file_path, 'write_file');
    if (directory) return errorResult('invalid_params', directory);
    const resolved = resolvePath(this.ctx, params.file_path);
    if (!resolved.ok) return outsideWorkspace(resolved);
    const name = resolved.relative;
    try {
      const what = probe(resolved.path);
      if (what.kind === 'directory') return errorResult('not_a_file', `'${name}' is a directory`);
      if (what.kind === 'other') return errorResult('not_a_file', notRegularFile(name, resolved.path));
      const under = cannotCreateUnder(what, resolved.path, name);
      if (under) return under;
      const refusal = replaceRefusal(resolved.path, name);
      if (refusal) return errorResult('permission_denied', refusal);
      const before = what.kind === 'file' ? readBefore(resolved.path, what.size) : null;
      const notUtf8 = before ? notUtf8Refusal(name, before.bytes ?? readHead(resolved.path, 64 * 1024), before.bytes !== null, this.ctx.offered) : null;
      if (notUtf8) return errorResult('invalid_params', notUtf8);
      const withEndings = keepLineEndings(params.content, before?.endings ?? null);
      // The model saw the file's byte-order mark as an invisible character, if at all: it stays, as
      // the line endings do (Windows PowerShell reads a script without one as ANSI, not UTF-8).
      const bom = before !== null && withEndings !== '' && !withEndings.startsWith(BOM) && startsWithBom(before.bytes ?? readHead(resolved.path, 3));
      const content = bom ? BOM + withEndings : withEndings;
      // The file already holds exactly these bytes: nothing is written (its inode, mode and time
      // stay), and the call is no change, so the history keeps what the model read of it.
      if (before?.bytes?.equals(Buffer.from(content))) return { llmContent: `${name} already has this content; nothing was written.`, returnDisplay: `Unchanged ${name}` };
      const original = before === null ? null : before.text;
      signal.throwIfAborted();
      writeFileAtomic(resolved.path, content);
      const lines = plural(countLines(content), 'line');
      const kept = [withEndings !== params.content ? 'CRLF line endings' : '', bom ? 'byte-order mark' : ''].filter(Boolean).join(' and ');
      const crlf = kept ? `, ${kept} kept` : '';
      const summary = original === null ? `Created ${name} (${lines}).` : `Wrote ${name} (${lines}${crlf}).`;
      return { llmContent: summary, returnDisplay: await makeFileDiff(name, original, content) };
    } catch (error) {
      if (signal.aborted) return errorResult('aborted', 'write_file was cancelled; the file is unchanged');
      return ioError(`cannot write '${name}'`, error);
    }
  }
}

/**
 * Content written over a CRLF file keeps its endings: the model saw the file without \r. Content
 * that has a CRLF of its own is written as given.
 */
function keepLineEndings(content: string, endings: string | null): string {
  if (endings === null || content.includes('\r\n')) return content;
  return withLineEnding(content, lineEndingOf(endings));
}

const BOM = '\ufeff';

function startsWithBom(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * Previous content for the diff, its bytes, and the text its line endings are judged by; a huge
 * file is described rather than loaded, its endings judged by its first 64 KB (a CRLF file stays
 * CRLF however large it is).
 */
function readBefore(file: string, size: number): { text: string; bytes: Buffer | null; endings: string } {
  if (size > MAX_ORIGINAL_BYTES) {
    return { text: `(previous content not kept: ${formatBytes(size)})\n`, bytes: null, endings: readHead(file, 64 * 1024).toString('latin1') };
  }
  const bytes = fs.readFileSync(file);
  const text = bytes.toString('utf8');
  return { text, bytes, endings: text };
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}
