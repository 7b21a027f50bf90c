// What the listing and search tools tell the model about how far they looked. A search that
// stopped at a cap must never read as "nothing there": it says what it searched, that the result
// is partial, and how to narrow the next call.
import { DEFAULT_OUTPUT_THRESHOLD } from '../tools.js';
import { MAX_WALK_ENTRIES, type WalkStats } from '../walk.js';
import { grouped } from '../../util/plural.js';
import { plural } from './common.js';

/**
 * The characters of result lines a listing or search shows at most: below the loop's cap
 * (DEFAULT_OUTPUT_THRESHOLD), past which a result reaches the model as head and tail and loses
 * its middle, with room left for the notes. 200 matches of 250-character lines, or 500 deep
 * paths, pass 40,000 characters.
 */
export const SEARCH_MAX_CHARS = DEFAULT_OUTPUT_THRESHOLD - 4_000;

/** How many of `lines` fit in SEARCH_MAX_CHARS, a line feed after each. */
export function linesWithinChars(lines: readonly string[], budget = SEARCH_MAX_CHARS): number {
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    used += lines[i]!.length + 1;
    if (used > budget) return i;
  }
  return lines.length;
}

/** What a note adds when the character budget, not the count, cut a result. */
export const CHARS_LIMIT = `the output limit is ${grouped(SEARCH_MAX_CHARS)} characters`;

/** What the walk skips by design, said once so that a negative answer is read correctly. */
export const SKIPPED_BY_DESIGN = 'gitignored paths, .git, node_modules and .unattended are not searched';

/** How to narrow a search that stopped early; `what` names the tool's own knobs. */
export function narrowHint(what: string): string {
  return `narrow it: ${what}`;
}

/** A note for a walk that stopped at its entry limit, or null when it reached the end. */
export function walkLimitNote(stats: WalkStats, where: string, narrow: string): string | null {
  if (!stats.limitHit) return null;
  return `[partial: the search stopped at its limit of ${grouped(stats.limit ?? MAX_WALK_ENTRIES)} entries under ${where}; the rest was NOT searched and may hold more results; ${narrowHint(narrow)}]`;
}

/** "searched 12 files; gitignored paths ... are not searched": what a complete negative answer covered. */
export function searchedFiles(n: number, qualifier = ''): string {
  return `searched ${plural(n, 'file')}${qualifier}; ${SKIPPED_BY_DESIGN}`;
}
