// Other names (hard links) of credential files, where sandboxed commands can reach them: the
// sandbox hides credential paths, and a mount over a path hides that name only, so a
// `ln ~/.aws/credentials notes.txt` made in the workspace before the run left the secret readable
// by `cat notes.txt`. The file tools refuse such a file by its identity (Workspace.keptByIdentity);
// commands get it hidden like the credential itself. Looked for only when some credential file has
// more than one link (credentialFiles, the file tools' own list): otherwise nothing is walked.
import fs from 'node:fs';
import path from 'node:path';
import { direntsOf } from '../util/paths.js';
import { credentialFiles } from './credentials-inside.js';

/** Entries looked at in the workspace and the writable directories at most: past it, a warning says so. */
export const MAX_LINK_SEARCH_ENTRIES = 50_000;

export interface CredentialLinks {
  /** The other names found (real paths), to be hidden. */
  files: string[];
  /** One per name found, and one when the walk stopped at its bound: for the run's warnings. */
  warnings: string[];
}

export interface LinkSearch {
  workspace: string;
  /** Where commands may write, the workspace first (canonical paths). */
  roots: readonly string[];
  env: NodeJS.ProcessEnv;
  hide: readonly string[];
  /** Paths hidden already (directories and files): not walked, and not counted as other names. */
  hidden: readonly string[];
  /** Tests lower it. */
  maxEntries?: number;
}

export function credentialLinks(search: LinkSearch): CredentialLinks {
  // With every other path the sandbox hides, files and directories (root's /etc/shadow, the SSH
  // host keys, the files in /run/secrets, /etc/ssl/private and the runtime directory).
  const kept = new Map(credentialFiles(search.workspace, search.env, search.hide, search.hidden).files);
  // Per credential file with other names: how many of them are still to be found. Its own name is
  // hidden and never walked; a second credential name of the same file only keeps the walk going.
  const missing = new Map<string, number>();
  for (const [key, file] of kept) if (file.links > 1) missing.set(key, file.links - 1);
  if (missing.size === 0) return { files: [], warnings: [] };
  const hidden = new Set(search.hidden);
  const files: string[] = [];
  const warnings: string[] = [];
  const seenDirs = new Set<string>();
  // Breadth first: within the bound, the names nearest the roots are the ones looked at.
  const queue: string[] = [];
  const enqueue = (dir: string) => {
    const stat = fs.lstatSync(dir, { bigint: true, throwIfNoEntry: false });
    if (!stat?.isDirectory() || hidden.has(dir)) return;
    // A directory reached twice (a writable directory inside the workspace, a bind mount) is walked once.
    const key = `${stat.dev}:${stat.ino}`;
    if (seenDirs.has(key)) return;
    seenDirs.add(key);
    queue.push(dir);
  };
  for (const root of search.roots) enqueue(root);
  let budget = search.maxEntries ?? MAX_LINK_SEARCH_ENTRIES;
  let truncated = false;
  walk: for (let i = 0; i < queue.length && missing.size > 0; i++) {
    const dir = queue[i]!;
    for (const entry of direntsOf(dir)) {
      if (--budget < 0) {
        truncated = true;
        break walk;
      }
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) enqueue(p);
      if (!entry.isFile() || hidden.has(p)) continue;
      const stat = fs.lstatSync(p, { bigint: true, throwIfNoEntry: false });
      const key = stat && stat.nlink > 1n ? `${stat.dev}:${stat.ino}` : null;
      const left = key === null ? undefined : missing.get(key);
      if (left === undefined) continue;
      files.push(p);
      const credential = kept.get(key!)!;
      warnings.push(`${shown(search.workspace, p)} is another name (a hard link) of ${credential.shown}, which holds credentials (${credential.why}): sandboxed commands find it empty; \`rm\` that name to take the credentials out of reach (the credential file keeps its own)`);
      if (left <= 1) missing.delete(key!);
      else missing.set(key!, left - 1);
    }
  }
  if (truncated && missing.size > 0) {
    const names = [...missing.keys()].map((key) => kept.get(key)!.shown).join(', ');
    warnings.push(
      `${names} ${missing.size === 1 ? 'has' : 'have'} another name (a hard link) not found in the first ${search.maxEntries ?? MAX_LINK_SEARCH_ENTRIES} entries of the workspace and sandbox.writable: one further in stays readable by sandboxed commands; give each credential file a single name (\`find / -samefile FILE\` lists them), or add the other names to sandbox.hide`,
    );
  }
  return { files, warnings };
}

function shown(workspace: string, p: string): string {
  const relative = path.relative(workspace, p);
  const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  return inside ? `'${relative.split(path.sep).join('/')}' in the workspace` : `'${p}'`;
}
