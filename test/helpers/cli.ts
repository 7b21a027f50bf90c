// Spawns the built CLI (dist/cli/main.js) the way a user or CI would: a real process, real stdio.
// `npm test` builds first, so these tests always run the code that ships.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { INIT_AND_COMMIT } from '../git/repos.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CLI = path.join(ROOT, 'dist/cli/main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Piped on stdin: text, or bytes as they are. */
  input?: string | Uint8Array;
  timeoutMs?: number;
}

/**
 * A clean environment: nothing from the developer's shell (keys!) leaks into a test run. The cache
 * directory is the suite's own (helpers/global-setup.ts).
 */
export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, XDG_STATE_HOME: process.env.XDG_STATE_HOME, LANG: 'C.UTF-8', TMPDIR: os.tmpdir(), ...extra };
}

export async function cli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const result = await execa(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: baseEnv(opts.env),
    extendEnv: false,
    reject: false,
    timeout: opts.timeoutMs ?? 60_000,
    ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
  });
  return { code: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const madeTempDirs: string[] = [];

/** A new directory under the system temp dir, removed by removeTempDirs(). */
export function tempDir(prefix = 'unattended-test-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  madeTempDirs.push(dir);
  return dir;
}

/** Removes every directory tempDir() made in this test file; for afterAll. */
export function removeTempDirs(): void {
  for (const dir of madeTempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A copy of a fixture workspace, optionally a git repository with one commit. */
export async function fixtureWorkspace(name: string, opts: { git?: boolean } = {}): Promise<string> {
  const dir = path.join(tempDir(), name);
  fs.cpSync(path.join(ROOT, 'test/fixtures/workspaces', name), dir, { recursive: true });
  if (opts.git) {
    await execa('sh', ['-c', INIT_AND_COMMIT], { cwd: dir, env: { GIT_CONFIG_NOSYSTEM: '1', HOME: dir } });
  }
  return dir;
}

export interface RunFiles {
  report: Record<string, any>;
  reportMd: string;
  events: Array<Record<string, any>>;
}

/** Reads a run's outputs, asserting the transcript is valid JSONL with increasing seq. */
export function readRun(outDir: string): RunFiles {
  const lines = fs.readFileSync(path.join(outDir, 'transcript.jsonl'), 'utf8').split('\n');
  if (lines.pop() !== '') throw new Error('transcript does not end with a newline');
  const events = lines.map((line, i) => {
    try {
      return JSON.parse(line) as Record<string, any>;
    } catch {
      throw new Error(`transcript line ${i + 1} is not JSON: ${line.slice(0, 200)}`);
    }
  });
  events.forEach((e, i) => {
    if (e.seq !== i + 1) throw new Error(`transcript seq ${e.seq} at line ${i + 1}`);
  });
  return {
    report: JSON.parse(fs.readFileSync(path.join(outDir, 'report.json'), 'utf8')),
    reportMd: fs.readFileSync(path.join(outDir, 'report.md'), 'utf8'),
    events,
  };
}
