// edit: replace an exact string in a file, a known number of times; anything else changes nothing.
import fs from 'node:fs';
import { BaseTool, errorResult, type ConfirmationDetails, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { makeFileDiff } from '../file-diff.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { replaceRefusal } from './replace-refusal.js';
import { lineEndingOf, withLineEnding, type LineEnding } from './line-endings.js';
import { notUtf8Refusal } from './text-encoding.js';
import { cannotCreateUnder, directorySyntaxProblem, doesNotExist, hasNulByte, ioError, notRegularFile, outsideWorkspace, plural, probe, resolvePath } from './common.js';

export interface EditParams {
  file_path: string;
  old_string: string;
  new_string: string;
  expected_replacements?: number;
}

export class EditTool extends BaseTool<EditParams> {
  readonly name = 'edit';
  readonly displayName = 'Edit file';
  readonly description =
    'Replace old_string (exact text, with enough context to be unique) by new_string. Empty old_string creates a new file.';
  readonly parameterSchema = {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'Path, relative to the workspace or absolute' },
      old_string: { type: 'string' },
      new_string: { type: 'string' },
      expected_replacements: { type: 'integer', minimum: 1, description: 'Default 1' },
    },
    required: ['file_path', 'old_string', 'new_string'],
    additionalProperties: false,
  };
  readonly kind = 'edit' as const;
  override readonly pathParams = ['file_path'];

  constructor(private readonly ctx: ToolContext) {
    super();
  }

  // Its refusals name only tools the agent calling has (write_file, the shell).
  override forTools(names: readonly string[]): EditTool {
    return new EditTool({ ...this.ctx, offered: names });
  }

  protected override validateSemantics(params: EditParams): string | null {
    const directory = directorySyntaxProblem(params.file_path, 'edit');
    if (directory) return directory;
    if (params.old_string === params.new_string) return 'old_string and new_string are identical: nothing to change';
    const resolved = resolvePath(this.ctx, params.file_path);
    return resolved.ok ? null : resolved.reason;
  }

  getDescription(params: EditParams): string {
    return `edit ${params.file_path}`;
  }

  async shouldConfirmExecute(params: EditParams): Promise<ConfirmationDetails> {
    const resolved = resolvePath(this.ctx, params.file_path);
    const target = resolved.ok ? resolved.path : params.file_path;
    return { kind: 'edit', title: `Edit ${resolved.ok ? resolved.relative : params.file_path}`, paths: [target] };
  }

  async execute(params: EditParams, signal: AbortSignal): Promise<ToolResult> {
    const directory = directorySyntaxProblem(params.file_path, 'edit');
    if (directory) return errorResult('invalid_params', directory);
    if (params.old_string === params.new_string) {
      return errorResult('edit_no_change', 'old_string and new_string are identical: nothing to change');
    }
    const resolved = resolvePath(this.ctx, params.file_path);
    if (!resolved.ok) return outsideWorkspace(resolved);
    const name = resolved.relative;
    try {
      const what = probe(resolved.path);
      if (what.kind === 'directory') return errorResult('not_a_file', `'${name}' is a directory`);
      if (what.kind === 'other') return errorResult('not_a_file', notRegularFile(name, resolved.path));
      if (what.kind === 'missing') {
        const under = cannotCreateUnder(what, resolved.path, name);
        if (params.old_string !== '') return errorResult('file_not_found', under ? doesNotExist(what, resolved.path, name) : `'${name}' does not exist (use an empty old_string to create it)`);
        if (under) return under;
        signal.throwIfAborted();
        writeFileAtomic(resolved.path, params.new_string);
        return { llmContent: `Created ${name}.`, returnDisplay: await makeFileDiff(name, null, params.new_string) };
      }
      const refusal = replaceRefusal(resolved.path, name);
      if (refusal) return errorResult('permission_denied', refusal);
      // An empty file holds nothing old_string could name: the empty one names all of it, and filling
      // it loses nothing. (An agent without write_file had no way to write into a touched file.)
      if (params.old_string === '' && what.size === 0) {
        signal.throwIfAborted();
        writeFileAtomic(resolved.path, params.new_string);
        return { llmContent: `Wrote ${name}, which was empty.`, returnDisplay: await makeFileDiff(name, '', params.new_string) };
      }
      if (params.old_string === '') {
        const whole = this.ctx.offered === undefined || this.ctx.offered.includes('write_file') ? ', or use write_file' : '';
        return errorResult('invalid_params', `'${name}' already exists: give the text to replace as old_string${whole}`);
      }
      const bytes = fs.readFileSync(resolved.path);
      const original = decodeUtf8(bytes);
      if (original === null) return errorResult('invalid_params', notUtf8Refusal(name, bytes, true, this.ctx.offered) ?? `'${name}' is not valid UTF-8 text`);
      // Binary by read_file's rule (a tar of text files is valid UTF-8): text found in it by guess,
      // since no read showed it, would be replaced inside a format that counts its bytes.
      if (hasNulByte(bytes)) return errorResult('invalid_params', binaryRefusal(name, this.ctx.offered));
      const planned = planReplacement(original, params, name);
      if ('error' in planned) return planned.error;
      if (planned.content === original) {
        const onlyEndings = params.old_string.replace(/\r/g, '') === params.new_string.replace(/\r/g, '');
        const why = !onlyEndings ? '' : lineEndingOf(original) === '\r\n' ? ' (they differ only in line endings, and the file keeps its CRLF ones)' : ' (they differ only in line endings, and the file keeps its own)';
        return errorResult('edit_no_change', `replacing old_string by new_string leaves ${name} as it is${why}: nothing was changed`);
      }
      signal.throwIfAborted();
      writeFileAtomic(resolved.path, planned.content);
      return {
        llmContent: replacedAt(planned.lines) + (planned.form ? ` old_string matched as the file writes it, in Unicode form ${planned.form} (${planned.form === 'NFD' ? 'accents as separate marks' : 'composed characters'}), and new_string was written in that form too.` : ''),
        returnDisplay: await makeFileDiff(name, original, planned.content),
      };
    } catch (error) {
      if (signal.aborted) return errorResult('aborted', 'edit was cancelled; the file is unchanged');
      return ioError(`cannot edit '${name}'`, error);
    }
  }
}

