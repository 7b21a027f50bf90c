// grep: a JavaScript regular expression over the workspace's text files (no child process, so a
// pattern can never become a flag). Output is compact `path:line: text`.
import { BaseTool, errorResult, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { globMatcher, globPatternProblem, MAX_WALK_ENTRIES, walk, type WalkStats } from '../walk.js';
import { ioError, outsideWorkspace, plural, probe, resolvePath } from './common.js';
import { searchInWorker } from './grep-worker.js';

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
    const timeLimit = AbortSignal.timeout(GREP_TIME_LIMIT_MS);
    const limited = AbortSignal.any([signal, timeLimit]);
    try {
      const what = probe(resolved.path);
      if (what.kind === 'missing') return errorResult('file_not_found', `'${where}' does not exist`);
      const stats: WalkStats = { visited: 0, limitHit: false };
      const files: Array<[string, string]> = [];
      if (what.kind === 'file') {
        files.push([resolved.path, resolved.relative]);
      } else {
        const included = params.include === undefined ? () => true : globMatcher([params.include], true);
        for await (const entry of walk(this.ctx.workspace, resolved.path, { signal: limited, stats })) {
          if (included(entry.relative)) files.push([entry.absolute, entry.relative]);
        }
      }
      const outcome = await searchInWorker({ ...compiled, files, maxMatches: GREP_MAX_MATCHES }, limited);
      const notes: string[] = [];
      if (outcome.truncated) notes.push(`[truncated: first ${GREP_MAX_MATCHES} matches; narrow the pattern, path or include]`);
      if (outcome.skipped > 0) notes.push(`[${plural(outcome.skipped, 'file')} skipped: binary or over 1 MB]`);
      if (stats.limitHit) notes.push(`[search stopped after ${MAX_WALK_ENTRIES} entries]`);
      const body = outcome.matches.length ? outcome.matches : [`No matches for /${params.pattern}/ in ${where}.`];
      return {
        llmContent: [...body, ...notes].join('\n'),
        returnDisplay: `${outcome.matches.length}${outcome.truncated ? '+' : ''} matches in ${where}`,
      };
    } catch (error) {
      if (signal.aborted) return errorResult('aborted', 'grep was cancelled');
      if (timeLimit.aborted) {
        return errorResult('timeout', `grep took over ${GREP_TIME_LIMIT_MS / 1000} s (a pattern that backtracks badly?); simplify it or narrow the path`);
      }
      return ioError(`grep in '${where}' failed`, error);
    }
  }
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
