// grep: a JavaScript regular expression over the workspace's text files. Output is compact
// `path:line: text`. With ripgrep on PATH, ripgrep finds the files to read (grep-rg.ts); without
// it, the JavaScript walk does. Either way the lines are matched by the same workers
// (grep-worker.ts), so both give the same answer; ripgrep gives it several times faster.
import { BaseTool, errorResult, type ToolResult } from '../tools.js';
import type { ToolContext } from '../context.js';
import { globMatcher, globPatternProblem, IgnoreRules, walk, type WalkStats } from '../walk.js';
import { picomatchLib } from '../../util/globs.js';
import { ioError, notRegularFile, outsideWorkspace, plural, probe, readHead, resolvePath } from './common.js';
import { utf16Of } from './text-encoding.js';
import { compileSearchPattern, spellsLineBreak, type SearchPattern } from './grep-pattern.js';
import { toRustRegex } from './grep-regex.js';
import { withChangeableLines } from './grep-unicode-forms.js';
import { findRipgrep, ripgrepListing, type RipgrepListing } from './grep-rg.js';
import { linearCapable } from './grep-caseless.js';
import { lineSuperset } from './grep-prefilter.js';
import { GrepSearch, judgeUnread, REGEX_SYNTAX, type FileStatus, type GrepOutcome } from './grep-worker.js';
import { CHARS_LIMIT, linesWithinChars, narrowHint, searchedFiles, walkLimitNote } from './search-notes.js';
import { KEPT_CREDENTIALS, UnreadablePaths } from '../unreadable-paths.js';
import { byteNamedDirectory, byteNamedDirectoryProblem, byteNamedFile, fsPath, joinPath } from '../path-bytes.js';

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

  // The note on files over 1 MB points at the shell only when the agent calling has one.
  override forTools(names: readonly string[]): GrepTool {
    return new GrepTool({ ...this.ctx, offered: names });
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
    // Directories the walk could not list, and what ripgrep could not read.
    const stats: WalkStats = { visited: 0, limitHit: false, unreadable: new UnreadablePaths() };
    // Text files ripgrep searched and found nothing in: never read again, but searched all the same.
    let unread = 0;
    const counted = (outcome: GrepOutcome): GrepOutcome => ({ ...outcome, searched: outcome.searched + unread });
    try {
      let what = probe(resolved.path);
      // A name grep itself showed with \xHH for bytes that are not UTF-8 (path-bytes.ts).
      const raw = what.kind === 'missing' ? byteNamedFile(resolved.path) : null;
      // That name was not checked as another name (a hard link) of a credential file: it is now.
      const kept = raw ? this.ctx.workspace.keptByIdentity(raw, where) : null;
      if (kept) return errorResult('permission_denied', kept);
      if (raw) what = probe(raw);
      if (what.kind === 'missing' && byteNamedDirectory(resolved.path)) return errorResult('file_not_found', byteNamedDirectoryProblem(where, 'grep', this.ctx.offered));
      if (what.kind === 'missing') return errorResult('file_not_found', `'${where}' does not exist`);
      // A named pipe or socket is no file to search: 'No matches … searched 0 files' read as an answer.
      if (what.kind === 'other') return errorResult('not_a_file', notRegularFile(where, resolved.path));
      const includes = params.include === undefined ? undefined : includeGlobs(params.include, resolved.relative);
      const included = includes === undefined ? () => true : globMatcher(includes, true);
      // Credentials kept from the tools below the start (Workspace.keptAt): the walk leaves them
      // out by name, which ripgrep's listing is not filtered for; such trees are rare and small.
      // Nor where a credential file has another name (a hard link) that could lie anywhere below.
      const ripgrep = what.kind === 'directory' && !this.ctx.workspace.keepsBelow(resolved.relative) && !this.ctx.workspace.mayHoldLinkedCredentials() ? this.ripgrep(compiled) : null;
      // ripgrep that has not answered in half the time (a tree too big, or a stall /proc cannot
      // show) is given up: the JavaScript walk then searches with the other half.
      const giveUp = AbortSignal.timeout(limitMs / 2);
      const listing = ripgrep
        ? await ripgrepListing({ ...ripgrep, workspace: this.ctx.workspace, start: resolved.path, startRelative: resolved.relative, include: includes, included, signal: limited, giveUp })
        : null;
      // Nothing for the workers to read (ripgrep found no match and no file it could not judge): none is started.
      if (listing) stats.unreadable!.addAll(listing.unreadable);
      if (listing?.toRead.length === 0) return report(params, where, { matches: [], matchFiles: [], skipped: 0, tooLarge: 0, tooLargeNames: [], searched: listing.emptyTextFiles, truncated: false, unreadable: [] }, stats, null, await this.includeHint(params, resolved.relative, listing.emptyTextFiles), this.ctx.offered);
      // A file named by path is searched even when binary, as ripgrep and grep search it.
      const searchBinary = what.kind === 'file';
      search = new GrepSearch({ ...linearCapable(compiled, REGEX_SYNTAX), prefilter: lineSuperset(compiled.source, compiled.flags), maxMatches: GREP_MAX_MATCHES, searchBinary }, limited);
      if (what.kind === 'file') {
        search.add([[raw ?? resolved.path, resolved.relative]]);
      } else if (listing) {
        unread = listing.emptyTextFiles;
        this.feedListing(search, listing);
      } else {
        await this.feed(search, resolved.path, included, limited, stats);
      }
      const outcome = counted(await search.finish());
      const binary = searchBinary ? binaryVerdict(params.pattern, where, raw ?? resolved.path, outcome, this.ctx.offered) : null;
      if (binary) return binary;
      return report(params, where, outcome, stats, null, outcome.matches.length ? null : await this.includeHint(params, resolved.relative, outcome.searched + outcome.skipped), this.ctx.offered);
    } catch (error) {
      if (signal.aborted) return errorResult('aborted', 'grep was cancelled');
      if (timeLimit.aborted) {
        const partial = search ? counted(search.partial) : null;
        if (partial && partial.searched > 0) return report(params, where, partial, stats, `grep stopped at its time limit of ${limitMs / 1000} s`, null, this.ctx.offered);
        return errorResult('timeout', `grep took over ${limitMs / 1000} s (a pattern that backtracks badly?); simplify it or narrow the path`);
      }
      return ioError(`grep in '${where}' failed`, error);
    } finally {
      search?.stop();
    }
  }

  /**
   * For an include that matched no file and names a directory ('src', 'src/'), what to write
   * instead: the answer "searched 0 files matching src" read as "nothing in src".
   */
  private async includeHint(params: GrepParams, startRelative: string, files: number): Promise<string | null> {
    if (params.include === undefined || files > 0) return null;
    if (/[*?[\]{}!]/.test(params.include)) return this.ignoredIncludeHint(params.include, startRelative);
    const name = params.include.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
    if (name === '' || name === '.') return null;
    for (const base of startRelative ? [startRelative, ''] : ['']) {
      const resolved = resolvePath(this.ctx, base ? `${base}/${name}` : name);
      if (!resolved.ok || probe(resolved.path).kind !== 'directory') continue;
      const dir = resolved.relative;
      return `include is a file glob, and '${params.include}' names the directory ${dir}/: give it as path ('${dir}'), or write the include as '${dir}/**'`;
    }
    return null;
  }

  /**
   * For an include that matched no file and whose literal directory ('build' of 'build/*.js') a
   * search from above leaves out, gitignored or always skipped: what searches it. 'searched 0
   * files matching build/*.js' read as 'none there', while glob, and grep given that directory as
   * path, find its files (a directory named is searched though ignored).
   */
  private async ignoredIncludeHint(include: string, startRelative: string): Promise<string | null> {
    const prefix = picomatchLib().scan(include.replace(/^(\.\/)+/, '')).base;
    if (prefix === '') return null;
    for (const base of startRelative ? [startRelative, ''] : ['']) {
      const resolved = resolvePath(this.ctx, base ? `${base}/${prefix}` : prefix);
      if (!resolved.ok || probe(resolved.path).kind !== 'directory') continue;
      if (resolved.relative === startRelative || !(await IgnoreRules.leftOut(this.ctx.workspace, resolved.path))) return null;
      const dir = resolved.relative;
      const segments = dir.split('/');
      // The runner's own outputs and git's database are no search's business, named or not.
      if (segments.includes('.git') || segments.includes('.unattended')) return null;
      const why = segments.includes('node_modules') ? 'node_modules is searched only when named' : 'it is gitignored';
      return `${dir}/ was not searched (${why}): give it as path ('${dir}') to search it`;
    }
    return null;
  }

  /**
   * ripgrep and the pattern it reads, or null to search in JavaScript: ripgrep is not on PATH, the
   * context asks for JavaScript, the pattern has no sound Rust form, or the walk's entry cap was
   * lowered (a cap of the JavaScript walk; ripgrep's search has none but the time limit).
   */
  private ripgrep(compiled: SearchPattern): { rg: string; regex: string } | null {
    if (this.ctx.grepEngine === 'javascript' || this.ctx.maxWalkEntries !== undefined) return null;
    const rg = findRipgrep(this.ctx.env.PATH ?? process.env.PATH, this.ctx.workspace.root);
    const regex = rg ? toRustRegex(compiled.source, compiled.flags.includes('i')) : null;
    return rg && regex !== null ? { rg, regex: withChangeableLines(regex, compiled.forms ?? []) } : null;
  }

  /**
   * Hands ripgrep's files to the search in batches, in walk order, until enough matches are found.
   * The files ripgrep did not judge may be binary or large: they are judged here first (see
   * judgeUnread), so a search where only those are left starts no worker at all; once one needs
   * its lines read, a worker starts anyway and the rest are left to the workers.
   */
  private feedListing(search: GrepSearch, listing: RipgrepListing): void {
    const root = this.ctx.workspace.root;
    let judgedHere = 0;
    let workerNeeded = false;
    const items = listing.toRead.map((relative): [FileStatus, string] | [string | Buffer, string] => {
      const absolute = joinPath(root, fsPath(relative));
      const verdict = !workerNeeded && listing.unjudged.has(relative) && judgedHere++ < MAX_JUDGED_HERE ? judgeUnread(absolute) : null;
      workerNeeded ||= verdict === null;
      return verdict === null ? [absolute, relative] : [verdict, relative];
    });
    const isJudged = (item: [FileStatus, string] | [string | Buffer, string]): item is [FileStatus, string] => typeof item[0] === 'number';
    const toRead = items.filter((item) => !isJudged(item)).length;
    // These are few as a rule (files with a match): small batches keep every worker busy, and a
    // file that makes the pattern backtrack for ages holds back only its own batch.
    const size = Math.min(FILES_PER_BATCH, Math.max(1, Math.ceil(toRead / 64)));
    let files: Array<[string | Buffer, string]> = [];
    let judged: FileStatus[] = [];
    let judgedNames: string[] = [];
    for (const item of items) {
      if (search.full) return;
      if (isJudged(item)) {
        if (files.length) search.add(files);
        files = [];
        judged.push(item[0]);
        judgedNames.push(item[1]);
        continue;
      }
      if (judged.length) search.addJudged(judged, judgedNames);
      judged = [];
      judgedNames = [];
      files.push(item);
      if (files.length < size) continue;
      search.add(files);
      files = [];
    }
    search.add(files);
    search.addJudged(judged, judgedNames);
  }

  /** Walks and hands files to the search in batches, until the walk ends or enough matches are found. */
  private async feed(search: GrepSearch, start: string, included: (relative: string) => boolean, signal: AbortSignal, stats: WalkStats): Promise<void> {
    let batch: Array<[string | Buffer, string]> = [];
    const walkOptions = { signal, stats, maxEntries: this.ctx.maxWalkEntries };
    const byIdentity = this.ctx.workspace.mayHoldLinkedCredentials();
    for await (const entry of walk(this.ctx.workspace, start, walkOptions)) {
      if (!included(entry.relative)) continue;
      if (this.ctx.workspace.keptAt(entry.relative) !== null || (byIdentity && this.ctx.workspace.keptByIdentity(entry.absolute, entry.relative) !== null)) {
        stats.unreadable?.add(entry.relative, false, KEPT_CREDENTIALS);
        continue;
      }
      batch.push([entry.absolute, entry.relative]);
      if (batch.length < FILES_PER_BATCH) continue;
      search.add(batch);
      batch = [];
      if (search.full) return;
    }
    search.add(batch);
  }
}

