// Reading ripgrep's outputs for grep-rg.ts: the `--files` list (`path NUL` each) and the
// `--count` records (`path NUL count LF` each; a path may hold a newline, never a NUL). A tree of
// 28,700 files prints 28,700 of each in the two passes, and per-path work there costs more than
// ripgrep's own search of a small file: each directory is looked up once per run of paths in it,
// and the files ripgrep listed but did not count (binary, over 1 MB, unreadable: usually a
// handful) are found by comparing per-directory totals first and names only inside the
// directories whose totals differ, not through a set of every path. And ripgrep's messages, for
// the paths it could not read.
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import os from 'node:os';
import { UnreadablePaths } from '../unreadable-paths.js';
import { fsPath, joinPath, shownText } from '../path-bytes.js';

/** The paths of one ripgrep output, workspace-relative (ripgrep's `./` dropped). */
export class RipgrepPaths {
  readonly names: string[] = [];
  /** Index in `dirs` of each path's directory. */
  readonly dirOf: number[] = [];
  /** The directories, each once ('' for the top level). */
  readonly dirs: string[] = [];
  readonly dirIndex = new Map<string, number>();
  /** Per path: counted with a match (always false in a `--files` list). */
  readonly matched: boolean[] = [];
  matchedCount = 0;

  get length(): number {
    return this.names.length;
  }

  name(i: number): string {
    return this.names[i]!;
  }

  /**
   * `--files` output, or with `counts` `--count` records (their text: see parseText); null when a
   * name is not UTF-8 (the JavaScript walk, which reads it as bytes, searches instead).
   */
  static parse(bytes: Buffer, counts: boolean): RipgrepPaths | null {
    return isUtf8(bytes) ? RipgrepPaths.parseText(bytes.toString('utf8'), counts) : null;
  }

  static parseText(text: string, counts: boolean): RipgrepPaths {
    const out = new RipgrepPaths();
    // Native splits and searches: cheaper than a JavaScript loop over the bytes, which runs
    // interpreted on a search's first call.
    const records = text.split(counts ? '\n' : '\0');
    records.pop(); // after the last separator
    let dir = '';
    let dirId = -1;
    let pending = '';
    for (let record of records) {
      if (counts) {
        const nul = record.lastIndexOf('\0');
        if (nul < 0) {
          pending += `${record}\n`; // a line feed inside a path
          continue;
        }
        const matched = record.charCodeAt(nul + 1) !== 0x30; // with --max-count 1 the count is 0 or 1
        record = pending + record.slice(0, nul);
        pending = '';
        out.matched.push(matched);
        if (matched) out.matchedCount++;
      } else {
        out.matched.push(false);
      }
      const name = shownText(withoutDotSlash(record));
      const slash = name.lastIndexOf('/');
      // Paths come mostly grouped by directory: compared with the last one's before a lookup.
      if (dirId < 0 || slash !== dir.length || !name.startsWith(dir)) {
        dir = slash < 0 ? '' : name.slice(0, slash);
        dirId = out.dirIndex.get(dir) ?? out.dirs.push(dir) - 1;
        out.dirIndex.set(dir, dirId);
      }
      out.names.push(name);
      out.dirOf.push(dirId);
    }
    return out;
  }
}

/** A path as ripgrep prints it under `.` (`./x`), workspace-relative (`x`). */
export function withoutDotSlash(relative: string): string {
  return relative.startsWith('./') ? relative.slice(2) : relative;
}

/** Indexes in `listed` of the paths `counted` does not hold. */
export function notCounted(listed: RipgrepPaths, counted: RipgrepPaths): Set<number> {
  const missing = new Set<number>();
  if (listed.length === counted.length) return missing; // counted ⊆ listed: the same walk
  // The listed directory of each counted directory (-1: not listed, a file that appeared since).
  const dirMap = counted.dirs.map((dir) => listed.dirIndex.get(dir) ?? -1);
  const perDir = new Array<number>(listed.dirs.length).fill(0);
  for (const dir of listed.dirOf) perDir[dir]!++;
  for (const dir of counted.dirOf) if (dirMap[dir]! >= 0) perDir[dirMap[dir]!]!--;
  const differs = new Set(perDir.flatMap((n, dir) => (n === 0 ? [] : [dir])));
  if (differs.size === 0) return missing;
  const names = new Set<string>();
  for (let i = 0; i < counted.length; i++) {
    if (differs.has(dirMap[counted.dirOf[i]!]!)) names.add(counted.name(i));
  }
  for (let i = 0; i < listed.length; i++) {
    if (differs.has(listed.dirOf[i]!) && !names.has(listed.name(i))) missing.add(i);
  }
  return missing;
}

/**
 * The files and directories ripgrep could not read, from its messages (`PATH: Permission denied
 * (os error 13)`; ripgrep 14 puts `rg: ` first), as the walk would name them: workspace-relative,
 * links left out (the walk never reads through one; ripgrep does for an ignore file). Null when a
 * message names no such path: a name holding a line feed, split over two lines, cannot be told
 * apart, and the JavaScript walk should search instead.
 */
export function unreadableInLog(log: string, root: string): UnreadablePaths | null {
  const unreadable = new UnreadablePaths();
  for (const line of log.split('\n')) {
    const message = /^(?:rg: )?(.+): [^:\n]+ \(os error (\d+)\)$/.exec(line);
    if (!message || /^(?:rg: )?DEBUG\|/.test(line)) continue;
    const code = errnoName(Number(message[2]));
    if (code === 'ENOENT' || code === 'ENOTDIR') continue; // vanished since it was listed
    const relative = shownText(withoutDotSlash(message[1]!));
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(joinPath(root, fsPath(relative)));
    } catch {
      return null;
    }
    if (stat.isFile() || stat.isDirectory()) unreadable.add(relative, stat.isDirectory(), code);
  }
  return unreadable;
}

let errnoNames: Map<number, string> | undefined;

/** `13` -> `EACCES`, as node names the error the walk gets. */
function errnoName(errno: number): string {
  errnoNames ??= new Map(Object.entries(os.constants.errno).map(([name, n]) => [n, name]));
  return errnoNames.get(errno) ?? `errno ${errno}`;
}
