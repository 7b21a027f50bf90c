// Paths a listing or search tool met but could not read: a directory it could not list, a file it
// could not open (permission denied, an I/O error). They are said in a note, never dropped: a
// search that could not look must not read as "nothing there". A path that vanished since it was
// listed (ENOENT, ENOTDIR) is not among them: there is nothing left to read.
import { plural } from '../util/plural.js';

/** Names shown in the note; past that, only their number. */
const NAMES_SHOWN = 20;

const GONE = new Set(['ENOENT', 'ENOTDIR']);

/** The code of a file the tools keep away from because it holds credentials (Workspace.keptAt). */
export const KEPT_CREDENTIALS = 'CREDENTIALS';
const REASONS: Readonly<Record<string, string>> = { EACCES: 'permission denied', EPERM: 'permission denied', [KEPT_CREDENTIALS]: 'credentials, kept from the tools' };

export class UnreadablePaths {
  /** Workspace-relative path (a directory with a trailing `/`) -> error code. */
  private readonly codes = new Map<string, string>();

  /** A file, or a directory when `directory` (shown with a trailing `/`; '' is the workspace root). */
  add(relative: string, directory: boolean, code: string | undefined): void {
    if (code !== undefined && GONE.has(code)) return;
    this.codes.set(directory ? `${relative || '.'}/` : relative, code ?? 'EIO');
  }

  addAll(paths: UnreadablePaths): void {
    for (const [path, code] of paths.codes) this.codes.set(path, code);
  }

  get size(): number {
    return this.codes.size;
  }

  /**
   * Only those before `relative` in walk order: what a search that stopped there had met (a
   * directory sorts before what it holds).
   */
  before(relative: string): UnreadablePaths {
    const kept = new UnreadablePaths();
    const limit = walkKey(relative);
    for (const [path, code] of this.codes) if (walkKey(path) < limit) kept.codes.set(path, code);
    return kept;
  }

  /** `[2 paths could not be read: permission denied: b.txt, locked/]`, or null when none. */
  note(): string | null {
    if (this.codes.size === 0) return null;
    const sorted = [...this.codes].sort(([a], [b]) => (walkKey(a) < walkKey(b) ? -1 : 1));
    const byReason = new Map<string, string[]>();
    for (const [path, code] of sorted.slice(0, NAMES_SHOWN)) {
      const reason = REASONS[code] ?? code;
      byReason.set(reason, [...(byReason.get(reason) ?? []), path]);
    }
    const more = sorted.length > NAMES_SHOWN ? ` and ${sorted.length - NAMES_SHOWN} more` : '';
    const listed = [...byReason].map(([reason, paths]) => `${reason}: ${paths.join(', ')}`).join('; ');
    return `[${plural(sorted.length, 'path')} could not be read: ${listed}${more}]`;
  }
}

/** The walk's order: names sorted at each level, depth first (`/` sorts below every character a name holds). */
function walkKey(relative: string): string {
  return relative.replaceAll('/', '\0');
}