/**
 * The globs an include stands for, on workspace-relative paths. One with a '/' is read from the
 * workspace root, and from the searched directory too, as other agents' grep reads it: with path
 * 'src', include 'deep/*.ts' found nothing ('searched 0 files'), though src/deep held such files.
 * A directory whose name a glob would read as syntax is not added.
 */
function includeGlobs(include: string, startRelative: string): string[] {
  if (!include.includes('/') || startRelative === '' || /[\\*?[\]{}()!]/.test(startRelative)) return [include];
  return [include, `${startRelative}/${include.replace(/^(\.\/)+/, '')}`];
}

/**
 * The answer for a binary file named by path: whether it matches, as ripgrep's 'binary file
 * matches'. 'No matches … searched 0 files, [1 binary file skipped]' told the model nothing.
 */
function binaryVerdict(pattern: string, where: string, file: string | Buffer, outcome: GrepOutcome, offered: readonly string[] | undefined): ToolResult | null {
  const matches = (outcome.binaryMatches?.length ?? 0) > 0;
  if (!matches && (outcome.skipped !== 1 || outcome.tooLarge !== 0)) return null;
  // UTF-16 text (a PowerShell or Visual Studio file) has NUL bytes, but is no binary file: its
  // text is not the bytes a UTF-8 pattern looks for, and 'No matches' read as 'not in there'.
  const utf16 = utf16Of(readHead(file, 4));
  if (utf16) {
    const way = offered === undefined || offered.includes('read_file') ? '; read it with read_file, which decodes it' : '';
    const text = `${where} is ${utf16.toUpperCase()} text, which grep does not search (it searches UTF-8 text): it was not searched${way}.`;
    return { llmContent: text, returnDisplay: `${where} not searched (UTF-16)` };
  }
  const text = matches
    ? `Binary file ${where} matches /${pattern}/ (the lines of a binary file are not shown).`
    : `No matches for /${pattern}/ in ${where} (a binary file, searched whole).`;
  return { llmContent: text, returnDisplay: matches ? `binary file ${where} matches` : `0 matches in ${where}` };
}

