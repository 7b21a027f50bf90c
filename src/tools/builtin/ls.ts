// ls: one directory's entries, sorted, with .gitignore'd entries, .git, node_modules and .unattended hidden.
import { BaseTool, errorResult, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { ALWAYS_SKIPPED, IgnoreRules, listDirectory } from '../walk.js';
import { ioError, outsideWorkspace, probe, resolvePath } from './common.js';
import { CHARS_LIMIT, linesWithinChars } from './search-notes.js';
import { byteNamedDirectory, byteNamedDirectoryProblem } from '../path-bytes.js';

export const LS_MAX_ENTRIES = 500;

export interface LsParams {
  path?: string;
  offset?: number;
}

export class LsTool extends BaseTool<LsParams> {
  readonly name = 'ls';
  readonly displayName = 'List directory';
  readonly description = 'List a directory (default: workspace root). Dirs end in /, symlinks in @.';
  readonly parameterSchema = {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Directory, relative to the workspace or absolute' },
      // No description: the only listing that needs it ends in a note saying which offset to give.
      offset: { type: 'integer', minimum: 0 },
    },
    additionalProperties: false,
  };
  readonly kind = 'read' as const;
  override readonly pathParams = ['path'];

  constructor(private readonly ctx: ToolContext) {
    super();
  }

  // Its notes name glob and the shell only when the agent calling has them.
  override forTools(names: readonly string[]): LsTool {
    return new LsTool({ ...this.ctx, offered: names });
  }

  protected override validateSemantics(params: LsParams): string | null {
    const resolved = resolvePath(this.ctx, params.path ?? '.');
    return resolved.ok ? null : resolved.reason;
  }

  getDescription(params: LsParams): string {
    return `ls ${params.path ?? '.'}${params.offset ? ` (from entry ${params.offset + 1})` : ''}`;
  }

  async shouldConfirmExecute(): Promise<false> {
    return false;
  }

  async execute(params: LsParams, signal: AbortSignal): Promise<ToolResult> {
    const resolved = resolvePath(this.ctx, params.path ?? '.');
    if (!resolved.ok) return outsideWorkspace(resolved);
    const shown = resolved.relative || '.';
    try {
      const what = probe(resolved.path);
      if (what.kind === 'missing' && byteNamedDirectory(resolved.path)) return errorResult('file_not_found', byteNamedDirectoryProblem(shown, 'ls', this.ctx.offered));
      if (what.kind === 'missing') return errorResult('file_not_found', `'${shown}' does not exist`);
      if (what.kind !== 'directory') return errorResult('not_a_directory', `'${shown}' is not a directory`);
      signal.throwIfAborted();
      // Names as the walk shows them: a name that is not UTF-8 with \xHH for its odd bytes (path-bytes.ts).
      const { entries, shown: names } = await listDirectory(resolved.path);
      const rules = await IgnoreRules.forDirectory(this.ctx.workspace, resolved.path);
      const lines: string[] = [];
      let hidden = 0;
      // The always-skipped directories by name (.unattended too), so the note says what is there.
      const skipped: string[] = [];
      for (const [i, entry] of entries.entries()) {
        const name = names ? names[i]! : entry.name;
        const relative = resolved.relative ? `${resolved.relative}/${name}` : name;
        const isDirectory = entry.isDirectory();
        if (isDirectory && ALWAYS_SKIPPED.has(name)) {
          skipped.push(name);
          continue;
        }
        if (rules.ignores(relative, isDirectory)) {
          hidden++;
          continue;
        }
        lines.push(name + (isDirectory ? '/' : entry.isSymbolicLink() ? '@' : ''));
      }
      const notes: string[] = [];
      // A page of the listing: a flat directory of thousands of names is read on with offset.
      const total = lines.length;
      const offset = params.offset ?? 0;
      if (offset > 0 && offset >= total) return errorResult('invalid_params', `offset ${offset} is past the end of the listing of '${shown}' (${total} ${total === 1 ? 'entry' : 'entries'} shown by ls)`);
      const page = lines.slice(offset, offset + LS_MAX_ENTRIES);
      const fit = linesWithinChars(page);
      const truncated = offset + fit < total;
      const from = offset > 0 ? ` (entries ${offset + 1}-${offset + fit})` : '';
      if (truncated) {
        const why = fit < page.length ? ` (${CHARS_LIMIT})` : '';
        notes.push(`[truncated: ${fit} of ${total} entries shown${from}, in name order${why}; call again with offset=${offset + fit} for the next ones, or list a subdirectory]`);
      } else if (offset > 0) {
        notes.push(`[${fit} of ${total} entries shown${from}, in name order: the last ones]`);
      }
      const listed = page.slice(0, fit);
      if (hidden + skipped.length > 0) notes.push(hiddenNote(skipped, hidden));
      if (total === 0 && hidden + skipped.length === 0) notes.push('(empty directory)');
      const text = [...listed, ...notes].join('\n');
      return { llmContent: text, returnDisplay: `Listed ${shown}: ${listed.length} entries`, ...(truncated ? { truncated: true as const } : {}) };
    } catch (error) {
      if (signal.aborted) return errorResult('aborted', 'ls was cancelled');
      return ioError(`cannot list '${shown}'`, error);
    }
  }
}

/** `[3 hidden: .git, .unattended and 1 gitignored]`: what the listing left out, by name where it is always left out. */
function hiddenNote(skipped: readonly string[], gitignored: number): string {
  if (skipped.length === 0) return `[${gitignored} hidden: gitignored]`;
  const parts = gitignored > 0 ? [...skipped, `${gitignored} gitignored`] : [...skipped];
  const what = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `[${skipped.length + gitignored} hidden: ${what}]`;
}
