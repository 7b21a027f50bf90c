// glob: file paths matching a glob pattern, relative to `path`; printed workspace-relative, sorted.
import path from 'node:path';
import { picomatchLib } from '../../util/globs.js';
import { BaseTool, errorResult, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { globMatcher, globPatternProblem, walk, type WalkStats } from '../walk.js';
import { ioError, outsideWorkspace, plural, probe, resolvePath } from './common.js';
import { CHARS_LIMIT, linesWithinChars, searchedFiles, walkLimitNote } from './search-notes.js';
import { UnreadablePaths } from '../unreadable-paths.js';
import { byteNamedDirectory, byteNamedDirectoryProblem } from '../path-bytes.js';

export const GLOB_MAX_PATHS = 500;

export interface GlobParams {
  pattern: string;
  path?: string;
}

export class GlobTool extends BaseTool<GlobParams> {
  readonly name = 'glob';
  readonly displayName = 'Find files';
  readonly description = 'Find files by glob (e.g. **/*.ts), relative to path. Prints workspace-relative paths.';
  readonly parameterSchema = {
    type: 'object',
    properties: {
      pattern: { type: 'string', maxLength: 1000 },
      path: { type: 'string', description: 'Directory (default: workspace root)' },
    },
    required: ['pattern'],
    additionalProperties: false,
  };
  readonly kind = 'search' as const;
  override readonly pathParams = ['path'];

  constructor(private readonly ctx: ToolContext) {
    super();
  }

  // Its notes name the shell only when the agent calling has it.
  override forTools(names: readonly string[]): GlobTool {
    return new GlobTool({ ...this.ctx, offered: names });
  }

  protected override validateSemantics(params: GlobParams): string | null {
    const problem = globPatternProblem(params.pattern);
    if (problem) return problem;
    const resolved = resolvePath(this.ctx, params.path ?? '.');
    return resolved.ok ? null : resolved.reason;
  }

  getDescription(params: GlobParams): string {
    return `glob ${params.pattern} in ${params.path ?? '.'}`;
  }

  async shouldConfirmExecute(): Promise<false> {
    return false;
  }

  async execute(params: GlobParams, signal: AbortSignal): Promise<ToolResult> {
    const problem = globPatternProblem(params.pattern);
    if (problem) return errorResult('invalid_params', problem);
    const resolved = resolvePath(this.ctx, params.path ?? '.');
    if (!resolved.ok) return outsideWorkspace(resolved);
    const where = resolved.relative || '.';
    try {
      const what = probe(resolved.path);
      if (what.kind === 'missing' && byteNamedDirectory(resolved.path)) return errorResult('file_not_found', byteNamedDirectoryProblem(where, 'glob', this.ctx.offered));
      if (what.kind === 'missing') return errorResult('file_not_found', `'${where}' does not exist`);
      if (what.kind !== 'directory') return errorResult('not_a_directory', `'${where}' is not a directory`);
      const found = await findFiles(this.ctx, resolved.path, params.pattern, signal);
      if (found.outside) return errorResult('path_outside_workspace', found.outside);
      const narrow = `a subdirectory in path, or a pattern that starts with one (e.g. src/**/${params.pattern.split('/').pop()})`;
      const notes: string[] = [];
      const atLeast = found.walkLimitHit ? 'at least ' : '';
      const shown = linesWithinChars(found.paths);
      const why = shown < found.paths.length ? ` (${CHARS_LIMIT})` : '';
      found.paths.length = shown;
      if (found.total > shown) notes.push(`[truncated: ${shown} of ${atLeast}${found.total} matching paths shown${why}; narrow the pattern or the path]`);
      const limit = walkLimitNote(found.stats, where, narrow);
      if (limit) notes.push(limit);
      const unreadable = found.stats.unreadable?.note();
      if (unreadable) notes.push(unreadable);
      const body = found.paths.length
        ? found.paths
        : [
            found.walkLimitHit
              ? `No files match '${params.pattern}' in the ${plural(found.searched, 'file')} searched so far under ${where}; the search did not finish (see below), so files may still match.`
              : `No files match '${params.pattern}' in ${where} (${searchedFiles(found.searched)}).${found.deeper > 0 ? ` A pattern without '/' matches names at the top of ${where} only: ${plural(found.deeper, 'file')} deeper down ${found.deeper === 1 ? 'has' : 'have'} such a name; '**/${params.pattern.replace(/^(\.\/)+/, '')}' matches at any depth.` : ''}`,
          ];
      return {
        llmContent: [...body, ...notes].join('\n'),
        returnDisplay: `${found.total}${found.walkLimitHit ? '+' : ''} files match ${params.pattern}`,
        ...(found.total > shown || found.walkLimitHit ? { truncated: true as const } : {}),
      };
    } catch (error) {
      if (signal.aborted) return errorResult('aborted', 'glob was cancelled');
      return ioError(`glob in '${where}' failed`, error);
    }
  }
}

export interface FoundFiles {
  /** Workspace-relative, at most `max`. */
  paths: string[];
  total: number;
  /** Files the walk looked at (matching or not). */
  searched: number;
  walkLimitHit: boolean;
  stats: WalkStats;
  /** Why the pattern's literal start (`etclink` of `etclink/*`) is not searched: it leads outside the workspace. */
  outside: string | null;
  /** With no match, the files deeper down a pattern without '/' (`*.ts`) would match by name: `**\/*.ts` finds them. */
  deeper: number;
}

/**
 * Files under the canonical directory `base` whose path relative to `base` matches `pattern`
 * (already checked by globPatternProblem). The walk starts at the pattern's literal prefix.
 */
export async function findFiles(
  ctx: ToolContext,
  base: string,
  pattern: string,
  signal: AbortSignal,
  max = GLOB_MAX_PATHS,
): Promise<FoundFiles> {
  const normalized = pattern.replace(/^(\.\/)+/, '');
  const prefix = picomatchLib().scan(normalized).base;
  // Directories that could not be listed: what they hold is unknown, and the note says so.
  const stats: WalkStats = { visited: 0, limitHit: false, unreadable: new UnreadablePaths() };
  const result: FoundFiles = { paths: [], total: 0, searched: 0, walkLimitHit: false, stats, outside: null, deeper: 0 };
  const start = ctx.workspace.resolve(path.join(base, prefix), prefix);
  if (!start.ok) {
    result.outside = `pattern '${pattern}' cannot be searched: ${start.reason}; only the workspace is`;
    return result;
  }
  const what = probe(start.path);
  if (what.kind === 'file' && prefix === normalized) {
    // A literal pattern naming one file.
    result.paths.push(start.relative);
    result.total = 1;
  }
  // A pattern without '/' matches names at the top only (as a shell's glob does), where grep's
  // include matches them at any depth: its answer of none says where the names are.
  const byName = normalized.includes('/') ? null : globMatcher([normalized], true);
  if (what.kind !== 'directory') {
    // A name alone (package.json) that is not at the top: the same walk looks deeper for it.
    if (byName && result.total === 0 && prefix === normalized) {
      for await (const entry of walk(ctx.workspace, base, { signal, stats, maxEntries: ctx.maxWalkEntries })) {
        result.searched++;
        if (byName(entry.relative)) result.deeper++;
      }
      result.walkLimitHit = stats.limitHit;
    }
    return result;
  }
  const matches = globMatcher([normalized]);
  for await (const entry of walk(ctx.workspace, start.path, { signal, stats, maxEntries: ctx.maxWalkEntries })) {
    result.searched++;
    // Matched in the pattern's own terms (prefix as written), reported by canonical path.
    const below = start.relative ? entry.relative.slice(start.relative.length + 1) : entry.relative;
    if (!matches(prefix ? `${prefix}/${below}` : below)) {
      // Asked only while nothing matched: the count is for the answer that says so.
      if (byName && result.total === 0 && byName(below)) result.deeper++;
      continue;
    }
    if (result.total++ < max) result.paths.push(entry.relative);
  }
  result.walkLimitHit = stats.limitHit;
  return result;
}
