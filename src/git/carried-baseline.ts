// The hand-off of a continued run commits the chain's work, not only what the last run of it did:
// each file the earlier runs changed that is still as they left it (runner/earlier-changes.ts) is
// put back in the baseline tree as it was when the chain began, so the difference to the end holds
// it. Only where HEAD has the file as the chain found it (clean then, and not committed since): a
// file someone committed in between, or that had uncommitted changes before the chain began, keeps
// the baseline's own entry, and is none of this hand-off's to commit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HandoffBaseline } from './handoff-step.js';
import { git } from './git-exec.js';
import { randomHex } from '../util/random-name.js';

const NO_OBJECT = '0'.repeat(40);

export interface CarriedFile {
  /** Workspace-relative. */
  path: string;
  /** Its content when the chain began; null: it did not exist. */
  original: string | null;
  /** That content as bytes, for a file that is not UTF-8 text (hashed instead of `original`). */
  originalBytes?: Buffer;
}

/** The baseline with the carried files as the chain found them, and which files those are (workspace-relative). */
export async function carryIntoBaseline(baseline: HandoffBaseline | null, workspace: string, files: readonly CarriedFile[], env: NodeJS.ProcessEnv): Promise<{ baseline: HandoffBaseline | null; carried: string[] }> {
  if (!baseline?.tree || files.length === 0) return { baseline, carried: [] };
  const top = await git(['rev-parse', '--show-toplevel'], { cwd: workspace, parentEnv: env });
  if (!top.ok) return { baseline, carried: [] };
  const root = top.stdout.trim();
  // From the top of the repository: the paths below are the index's, relative to it.
  const run = (args: string[], input?: string | Uint8Array, extra?: Record<string, string>) => git(args, { cwd: root, parentEnv: env, timeoutMs: 60_000, ...(extra ? { env: extra } : {}), ...(input === undefined ? {} : { input }) });
  const scope = path.relative(root, fs.realpathSync(workspace)).split(path.sep).join('/');
  const inRepo = (file: string) => (scope ? `${scope}/${file}` : file);
  const inHead = baseline.head ? await entries(run, baseline.head, files.map((f) => inRepo(f.path))) : new Map<string, Entry>();
  const lines: string[] = [];
  const carried: string[] = [];
  for (const file of files) {
    const name = inRepo(file.path);
    const head = inHead.get(name);
    if (file.original === null) {
      if (head) continue;
      lines.push(`0 ${NO_OBJECT}\t${name}`);
    } else {
      // Hashed as `git add` would store it there (its attributes' filters), and written: the tree needs the blob.
      const blob = await run(['hash-object', '-w', '--stdin', `--path=${name}`], file.originalBytes ?? file.original);
      if (!blob.ok || !head || head.object !== blob.stdout.trim()) continue;
      lines.push(`${head.mode} ${head.object}\t${name}`);
    }
    carried.push(file.path);
  }
  if (lines.length === 0) return { baseline, carried: [] };
  const index = path.join(os.tmpdir(), `unattended-carry-${randomHex(6)}`);
  const withIndex = { GIT_INDEX_FILE: index };
  try {
    const read = await run(['read-tree', baseline.tree], undefined, withIndex);
    const update = read.ok ? await run(['update-index', '--index-info'], `${lines.join('\n')}\n`, withIndex) : read;
    const tree = update.ok ? await run(['write-tree'], undefined, withIndex) : update;
    if (!tree.ok) return { baseline, carried: [] };
    return { baseline: { ...baseline, tree: tree.stdout.trim() }, carried };
  } finally {
    fs.rmSync(index, { force: true });
  }
}

interface Entry {
  mode: string;
  object: string;
}

/** Each path's entry in the commit's tree, where it has one. */
async function entries(run: (args: string[]) => Promise<{ ok: boolean; stdout: string }>, commit: string, paths: readonly string[]): Promise<Map<string, Entry>> {
  const out = await run(['ls-tree', '-r', '-z', commit, '--', ...paths.map((p) => `:(literal)${p}`)]);
  const found = new Map<string, Entry>();
  if (!out.ok) return found;
  for (const record of out.stdout.split('\0')) {
    const match = /^(\d+) \w+ ([0-9a-f]+)\t(.*)$/s.exec(record);
    if (match) found.set(match[3]!, { mode: match[1]!, object: match[2]! });
  }
  return found;
}
