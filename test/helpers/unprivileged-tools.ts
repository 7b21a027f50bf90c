// The built-in tools run in a child process as a user who cannot read what mode 000 locks: a
// test of unreadable files means nothing when it runs as root, who reads them anyway. As root the
// child runs as `nobody` (setpriv); otherwise as this user. The tools' source is bundled with
// esbuild into a small driver, once per test file. Driver and workspaces live in a directory of
// their own under /dev/shm or /tmp, not under the suite's TMPDIR: that one is private (0700), and
// stays so.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

const repo = path.resolve(import.meta.dirname, '../..');
const asRoot = process.getuid?.() === 0;
const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((file) => fs.existsSync(file));

/** Whether a file of mode 000 can be made unreadable to the tools here. */
export const canLockOut = process.platform === 'linux' && (!asRoot || setpriv !== undefined);

const DRIVER = `
import { Workspace } from ${JSON.stringify(path.join(repo, 'src/util/workspace.ts'))};
import { createBuiltinTools } from ${JSON.stringify(path.join(repo, 'src/tools/builtin/index.ts'))};
const [root, engine, toolName, params] = process.argv.slice(2);
const env = { PATH: engine === 'norg' ? '/nonexistent' : '/usr/bin:/bin' };
const ctx = { workspace: Workspace.open(root), env, maxTimeoutMs: 60000, grepEngine: engine === 'js' ? 'javascript' : undefined };
const tool = createBuiltinTools(ctx, [toolName])[0];
const result = await tool.execute(JSON.parse(params), new AbortController().signal);
process.stdout.write(JSON.stringify({ text: result.llmContent, error: result.error ?? null }));
process.exit(0);
`;

let base: string | undefined;

/** A directory of this process's own that another user can enter (see removeLockedOut). */
function openBase(): string {
  if (base) return base;
  const dir = fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : '/tmp', 'unattended-locked-out-'));
  fs.chmodSync(dir, 0o755);
  return (base = dir);
}

/** Removes the driver and the workspaces (the suite's clean-up does not reach them: they are not under TMPDIR). */
export function removeLockedOut(): void {
  if (base) fs.rmSync(base, { recursive: true, force: true });
  base = bundle = undefined;
}

let bundle: string | undefined;

/** The driver, bundled where `nobody` can read it, beside a link to node_modules. */
function driver(): string {
  if (bundle) return bundle;
  const dir = openBase();
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
  const outfile = path.join(dir, 'driver.mjs');
  buildSync({ stdin: { contents: DRIVER, resolveDir: repo, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'error' });
  fs.chmodSync(outfile, 0o644);
  return (bundle = outfile);
}

/** A workspace holding `files` that the child can reach; `lockedOut` paths are then made mode 000. */
export function lockedOutWorkspace(files: Record<string, string>, lockedOut: string[]): { root: string; unlock(): void } {
  const root = fs.mkdtempSync(path.join(openBase(), 'ws-'));
  fs.chmodSync(root, 0o755);
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(root, relative), content, { mode: 0o644 });
  }
  for (const relative of lockedOut) fs.chmodSync(path.join(root, relative), 0);
  return { root, unlock: () => lockedOut.forEach((relative) => fs.chmodSync(path.join(root, relative), 0o755)) };
}

/**
 * Runs `tool` with `params` on the workspace `root` (see lockedOutWorkspace) in a child that
 * cannot read mode 000 files. `engine`: 'rg' (ripgrep on PATH), 'norg' (none: the JavaScript walk).
 */
export function runLockedOut(root: string, engine: 'rg' | 'norg', tool: string, params: object): { text: string; error: unknown } {
  const command = [process.execPath, driver(), root, engine, tool, JSON.stringify(params)];
  const argv = asRoot ? [setpriv!, '--reuid=65534', '--regid=65534', '--clear-groups', ...command] : command;
  return JSON.parse(execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 30_000 }));
}