/** Files handed to the worker at a time: large enough to amortise messages, small enough to overlap. */
const FILES_PER_BATCH = 256;
/**
 * At most this many files ripgrep left out are judged on this thread (a stat and an 8 KB read
 * each, some 20 µs); past that, a tree full of binaries is left to the workers, which judge in
 * parallel and keep the event loop free.
 */
const MAX_JUDGED_HERE = 2000;

function report(params: GrepParams, where: string, found: GrepOutcome, stats: WalkStats, stoppedBy: string | null, includeHint: string | null, offered: readonly string[] | undefined): ToolResult {
  const notes: string[] = [];
  const narrow = 'a subdirectory in path, an include glob, or a more specific pattern';
  const outcome = withinOutputLimit(found);
  if (outcome.truncated && outcome.matches.length < found.matches.length) {
    notes.push(`[truncated: first ${outcome.matches.length} matches (${CHARS_LIMIT}); narrow the pattern, path or include]`);
  } else if (outcome.truncated) notes.push(`[truncated: first ${GREP_MAX_MATCHES} matches; narrow the pattern, path or include]`);
  // Over 1 MB is a cap, not a kind of file: those are named, and the model told how to search them.
  if (outcome.tooLarge > 0) {
    const more = outcome.tooLarge > outcome.tooLargeNames.length ? `, and ${outcome.tooLarge - outcome.tooLargeNames.length} more` : '';
    notes.push(`[${plural(outcome.tooLarge, 'file')} over 1 MB not searched: ${outcome.tooLargeNames.join(', ')}${more}${bigFilesWay(outcome.tooLarge === 1 ? 'it' : 'them', offered)}]`);
  }
  const binary = outcome.skipped - outcome.tooLarge;
  if (binary > 0) notes.push(`[${plural(binary, 'binary file')} skipped]`);
  const unreadable = unreadableMet(outcome, stats);
  if (unreadable) notes.push(unreadable);
  const limit = walkLimitNote(stats, where, narrow);
  if (limit) notes.push(limit);
  if (stoppedBy) notes.push(`[partial: ${stoppedBy} after searching ${plural(outcome.searched, 'file')}; the rest was NOT searched; ${narrowHint(narrow)}]`);
  const partial = stats.limitHit || stoppedBy !== null;
  if (outcome.matches.length === 0 && spellsLineBreak(params.pattern)) {
    notes.push('[grep matches one line at a time, without its line break: the \\n in the pattern matches no line; search for one line of the text]');
  }
  const include = params.include ? ` matching ${params.include}` : '';
  const body = outcome.matches.length
    ? outcome.matches
    : [
        partial
          ? `No matches for /${params.pattern}/ in the ${plural(outcome.searched, 'file')}${include} searched so far under ${where}; the search did not finish (see below), so there may be matches.`
          : outcome.tooLarge > 0
            ? `No matches for /${params.pattern}/ in the ${plural(outcome.searched, 'file')}${include} searched under ${where}; ${plural(outcome.tooLarge, 'file')} over 1 MB ${outcome.tooLarge === 1 ? 'was' : 'were'} not searched (see below), so there may be matches.`
            : `No matches for /${params.pattern}/ in ${where} (${searchedFiles(outcome.searched, include)}).${includeHint ? ` ${includeHint}.` : ''}`,
      ];
  return {
    llmContent: [...body, ...notes].join('\n'),
    returnDisplay: `${outcome.matches.length}${outcome.truncated || partial ? '+' : ''} matches in ${where}`,
    ...(outcome.matches.length ? { linesOf: outcome.matchFiles } : {}),
    ...(outcome.truncated || partial || outcome.tooLarge > 0 ? { truncated: true as const } : {}),
  };
}

