// grep: a JavaScript regular expression over the workspace's text files (no child process, so a
// pattern can never become a flag). Output is compact `path:line: text`.
import { BaseTool, errorResult, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { globMatcher, globPatternProblem, walk, type WalkStats } from '../walk.js';
import { ioError, outsideWorkspace, plural, probe, resolvePath } from './common.js';
import { GrepSearch, type GrepOutcome } from './grep-worker.js';
import { narrowHint, searchedFiles, walkLimitNote } from './search-notes.js';

export const GREP_MAX_MATCHES = 200;
/** A search that takes longer is stopped: most likely a catastrophically backtracking pattern. */
export const GREP_TIME_LIMIT_MS = 30_000;

export interface GrepParams {
  pattern: string;
  path?: string;
  include?: string;
}

export class GrepTool extends BaseTool<GrepParams> {
  readonly name = 'grep';
  readonly displayName = 'Search file contents';
  readonly description = 'Search text files for a JavaScript regex ((?i) prefix: ignore case). Prints path:line: text.';
  readonly parameterSchema = {
    type: 'object',
    properties: {
      pattern: { type: 'string', maxLength: 1000 },
      path: { type: 'string', description: 'Directory or file (default: workspace root)' },
      include: { type: 'string', description: 'File glob, e.g. *.ts or src/**/*.js' },
    },
    required: ['pattern'],
    additionalProperties: false,
  };
  readonly kind = 'search' as const;
  override readonly pathParams = ['path'];

  constructor(private readonly ctx: ToolContext) {
    super();
  }

  protected override validateSemantics(params: GrepParams): string | null {
    const compiled = compileSearchPattern(params.pattern);
    if (typeof compiled === 'string') return compiled;
    if (params.include !== undefined) {
      const problem = globPatternProblem(params.include);
      if (problem) return `include: ${problem}`;
    }
    const resolved = resolvePath(this.ctx, params.path ?? '.');
    return resolved.ok ? null : resolved.reason;
  }

  getDescription(params: GrepParams): string {
    return `grep /${params.pattern}/ in ${params.path ?? '.'}${params.include ? ` (${params.include})` : ''}`;
  }

  async shouldConfirmExecute(): Promise<false> {
    return false;
  }

  async execute(params: GrepParams, signal: AbortSignal): Promise<ToolResult> {
    const compiled = compileSearchPattern(params.pattern);
    if (typeof compiled === 'string') return errorResult('invalid_params', compiled);
    const resolved = resolvePath(this.ctx, params.path ?? '.');
    if (!resolved.ok) return outsideWorkspace(resolved);
    const where = resolved.relative || '.';
    const limitMs = this.ctx.grepTimeLimitMs ?? GREP_TIME_LIMIT_MS;
    const timeLimit = AbortSignal.timeout(limitMs);
    const limited = AbortSignal.any([signal, timeLimit]);
    let search: GrepSearch | null = null;
    const stats: WalkStats = { visited: 0, limitHit: false };
    try {
      const what = probe(resolved.path);
      if (what.kind === 'missing') return errorResult('file_not_found', `'${where}' does not exist`);
      search = new GrepSearch({ ...compiled, maxMatches: GREP_MAX_MATCHES }, limited);
      if (what.kind === 'file') {
        search.add([[resolved.path, resolved.relative]]);
      } else {
        await this.feed(search, resolved.path, params.include, limited, stats);
      }
      const outcome = await search.finish();
      return report(params, where, outcome, stats, null);
    } catch (error) {
      if (signal.aborted) return errorResult('aborted', 'grep was cancelled');
      if (timeLimit.aborted) {
        const partial = search?.partial;
        if (partial && partial.searched > 0) return report(params, where, partial, stats, `grep stopped at its time limit of ${limitMs / 1000} s`);
        return errorResult('timeout', `grep took over ${limitMs / 1000} s (a pattern that backtracks badly?); simplify it or narrow the path`);
      }
      return ioError(`grep in '${where}' failed`, error);
    } finally {
      search?.stop();
    }
  }

  /** Walks and hands files to the search in batches, until the walk ends or enough matches are found. */
  private async feed(search: GrepSearch, start: string, include: string | undefined, signal: AbortSignal, stats: WalkStats): Promise<void> {
    const included = include === undefined ? () => true : globMatcher([include], true);
    let batch: Array<[string, string]> = [];
    const walkOptions = { signal, stats, maxEntries: this.ctx.maxWalkEntries };
    for await (const entry of walk(this.ctx.workspace, start, walkOptions)) {
      if (!included(entry.relative)) continue;
      batch.push([entry.absolute, entry.relative]);
      if (batch.length < FILES_PER_BATCH) continue;
      search.add(batch);
      batch = [];
      if (search.full) return;
    }
    search.add(batch);
  }
}

/** Files handed to the worker at a time: large enough to amortise messages, small enough to overlap. */
const FILES_PER_BATCH = 256;

function report(params: GrepParams, where: string, outcome: GrepOutcome, stats: WalkStats, stoppedBy: string | null): ToolResult {
  const notes: string[] = [];
  const narrow = 'a subdirectory in path, an include glob, or a more specific pattern';
  if (outcome.truncated) notes.push(`[truncated: first ${GREP_MAX_MATCHES} matches; narrow the pattern, path or include]`);
  if (outcome.skipped > 0) notes.push(`[${plural(outcome.skipped, 'file')} skipped: binary or over 1 MB]`);
  const limit = walkLimitNote(stats, where, narrow);
  if (limit) notes.push(limit);
  if (stoppedBy) notes.push(`[partial: ${stoppedBy} after searching ${plural(outcome.searched, 'file')}; the rest was NOT searched; ${narrowHint(narrow)}]`);
  const partial = stats.limitHit || stoppedBy !== null;
  const include = params.include ? ` matching ${params.include}` : '';
  const body = outcome.matches.length
    ? outcome.matches
    : [
        partial
          ? `No matches for /${params.pattern}/ in the ${plural(outcome.searched, 'file')}${include} searched so far under ${where}; the search did not finish (see below), so there may be matches.`
          : `No matches for /${params.pattern}/ in ${where} (${searchedFiles(outcome.searched, include)}).`,
      ];
  return {
    llmContent: [...body, ...notes].join('\n'),
    returnDisplay: `${outcome.matches.length}${outcome.truncated || partial ? '+' : ''} matches in ${where}`,
  };
}

/** `(?i)` at the start means ignore case (models write it from ripgrep habit). */
export function compileSearchPattern(pattern: string): { source: string; flags: string } | string {
  const caseless = pattern.startsWith('(?i)');
  const source = caseless ? pattern.slice(4) : pattern;
  const flags = caseless ? 'i' : '';
  if (source === '') return 'pattern is empty';
  try {
    new RegExp(source, flags);
  } catch (error) {
    return `invalid regular expression: ${(error as Error).message}`;
  }
  return { source, flags };
}
