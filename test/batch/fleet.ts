// A small fleet for the batch tests: five git repositories (one reached by a file:// URL, so it
// is cloned; one whose README is a symlink into .git, so the policy denies the edit: an agent
// failure), plus two targets that cannot run (a missing directory, an unclonable URL).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gitIn, makeRepo, tempRoot } from '../git/repos.js';
import { ROOT } from '../helpers/cli.js';

export const RECIPE = path.join(ROOT, 'test/fixtures/batch/greet.yaml');

export interface Fleet {
  root: string;
  targetsFile: string;
  /** Target lines in file order. */
  targets: string[];
}

export async function makeFleet(): Promise<Fleet> {
  const root = tempRoot('unattended-batch-');
  for (const name of ['alpha', 'beta', 'gamma', 'delta']) await makeRepo(path.join(root, 'repos', name), { 'README.md': `hello from ${name}\n` });
  const hostile = await makeRepo(path.join(root, 'repos', 'epsilon'), { 'notes.txt': 'no readme\n' });
  fs.symlinkSync('.git/description', path.join(hostile, 'README.md'));
  await gitIn(hostile, 'add', 'README.md');
  await gitIn(hostile, '-c', 'user.email=t@example.com', '-c', 'user.name=test', 'commit', '-qm', 'readme');
  const targets = [
    'repos/alpha',
    'repos/beta',
    `file://${path.join(root, 'repos', 'gamma')}`,
    'repos/delta',
    'repos/epsilon',
    'repos/missing',
    `file://${path.join(root, 'no-such-repo.git')}`,
  ];
  const targetsFile = path.join(root, 'targets.txt');
  const lines = ['# the fleet', ...targets.slice(0, 3), '', `${targets[3]}   # a trailing comment`, ...targets.slice(4)];
  fs.writeFileSync(targetsFile, `${lines.join('\n')}\n`);
  return { root, targetsFile, targets };
}

/** Only plain repositories (README.md `hello from NAME`), each a line of the targets file. */
export async function makePlainFleet(names: readonly string[]): Promise<Fleet> {
  const root = tempRoot('unattended-batch-');
  for (const name of names) await makeRepo(path.join(root, 'repos', name), { 'README.md': `hello from ${name}\n` });
  const targets = names.map((name) => `repos/${name}`);
  const targetsFile = path.join(root, 'targets.txt');
  fs.writeFileSync(targetsFile, `${targets.join('\n')}\n`);
  return { root, targetsFile, targets };
}

/**
 * A fresh copy of a fleet (the batch edits local targets in place): the same repositories and
 * targets file under a new root, without the git commands that made them.
 */
export function copyFleet(template: Fleet): Fleet {
  const root = tempRoot('unattended-batch-');
  fs.cpSync(template.root, root, { recursive: true, verbatimSymlinks: true });
  const moved = (text: string) => text.replaceAll(template.root, root);
  fs.writeFileSync(path.join(root, 'targets.txt'), moved(fs.readFileSync(template.targetsFile, 'utf8')));
  return { root, targetsFile: path.join(root, 'targets.txt'), targets: template.targets.map(moved) };
}

/** The fields of a row that do not change from one run of the same target to the next. */
export function stableRow(row: Record<string, any>) {
  const { run_id, duration_ms, report, slug, ...rest } = row;
  return rest;
}

export function readBatch(dir: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.join(dir, 'batch-report.json'), 'utf8'));
}

/** Every file under a directory with its bytes and modification time: what "left as it was" means. */
export function tree(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file);
    entries[name] = stat.isFile() ? `${stat.mtimeMs} ${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}` : `${stat.mtimeMs}`;
  }
  return entries;
}
