// Runs the built action entry (dist/action/main.js) the way the composite step does: a real
// process, inputs as INPUT_* variables, and temp files for GITHUB_OUTPUT, GITHUB_STEP_SUMMARY
// and GITHUB_ENV, with RUNNER_TEMP pointing at a temp directory.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { baseEnv, ROOT, tempDir } from '../helpers/cli.js';

export const ACTION_ENTRY = path.join(ROOT, 'dist/action/main.js');

const scratch: string[] = [];

/** A temp directory removed by removeScratch() (call it in afterAll). */
export function scratchDir(prefix = 'unattended-action-'): string {
  const dir = tempDir(prefix);
  scratch.push(dir);
  return dir;
}

/** Registers a directory made elsewhere for removeScratch(). */
export function trackScratch(dir: string): void {
  scratch.push(dir);
}

export function removeScratch(): void {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  /** The raw $GITHUB_OUTPUT file. */
  outputFile: string;
  summary: string;
  githubEnv: string;
  runnerTemp: string;
}

export interface ActionRunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Name inputs the node-action way (INPUT_API-KEY) instead of the composite way (INPUT_API_KEY). */
  hyphenated?: boolean;
  /** These step files are made directories, which cannot be written (read back as ''). */
  unwritable?: ReadonlyArray<'GITHUB_OUTPUT' | 'GITHUB_STEP_SUMMARY'>;
}

export async function runActionEntry(inputs: Record<string, string>, opts: ActionRunOptions = {}): Promise<ActionRun> {
  return startActionEntry(inputs, opts).finished;
}

/** Starts the entry; `child` is there to signal it, `finished` resolves when it has exited. */
export function startActionEntry(inputs: Record<string, string>, opts: ActionRunOptions = {}) {
  const dir = scratchDir();
  const files = { GITHUB_OUTPUT: 'output', GITHUB_STEP_SUMMARY: 'summary.md', GITHUB_ENV: 'env' } as const;
  const env: Record<string, string | undefined> = { RUNNER_TEMP: path.join(dir, 'runner-temp'), GITHUB_ACTIONS: 'true', CI: 'true', ...opts.env };
  if (!fs.existsSync(env.RUNNER_TEMP!)) fs.mkdirSync(env.RUNNER_TEMP!, { recursive: true });
  for (const [name, file] of Object.entries(files)) {
    env[name] = path.join(dir, file);
    if (opts.unwritable?.includes(name as 'GITHUB_OUTPUT')) fs.mkdirSync(env[name]!);
    else fs.writeFileSync(env[name]!, '');
  }
  const read = (file: string) => (fs.statSync(file).isDirectory() ? '' : fs.readFileSync(file, 'utf8'));
  for (const [name, value] of Object.entries(inputs)) {
    const upper = name.toUpperCase();
    env[`INPUT_${opts.hyphenated ? upper : upper.replace(/-/g, '_')}`] = value;
  }
  const child = execa(process.execPath, [ACTION_ENTRY], {
    cwd: opts.cwd ?? ROOT,
    env: baseEnv(env),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
  const finished = child.then((result): ActionRun => {
    const outputFile = read(env.GITHUB_OUTPUT!);
    return {
      code: result.exitCode ?? -1,
      stdout: String(result.stdout),
      stderr: String(result.stderr),
      outputs: parseOutputFile(outputFile),
      outputFile,
      summary: read(env.GITHUB_STEP_SUMMARY!),
      githubEnv: fs.readFileSync(env.GITHUB_ENV!, 'utf8'),
      runnerTemp: env.RUNNER_TEMP!,
    };
  });
  return { child, finished };
}

/** Reads $GITHUB_OUTPUT as the runner does: `name=value` lines and `name<<DELIM` blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  if (lines.pop() !== '') throw new Error('output file does not end with a newline');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc;
      const end = lines.indexOf(delimiter!, i + 1);
      if (end < 0) throw new Error(`output ${name}: delimiter ${delimiter} never closes`);
      if (name! in outputs) throw new Error(`output ${name} written twice`);
      outputs[name!] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`unreadable output line: ${line}`);
    outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return outputs;
}

/** Workflow command lines (`::name ...::data`) on stdout, in order. */
export function commandLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('::'));
}
