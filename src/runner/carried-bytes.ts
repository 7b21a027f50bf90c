// A file that is not UTF-8 text (a Latin-1 source, say) is read as UTF-8 for its recorded diff, so
// each byte that is not becomes U+FFFD there, and its content before the chain, taken back from that
// diff, holds U+FFFD where the file had other bytes: hashed for the hand-off's baseline, it matched
// nothing HEAD has, and the chain's change to it was never committed. Its bytes are rebuilt here
// instead, line by line: the lines the run left alone from the file as it is now, byte for byte,
// the lines it removed from the diff (given back only when they hold no U+FFFD).

/** One hunk as jsdiff parses it: `newStart` is 1-based, `lines` start with ' ', '-', '+' or '\'. */
interface Hunk {
  newStart: number;
  lines: string[];
}

/**
 * The file's bytes before `hunks` (one diff's, in order), given its bytes `now`; null when a line
 * the diff removed held bytes it could not show. `expected`: the content before as text (the diff
 * taken back from the file read as UTF-8), which the result must decode to.
 */
export function bytesBefore(hunks: readonly Hunk[], now: Buffer, expected: string): Buffer | null {
  const lines = splitLines(now);
  const out: Buffer[] = [];
  let at = 0;
  for (const hunk of hunks) {
    const start = Math.max(hunk.newStart - 1, 0);
    while (at < start && at < lines.length) out.push(lines[at++]!);
    hunk.lines.forEach((line, i) => {
      const noNewline = hunk.lines[i + 1]?.startsWith('\\') ?? false;
      if (line.startsWith(' ')) out.push(lines[at++] ?? Buffer.alloc(0));
      else if (line.startsWith('+')) at++;
      else if (line.startsWith('-')) out.push(Buffer.from(`${line.slice(1)}${noNewline ? '' : '\n'}`));
    });
  }
  while (at < lines.length) out.push(lines[at++]!);
  const before = Buffer.concat(out);
  // A removed line that held such bytes is lost (U+FFFD in the diff); anything amiss shows here too.
  return before.toString('utf8') === expected && !removedUnreadable(hunks) ? before : null;
}

function removedUnreadable(hunks: readonly Hunk[]): boolean {
  return hunks.some((hunk) => hunk.lines.some((line) => line.startsWith('-') && line.includes('\uFFFD')));
}

/** The lines of `bytes`, each with its line feed (the last without, when the file ends without one). */
function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, i + 1));
    start = i + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}