function planReplacement(
  original: string,
  params: EditParams,
  name: string,
): { content: string; lines: Array<[number, number]>; form: 'NFC' | 'NFD' | null } | { error: ToolResult } {
  const expected = params.expected_replacements ?? 1;
  // Models write "\n" (read_file shows no \r): in a CRLF file, or the CRLF lines of a mixed one,
  // the text still matches. The same text in the other Unicode form: a file written on macOS (or
  // pasted from a PDF) may hold 'é' as e + U+0301, which read_file shows alike and the model
  // writes back composed.
  let oldString = params.old_string;
  let { spans: found, loose } = findAll(original, oldString);
  let form: 'NFC' | 'NFD' | null = null;
  for (const candidate of found.length === 0 ? (['NFD', 'NFC'] as const) : []) {
    const variant = oldString.normalize(candidate);
    if (variant === oldString) continue;
    const matches = findAll(original, variant);
    if (matches.spans.length === 0) continue;
    [oldString, found, loose, form] = [variant, matches.spans, matches.loose, candidate];
    break;
  }
  const formed = form ? params.new_string.normalize(form) : params.new_string;
  // Text found with other line endings than old_string's: new_string's CRLFs were as much a slip.
  const newString = loose ? formed.replace(/\r\n/g, '\n') : formed;
  if (found.length === 0) {
    return {
      error: errorResult('edit_no_match', `old_string not found in ${name}${nearMiss(original, oldString)}; read the file and copy the exact text, whitespace included`),
    };
  }
  if (found.length !== expected) {
    const n = found.length;
    return {
      error: errorResult(
        'edit_count_mismatch',
        n > expected
          ? `old_string occurs ${plural(n, 'time')} in ${name}, expected ${expected}; add context to make it unique, or set expected_replacements=${n}`
          : `old_string occurs ${plural(n, 'time')} in ${name}, expected ${expected}; nothing was changed: set expected_replacements=${n} to replace ${n === 1 ? 'it' : `those ${n}`}, or check old_string`,
      ),
    };
  }
  // Each replacement's line breaks are those of the text it replaces (of its line, when that text
  // has none): a file that mixes CRLF and LF lines keeps every line's ending, the edited ones too.
  // Pieces joined, not String.replace: `$&` and friends in new_string stay literal.
  const parts: string[] = [];
  const pieces: string[] = [];
  let at = 0;
  for (const [start, end] of found) {
    parts.push(original.slice(at, start));
    pieces.push(parts[parts.length - 1]!, withLineEnding(newString, endingAt(original, start, end)));
    at = end;
  }
  parts.push(original.slice(at));
  pieces.push(parts[parts.length - 1]!);
  return { content: pieces.join(''), lines: landedLines(parts, newString), form };
}

/**
 * Where `text` occurs in `original`, [start, end) each, left to right without overlap. A text with
 * line breaks that is not there as written is looked for with "\n" or "\r\n" for each of them
 * (`loose`): LF text in a file with CRLF lines, or CRLF text (copied from elsewhere) in an LF file.
 */
