// Line continuations (backslash-newline) where bash and tree-sitter-bash could split words apart.
// Bash deletes every continuation before it splits words, so `git status\<newline>#;touch x` is
// `git status#;touch x`: two commands, the second one `touch x`. tree-sitter-bash reads a
// continuation as a blank between tokens and sees `git status` and a comment. The two readings
// agree exactly when deleting the continuation joins nothing: when a blank (or the start or end of
// the line) sits on at least one side of it. Any other continuation is refused, not re-joined: the
// policy then never depends on rebuilding bash's lexer (quotes, comments, heredoc bodies) itself.
import type { Node } from 'web-tree-sitter';
import { clip } from './clip.js';

/** Where bash keeps a backslash-newline as it is: single quotes, quoted heredoc bodies, comments. */
const VERBATIM_TYPES = ['raw_string', 'heredoc_body', 'comment'];

const BLANK = /[ \t\n]/;

/**
 * Why a line continuation in `source` may join two words for bash that the parse of `root` keeps
 * apart, or null. A run of continuations (`a \<newline>\<newline>b`) is judged as one.
 */
export function continuationProblem(source: string, root: Node): string | null {
  const verbatim = root.descendantsOfType(VERBATIM_TYPES).map((node) => [node.startIndex, node.endIndex] as const);
  const isVerbatim = (index: number) => verbatim.some(([start, end]) => index >= start && index < end);
  for (let index = source.indexOf('\\\n'); index >= 0; index = source.indexOf('\\\n', index + 2)) {
    if (isVerbatim(index) || escapedBackslash(source, index)) continue;
    let end = index + 2;
    while (source.startsWith('\\\n', end) && !isVerbatim(end)) end += 2;
    const before = source[index - 1];
    const after = source[end];
    // A line that starts with a continuation: bash ends the command at the newline before it,
    // tree-sitter-bash reads on (`ls⏎\⏎touch x` is `ls touch x` to it, two commands to bash).
    if (before === '\n') {
      return `it has a line that starts with a line continuation (backslash-newline), in '${clip(around(source, index, end))}': bash ends the command at the newline before it, where the parser reads on. Remove the backslash`;
    }
    // A blank a backslash escapes (`a\ \⏎x`) is part of the word, and joins it with what follows.
    const blankBefore = before !== undefined && BLANK.test(before) && backslashesBefore(source, index - 1) % 2 === 0;
    if (before !== undefined && after !== undefined && !blankBefore && !BLANK.test(after)) {
      return (
        `it has a line continuation (backslash-newline) with no blank on either side, in '${clip(around(source, index, end))}': ` +
        `bash deletes it and joins what is on both sides into one word, where the policy would read two. ` +
        `Put a space before the backslash, or write the command on one line`
      );
    }
    index = end - 2;
  }
  return null;
}

/** The words that touch the continuation from `start` to `end`, for the reason. */
function around(source: string, start: number, end: number): string {
  const head = /\S{0,30}$/.exec(source.slice(0, start))![0];
  const tail = /^\S{0,30}/.exec(source.slice(end))![0];
  return `${head}${source.slice(start, end)}${tail}`;
}

/**
 * `a\\<newline>`: the backslash before the newline is itself quoted by the one before it (an odd
 * number of backslashes before it), so the newline is a real one and nothing is joined.
 */
function escapedBackslash(source: string, index: number): boolean {
  return backslashesBefore(source, index) % 2 === 1;
}

/** How many backslashes stand right before `index`. */
function backslashesBefore(source: string, index: number): number {
  let run = 0;
  while (index - run - 1 >= 0 && source[index - run - 1] === '\\') run++;
  return run;
}
