// edit: replace an exact string in a file, a known number of times; anything else changes nothing.
import fs from 'node:fs';
import { BaseTool, errorResult, type ConfirmationDetails, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { makeFileDiff } from '../file-diff.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { replaceRefusal } from './replace-refusal.js';
import { lineEndingOf, withLineEnding } from './line-endings.js';
import { notUtf8Refusal } from './text-encoding.js';
import { directorySyntaxProblem, ioError, notRegularFile, outsideWorkspace, plural, probe, resolvePath } from './common.js';

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
        if (params.old_string !== '') return errorResult('file_not_found', `'${name}' does not exist (use an empty old_string to create it)`);
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
      const planned = planReplacement(original, params, name);
      if ('error' in planned) return planned.error;
      if (planned.content === original) {
        const why = lineEndingOf(original) === '\r\n' ? ' (they differ only in line endings, and the file keeps its CRLF ones)' : '';
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
  // Models write "\n" (read_file shows no \r): in a CRLF file the text still matches, and the new
  // text gets the file's endings.
  const ending = lineEndingOf(original);
  let oldString = params.old_string;
  let parts = original.split(oldString);
  if (parts.length === 1 && ending === '\r\n' && oldString.includes('\n') && !oldString.includes('\r')) {
    oldString = withLineEnding(oldString, ending);
    parts = original.split(oldString);
  }
  // The same text in the other Unicode form: a file written on macOS (or pasted from a PDF) may
  // hold 'é' as e + U+0301, which read_file shows alike and the model writes back composed.
  let form: 'NFC' | 'NFD' | null = null;
  for (const candidate of parts.length === 1 ? (['NFD', 'NFC'] as const) : []) {
    const variant = oldString.normalize(candidate);
    if (variant === oldString) continue;
    const split = original.split(variant);
    if (split.length === 1) continue;
    [oldString, parts, form] = [variant, split, candidate];
    break;
  }
  const newString = withLineEnding(form ? params.new_string.normalize(form) : params.new_string, ending);
  const found = parts.length - 1;
  if (found === 0) {
    return {
      error: errorResult('edit_no_match', `old_string not found in ${name}${nearMiss(original, oldString)}; read the file and copy the exact text, whitespace included`),
    };
  }
  if (found !== expected) {
    return {
      error: errorResult(
        'edit_count_mismatch',
        found > expected
          ? `old_string occurs ${plural(found, 'time')} in ${name}, expected ${expected}; add context to make it unique, or set expected_replacements=${found}`
          : `old_string occurs ${plural(found, 'time')} in ${name}, expected ${expected}; nothing was changed: set expected_replacements=${found} to replace ${found === 1 ? 'it' : `those ${found}`}, or check old_string`,
      ),
    };
  }
  // split/join, not String.replace: `$&` and friends in new_string stay literal.
  return { content: parts.join(newString), lines: landedLines(parts, newString), form };
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

/** Null for bytes that are not UTF-8: rewriting them as text would corrupt the file. A BOM is kept. */
function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}
