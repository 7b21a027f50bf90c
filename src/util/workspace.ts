// Workspace confinement, shared by the tools (which refuse to touch anything outside) and the
// policy (which denies such calls in every mode). One implementation, so the two cannot disagree.
import fs from 'node:fs';
import path from 'node:path';

export type Resolved =
  | { ok: true; path: string; relative: string }
  /** `credentials`: inside the workspace, but a path the tools keep away from (see keptAt). */
  | { ok: false; reason: string; credentials?: true };

/** A workspace-relative path no file tool reads or changes, and why. */
export interface KeptPath {
  relative: string;
  why: string;
}

/** A file no tool reads, by its identity (`dev:ino`), and how to name it: the guard against another name of it (a hard link). */
export interface KeptFile {
  shown: string;
  why: string;
  /** How many names (hard links) it has: the sandbox looks for the others (sandbox/credential-links.ts). */
  links: number;
}

/** Every credential file by identity, and whether any has another name somewhere (more than one link). */
export interface KeptFiles {
  files: ReadonlyMap<string, KeptFile>;
  linked: boolean;
}

/** Longest path accepted; longer ones are refused rather than truncated by the OS. */
export const MAX_PATH_LENGTH = 4096;

export class Workspace {
  /** Found on first use (a realpath each: no start-up cost), then kept. */
  private kept: readonly KeptPath[] | null = null;
  private keptFiles: KeptFiles | null = null;

  /** `root` must already be canonical: use Workspace.open. */
  private constructor(
    readonly root: string,
    private readonly findKept: () => readonly KeptPath[] = () => [],
    private readonly findKeptFiles: () => KeptFiles = () => ({ files: new Map(), linked: false }),
  ) {}

  static open(dir: string): Workspace {
    const root = fs.realpathSync.native(path.resolve(dir));
    if (!fs.statSync(root).isDirectory()) throw new Error(`workspace '${dir}' is not a directory`);
    return new Workspace(root);
  }

  /**
   * The same workspace, with paths inside it that the file tools keep away from: credentials the
   * sandbox hides from commands (sandbox/credentials-inside.ts). The file tools run in the
   * runner's own process, outside any sandbox, so this is their wall.
   */
  keepingAway(find: () => readonly KeptPath[], findFiles?: () => KeptFiles): Workspace {
    return new Workspace(this.root, find, findFiles);
  }

  /**
   * Why the file at the canonical `absolute` (shown as `relative`) is kept from the tools though its
   * name is not: it is another name (a hard link) of a credential file, which a name compare
   * cannot see. Only a file with more than one link is looked up (one stat), and the credential
   * files are found by identity the first time one is.
   */
  keptByIdentity(absolute: string | Buffer, relative: string): string | null {
    let stat: fs.BigIntStats | undefined;
    try {
      stat = fs.statSync(absolute, { bigint: true, throwIfNoEntry: false });
    } catch {
      return null;
    }
    if (!stat?.isFile() || stat.nlink < 2n) return null;
    this.keptFiles ??= this.findKeptFiles();
    const kept = this.keptFiles.files.get(`${stat.dev}:${stat.ino}`);
    return kept ? `'${relative}' is another name (a hard link) of ${kept.shown}, which holds credentials (${kept.why}); no tool reads or changes it` : null;
  }

  /** Whether some credential file has another name somewhere: a walk must then ask keptByIdentity of each file. */
  mayHoldLinkedCredentials(): boolean {
    this.keptFiles ??= this.findKeptFiles();
    return this.keptFiles.linked;
  }

  /** Why the workspace-relative `relative` (at or below a kept path) is kept from the tools, or null. */
  keptAt(relative: string): string | null {
    this.kept ??= this.findKept();
    for (const kept of this.kept) {
      if (relative === kept.relative || (relative.startsWith(kept.relative) && relative[kept.relative.length] === '/')) {
        return `'${relative}' ${relative === kept.relative ? 'holds' : `is in '${kept.relative}', which holds`} credentials (${kept.why}); no tool reads or changes it`;
      }
    }
    return null;
  }

  /** Whether a kept path lies at or below the workspace-relative directory `relative` ('' for the root). */
  keepsBelow(relative: string): boolean {
    this.kept ??= this.findKept();
    return this.kept.some((kept) => relative === '' || kept.relative === relative || kept.relative.startsWith(`${relative}/`));
  }

  /** resolve(), and then refused when the path is one the tools keep away from (keptAt). */
  resolveForTools(p: string): Resolved {
    const resolved = this.resolve(p);
    if (!resolved.ok) return resolved;
    const kept = this.keptAt(resolved.relative) ?? this.keptByIdentity(resolved.path, resolved.relative);
    return kept === null ? resolved : { ok: false, reason: kept, credentials: true };
  }