function findAll(original: string, text: string): { spans: Array<[number, number]>; loose: boolean } {
  const spans: Array<[number, number]> = [];
  for (let at = original.indexOf(text); at !== -1; at = original.indexOf(text, at + text.length)) spans.push([at, at + text.length]);
  const lf = text.replace(/\r\n/g, '\n');
  if (spans.length > 0 || !lf.includes('\n') || (lf === text && !original.includes('\r\n'))) return { spans, loose: false };
  const loose = new RegExp(lf.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\n/g, '\\r?\\n'), 'g');
  for (const match of original.matchAll(loose)) spans.push([match.index, match.index + match[0].length]);
  return { spans, loose: true };
}

/**
 * The line ending for text replacing original[start, end): that text's own when it spans lines,
 * else that of the line it is on (of the line before, on a last line without one).
 */
function endingAt(original: string, start: number, end: number): LineEnding {
  const matched = original.slice(start, end);
  if (matched.includes('\n')) return lineEndingOf(matched);
  const next = original.indexOf('\n', end);
  if (next !== -1) return next > 0 && original[next - 1] === '\r' ? '\r\n' : '\n';
  const previous = original.lastIndexOf('\n', start - 1);
  return previous > 0 && original[previous - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * Why old_string, not in the file, nearly is: the slips read_file's text invites. It shows no
 * sign of a last line without a line break (old_string copied with one then never matched), nor
 * tabs apart from spaces. Only on a miss, so a call that matches pays nothing for it.
 */
function nearMiss(original: string, oldString: string): string {
  const bare = oldString.replace(/\r?\n$/, '');
  if (bare !== oldString && /\S/.test(bare) && original.endsWith(bare)) return ' as written: the file does not end with a line break, and old_string does';
  // Line by line, without a regexp that backtracks: a file with a long run of spaces before text
  // made /[ \t]+(?=\n|$)/ quadratic, and this runs on the main thread.
  const loose = (text: string) => text.replace(/\r/g, '').split('\n').map(withoutTrailingBlanks).join('\n').replace(/[ \t]+/g, ' ');
  if (/\S/.test(oldString) && loose(original).includes(loose(oldString))) return ' as written, but it is there with other spaces or tabs (tabs for spaces, or trailing spaces)';
  return '';
}

function withoutTrailingBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return end === line.length ? line : line.slice(0, end);
}

/**
 * The lines of the edited file that each replacement's new text occupies, [first, last] (1-based).
 * An empty new_string occupies the line where the old text was.
 */
function landedLines(parts: string[], newString: string): Array<[number, number]> {
  const span = newlines(newString.endsWith('\n') ? newString.slice(0, -1) : newString);
  const lines: Array<[number, number]> = [];
  let line = 1 + newlines(parts[0]!);
  for (let k = 1; k < parts.length; k++) {
    lines.push([line, line + span]);
    line += newlines(newString) + newlines(parts[k]!);
  }
  return lines;
}

function newlines(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/** Lines listed in an edit's result; more replacements than this are counted, not listed. */
const LISTED_REPLACEMENTS = 10;

/**
 * What the model is told after an edit. Its call already says which file and what text, and this
 * result is resent on every later request, so it adds only what the call cannot say: that it
 * worked, how many times, and where the new text now is (lines of the edited file).
 */
function replacedAt(lines: Array<[number, number]>): string {
  const range = ([first, last]: [number, number]) => (first === last ? `${first}` : `${first}-${last}`);
  const multiline = lines.some(([first, last]) => first !== last);
  if (lines.length === 1) return `Replaced at line${multiline ? 's' : ''} ${range(lines[0]!)}.`;
  const listed = lines.slice(0, LISTED_REPLACEMENTS).map(range).join(', ');
  const more = lines.length > LISTED_REPLACEMENTS ? ` and ${lines.length - LISTED_REPLACEMENTS} more` : '';
  return `Replaced ${lines.length} times, at lines ${listed}${more}.`;
}

/** Why edit leaves a binary file alone, naming the ways on the calling agent has. */
function binaryRefusal(name: string, offered: readonly string[] | undefined): string {
  const ways = [offered === undefined || offered.includes('write_file') ? 'replace it whole with write_file' : '', offered === undefined || offered.includes('shell') ? 'change its bytes with the shell' : ''].filter(Boolean);
  const wayOn = ways.length ? `; ${ways.join(', or ')}` : '; no tool you have can change it';
  return `'${name}' is binary (a NUL byte in its first 8 KB, so read_file does not show it either); edit changes text files only, and it is left as it is${wayOn}`;
}

/** Null for bytes that are not UTF-8: rewriting them as text would corrupt the file. A BOM is kept. */
function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}
