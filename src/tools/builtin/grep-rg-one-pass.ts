// grep through ripgrep in one ripgrep process, for the common case: no include glob and no
// .gitignore above the searched directory, so ripgrep's reading of the tree is the walk's (as in
// grep-rg.ts's two passes, minus the filter). One `--count` pass over every file, told to say all
// the walk needs and print only the few files that matter:
// - `--text` and a second pattern, a NUL byte: a binary file counts as a match, so it is named and
//   judged in JavaScript (skipped, or read if its NUL comes after the first 8 KB), never lost;
// - no `--include-zero`: a file without a match prints nothing, and `--stats` says how many files
//   were searched, so the text files without a match are that number minus the files printed;
// - `--debug`: ripgrep logs each file it skips for size ("ignoring PATH: N bytes"; the walk counts
//   it as skipped) and each `.git` it skips (a file: the walk searches it; a directory below the
//   search: a nested repository, where ripgrep stops applying the .gitignore files above it, so
//   the two passes and their filter take over). Only skipped entries are logged, never every file
//   searched; but every file a .gitignore rule leaves out (or takes back) is, naming the ignore
//   file whose rule decided (which grep-rg.ts checks: see grep-rg-ignore-files.ts), a line each
//   written in some 60 pieces (~55 µs): 20,000 `*.js` beside their `.ts` made a search that found
//   nothing take 1.6-2.7 s against 0.1-0.2 s for the same ripgrep without --debug. So past
//   DEBUG_LOG_BUDGET of log this pass is stopped and the JavaScript walk searches instead (0.34-0.40
//   s there; the two passes, which log the same lines in their listing, would too).
// Whatever of this is missing or does not add up (another ripgrep version's wording, say), the two
// passes search instead: never a count that is off.
// Saves, on the 616 MB / 28,700-file tree: the second walk of `--files`, a record per file in
// each output, and the parsing of both (together about a third of the CPU time of a search).
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { MAX_GREP_FILE_BYTES } from './grep-worker.js';
import { IgnoreRules } from '../walk.js';
import type { RipgrepListing, RipgrepSearch } from './grep-rg.js';
import { RipgrepPaths, unreadableInLog, withoutDotSlash } from './grep-rg-output.js';
import { ruleSourcesInLog } from './grep-rg-ignore-files.js';
import { fsPath, joinPath, shownText } from '../path-bytes.js';
import { COMMON_PATTERN_FILES, CountStream, run, sortInWalkOrder, type RipgrepProcess } from './grep-rg-process.js';

/**
 * The `--debug` log this pass may write before it gives way to the two passes: the log's own
 * lines and a thousand or so skipped entries (~50 ms of ripgrep's time writing them).
 */
export const DEBUG_LOG_BUDGET = 256 * 1024;

/** A NUL byte, in the Rust syntax ripgrep reads. */
const NUL_PATTERN = '(?-u:\\x00)';

/**
 * The listing, null for the JavaScript walk (the pattern was refused, or is common), or 'two
 * passes' when this pass cannot tell the whole story.
 */
export async function onePass(
  search: RipgrepSearch,
  { common, where, process }: { common: string[]; where: string[]; process: RipgrepProcess },
): Promise<RipgrepListing | null | 'two passes'> {
  const counted = new CountStream();
  // `--glob=!.git` (not `.git/`): a .git file is skipped too, so that the log names it.
  const flags = common.map((flag) => (flag === '--glob=!.git/' ? '--glob=!.git' : flag));
  const args = [
    ...flags, '--debug', '--stats', '--text', '--count', '--max-count', '1', `--regexp=${NUL_PATTERN}`,
    '--max-filesize', String(MAX_GREP_FILE_BYTES), `--regexp=${search.regex}`, ...where,
  ];
  const counting = await run(process, args, (chunk) => counted.add(chunk) > COMMON_PATTERN_FILES, DEBUG_LOG_BUDGET);
  search.signal.throwIfAborted();
  if (counting.overBudget) return null;
  if (counting.stopped || counting.code === null) return null;
  // A name that is not UTF-8: the JavaScript walk, which reads it as bytes, searches (path-bytes.ts).
  if (!isUtf8(counted.output())) return null;
  const output = counted.output().toString('utf8');
  const stats = /\n(\d+) files contained matches\n(\d+) files searched\n[^\0]*$/.exec(output);
  // Exit 2 without statistics: the pattern was refused.
  if (!stats) return counting.code === 2 ? null : 'two passes';
  const lastRecord = output.lastIndexOf('\0', stats.index);
  const printed = RipgrepPaths.parseText(lastRecord < 0 ? '' : output.slice(0, output.indexOf('\n', lastRecord) + 1), true);
  const skipped = parseDebugLog(counting.stderr);
  if (!skipped || printed.length !== Number(stats[1]) || printed.matchedCount !== printed.length) return 'two passes';
  const unreadable = unreadableInLog(counting.stderr, search.workspace.root);
  const ruleSources = ruleSourcesInLog(counting.stderr);
  if (!unreadable || !ruleSources) return null;

  const unjudged = new Set<string>(skipped.oversized);
  for (const gitEntry of skipped.git) {
    const dir = gitEntry.slice(0, Math.max(0, gitEntry.lastIndexOf('/')));
    if (dir !== search.startRelative) return 'two passes'; // a nested repository
    // A `.git` file (a linked work tree) the walk searches, unless the .gitignore beside it ignores it.
    if (isFile(joinPath(search.workspace.root, fsPath(gitEntry))) && !(await IgnoreRules.forDirectory(search.workspace, search.start)).ignores(gitEntry, false)) unjudged.add(gitEntry);
  }
  // Files with a match may be binary (the NUL pattern): judged first too (see feedListing).
  for (let i = 0; i < printed.length; i++) unjudged.add(printed.name(i));
  return { toRead: sortInWalkOrder([...unjudged]), unjudged, emptyTextFiles: Number(stats[2]) - printed.length, unreadable, ruleSources };
}

/** The files ripgrep skipped for size and the `.git` entries it skipped, or null if the log is not understood. */
function parseDebugLog(log: string): { oversized: string[]; git: string[] } | null {
  // `DEBUG|target|file:line: message`; ripgrep 14 puts `rg: ` first. The messages are the ignore
  // crate's, worded so since 2017.
  if (!/^(?:rg: )?DEBUG\|/.test(log)) return null;
  const oversized: string[] = [];
  const git: string[] = [];
  for (const line of log.split('\n')) {
    const size = /^(?:rg: )?DEBUG\|.*?: ignoring (.+): \d+ bytes$/.exec(line);
    const skippedGit = /^(?:rg: )?DEBUG\|.*?: ignoring (.+?): Ignore\(IgnoreMatch\(Override\(/.exec(line);
    // The log shows a name that is not UTF-8 with U+FFFD in it: it cannot be read back.
    if ((size ?? skippedGit)?.[1]!.includes('\ufffd')) return null;
    if (size) oversized.push(shownText(withoutDotSlash(size[1]!)));
    if (skippedGit && (skippedGit[1] === '.git' || skippedGit[1]!.endsWith('/.git'))) git.push(shownText(withoutDotSlash(skippedGit[1]!)));
  }
  return { oversized, git };
}

function isFile(absolute: string | Buffer): boolean {
  try {
    return fs.lstatSync(absolute).isFile();
  } catch {
    return false;
  }
}