  /**
   * Canonical form of `p` (relative paths are taken from the workspace root, never from a
   * caller-supplied directory): the nearest existing ancestor is realpath'd (so symlinked
   * directories and parents are followed to where they really lead), the rest re-appended.
   * The tools must operate on the returned path, which is the one that was checked.
   */
  resolve(p: string, shown: string = p): Resolved {
    if (p.includes('\0')) return { ok: false, reason: 'path contains a NUL byte' };
    if (p.length > MAX_PATH_LENGTH) return { ok: false, reason: `path is longer than ${MAX_PATH_LENGTH} characters` };
    let current = path.resolve(this.root, p);
    const rest: string[] = [];
    for (;;) {
      try {
        const real = fs.realpathSync.native(current);
        const canonical = rest.length ? path.join(real, ...rest) : real;
        return this.contain(canonical, shown);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // 'cannot resolve …: ELOOP' read as a fault of the tool: say what is wrong with the path.
        if (code === 'ELOOP') return { ok: false, reason: `'${shown}' goes through a loop of symbolic links (ELOOP): it names nothing` };
        if (code !== 'ENOENT' && code !== 'ENOTDIR') {
          return { ok: false, reason: `cannot resolve '${p}': ${code ?? String(error)}` };
        }
        if (isSymlink(current)) {
          // A dangling link may point anywhere once its target is created: refuse it.
          return { ok: false, reason: `'${shown}' goes through a dangling symbolic link` };
        }
        const parent = path.dirname(current);
        if (parent === current) return { ok: false, reason: `cannot resolve '${p}'` };
        rest.unshift(path.basename(current));
        current = parent;
      }
    }
  }

  /**
   * Canonical form of a word a shell command passes, taken from `directory` the way the kernel
   * walks it: a `..` after a symbolic link leaves the link's target, not the link's directory
   * (`out/..` with `out` leading elsewhere is that elsewhere's parent), so each existing prefix is
   * realpath'd before the next `..` is applied. Paths without such a `..` take the cheap way.
   */
  resolvePhysically(directory: string, p: string): Resolved {
    const segments = p.split('/');
    const dotdot = segments.findIndex((segment, i) => segment === '..' && segments.slice(0, i).some((s) => s !== '' && s !== '.' && s !== '..'));
    if (dotdot < 0 || p.includes('\0') || p.length > MAX_PATH_LENGTH) return this.resolve(path.resolve(directory, p));
    let current = path.isAbsolute(p) ? path.parse(path.resolve(p)).root : path.resolve(directory);
    for (const segment of segments) {
      if (segment === '' || segment === '.') continue;
      if (segment !== '..') {
        current = path.join(current, segment);
        continue;
      }
      try {
        current = path.dirname(fs.realpathSync.native(current));
      } catch {
        // The kernel fails on `missing/..` too; a dangling link, though, may be created to lead anywhere.
        if (isSymlink(current)) return { ok: false, reason: `'${p}' goes through a dangling symbolic link` };
        current = path.dirname(current);
      }
    }
    return this.resolve(current, `${p}' (a '..' after a symbolic link leaves the link's target, as the kernel reads it: '${current}`);
  }

  /** True when `canonical` is the root or below it (never a bare prefix compare: see inside()). */
  contains(canonical: string): boolean {
    return this.inside(canonical) !== null;
  }

  private contain(canonical: string, original: string): Resolved {
    const rel = this.inside(canonical);
    if (rel === null) {
      return { ok: false, reason: `'${original}' resolves to '${canonical}', outside the workspace ${this.root}` };
    }
    return { ok: true, path: canonical, relative: path.sep === '/' ? rel : rel.split(path.sep).join('/') };
  }

  /**
   * `canonical` relative to the root, or null when it is not the root or below it. Every tool call
   * asks several times (validation, policy, execution), so the usual case is answered without
   * path.relative: a canonical path (absolute, normalized, as realpath gives it) that starts with
   * the root and a separator is below it, and the rest is what path.relative would return.
   */
  private inside(canonical: string): string | null {
    const rootPrefix = this.root.endsWith(path.sep) ? this.root : this.root + path.sep;
    if (canonical.startsWith(rootPrefix) && canonical.length > rootPrefix.length && !canonical.endsWith(path.sep) && path.normalize(canonical) === canonical) {
      return canonical.slice(rootPrefix.length);
    }
    const rel = path.relative(this.root, canonical);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel)) ? rel : null;
  }
}

function isSymlink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
