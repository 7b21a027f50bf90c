// Objects a command rewrote in the repository's object store. The sandbox leaves `.git/objects`
// writable (so that `git add` and `git commit` work), and git never checks a blob against its name
// when it reads one: a command that replaced the file of an object already there (HEAD's
// build.sh, say) with other content made the hand-off's commit, which reuses HEAD's tree, carry
// that content on its branch while no diff showed it (both trees name the same object), and so
// would every later checkout of that commit. Git never writes an object file whose content is
// not its name, so only what changed since the run started is looked at: each loose object file
// touched since (ctime: no command can set it back) is hashed again, each pack written since is
// verified by git, and alternates (objects read from elsewhere) must not have changed.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import { direntsOf } from '../util/paths.js';

/** A file's change time within this much before the run started counts as during it (coarse clocks). */
const SLACK_MS = 2_000;
/** Named at most in the message. */
const NAMED = 3;

export interface ObjectCheck {
  /** The object directory (`git rev-parse --git-path objects`, absolute). */
  objects: string;
  /** When the run started (ms since the epoch). */
  since: number;
  /** Runs git (`verify-pack IDX`, `multi-pack-index verify`, `commit-graph verify`): true when it succeeds. */
  verify: (args: string[]) => Promise<boolean>;
}

/**
 * Files that say where an object is or what a commit holds, which git reads in place of the
 * objects themselves: a multi-pack-index maps names to places in the packs (one written by hand
 * can send a name to another object's content), a commit-graph gives commits' trees and parents.
 */
const OBJECT_INDEXES: ReadonlyArray<readonly [file: string, verify: string[]]> = [
  ['pack/multi-pack-index', ['multi-pack-index', 'verify']],
  ['info/commit-graph', ['commit-graph', 'verify']],
  ['info/commit-graphs', ['commit-graph', 'verify']],
];

/** The object files changed since `since` that are not what their names say (paths relative to the object directory). */
export async function rewrittenObjects(check: ObjectCheck): Promise<string[]> {
  const found: string[] = [];
  const since = check.since - SLACK_MS;
  const changed = (p: string) => {
    const stat = fs.lstatSync(p, { throwIfNoEntry: false });
    return stat !== undefined && stat.ctimeMs >= since;
  };
  for (const dir of direntsOf(check.objects)) {
    if (!dir.isDirectory() || !/^[0-9a-f]{2}$/.test(dir.name)) continue;
    for (const entry of direntsOf(path.join(check.objects, dir.name))) {
      const name = `${dir.name}${entry.name}`;
      if (!/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(name)) continue; // git's temporary files (tmp_obj_*)
      const file = path.join(check.objects, dir.name, entry.name);
      if (changed(file) && !(await isObject(file, name))) found.push(`${dir.name}/${entry.name}`);
    }
  }
  const pack = path.join(check.objects, 'pack');
  for (const entry of direntsOf(pack)) {
    if (!entry.name.endsWith('.idx')) continue;
    const idx = path.join(pack, entry.name);
    const data = idx.replace(/\.idx$/, '.pack');
    if ((changed(idx) || changed(data)) && !(await check.verify(['verify-pack', idx]))) found.push(`pack/${entry.name}`);
  }
  for (const [file, verify] of OBJECT_INDEXES) {
    const p = path.join(check.objects, file);
    if ((changed(p) || direntsOf(p).some((entry) => changed(path.join(p, entry.name)))) && !(await check.verify(verify))) found.push(file);
  }
  // Objects git reads from another directory, which a command could fill with its own.
  for (const name of ['info/alternates', 'info/http-alternates']) {
    if (changed(path.join(check.objects, name))) found.push(name);
  }
  return found;
}

/** How far into an inflated object its header (`blob 123\0`) must have ended. */
const MAX_HEADER = 64;

/**
 * Whether the loose object file holds what its name says (`name`: the hex id, SHA-1 or SHA-256).
 * Streamed, and never past the size the header gives: a command's object of gigabytes (or a small
 * file that inflates to them) costs the runner a few chunks of memory, not the whole of it.
 */
async function isObject(file: string, name: string): Promise<boolean> {
  let fd: number;
  try {
    // Never through a link, nor waiting on a FIFO the command left under an object's name.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    if (!fs.fstatSync(fd).isFile()) {
      fs.closeSync(fd);
      return false;
    }
  } catch {
    return false;
  }
  const hash = createHash(name.length === 64 ? 'sha256' : 'sha1');
  const input = fs.createReadStream('', { fd });
  const inflate = zlib.createInflate();
  input.on('error', (error) => inflate.destroy(error));
  input.pipe(inflate);
  let head = Buffer.alloc(0);
  let expected = -1;
  let total = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      hash.update(chunk);
      total += chunk.length;
      if (expected < 0) {
        head = Buffer.concat([head, chunk.subarray(0, MAX_HEADER)]).subarray(0, MAX_HEADER);
        const nul = head.indexOf(0);
        if (nul < 0) {
          if (head.length >= MAX_HEADER) return false;
          continue;
        }
        const size = /^(?:blob|tree|commit|tag) (0|[1-9][0-9]{0,15})$/.exec(head.subarray(0, nul).toString('latin1'));
        if (!size) return false;
        expected = nul + 1 + Number(size[1]);
      }
      if (total > expected) return false;
    }
    return expected >= 0 && total === expected && hash.digest('hex') === name;
  } catch {
    return false;
  } finally {
    input.destroy();
    inflate.destroy();
  }
}

/** What was found, naming a few, and what it means: `consequence` (the hand-off's refusal, the report's warning). */
export function rewrittenObjectsMessage(objects: string, found: readonly string[], consequence = 'so a commit could carry content no diff shows; nothing is committed'): string {
  const named = found.slice(0, NAMED).map((f) => path.join(objects, f));
  const more = found.length > NAMED ? ` and ${found.length - NAMED} more` : '';
  return `a command rewrote the repository's object store during the run (${named.join(', ')}${more}: not the objects their names say), ${consequence}. \`git fsck\` lists the damaged objects: remove them and fetch them again (or clone afresh) before you trust this repository`;
}