/** The matches that fit in the output limit (search-notes.ts): a result cut there is truncated. */
/**
 * How to search files over 1 MB with what the calling agent has (a sub-agent's list, plan mode
 * before the plan): the shell, else read_file page by page, else nothing. Unknown (`offered`
 * unset, a tool made alone): the shell.
 */
function bigFilesWay(them: string, offered: readonly string[] | undefined): string {
  if (offered === undefined || offered.includes('shell')) return `; search ${them} with the shell (grep -n PATTERN FILE)`;
  return offered.includes('read_file') ? `; read ${them} with read_file, a page at a time` : '';
}

function withinOutputLimit(outcome: GrepOutcome): GrepOutcome {
  const shown = linesWithinChars(outcome.matches);
  if (shown === outcome.matches.length) return outcome;
  return { ...outcome, matches: outcome.matches.slice(0, shown), matchFiles: outcome.matchFiles.slice(0, shown), truncated: true };
}

/**
 * The note on what could not be read: directories the walk could not list or ripgrep reported, and
 * files the workers could not open. A search cut at the match cap names only those met before its
 * last match, as a walk that stopped there met them, whichever engine looked.
 */
function unreadableMet(outcome: GrepOutcome, stats: WalkStats): string | null {
  const all = new UnreadablePaths();
  if (stats.unreadable) all.addAll(stats.unreadable);
  for (const [relative, code] of outcome.unreadable) all.add(relative, false, code);
  const last = outcome.matchFiles[outcome.matchFiles.length - 1];
  return (outcome.truncated && last !== undefined ? all.before(last) : all).note();
}
