// Runs the CLI on a scripted recipe whose shell calls are given, and reads what happened: in this
// process by default (cliInProcess: the same runCli, runner and bubblewrap sandbox, without paying
// a Node start per case), or the built CLI in its own process where the process is what a case
// is about (a command that kills its parent, children that must not outlive it).
// The sandbox tests need real bubblewrap; where it cannot run they are skipped, saying why.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { cli, readRun, tempDir, type CliResult, type RunFiles } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { detectSandbox } from '../../src/sandbox/detect.js';

const found = detectSandbox();
export const bwrapWorks = found.kind === 'bwrap';
if (!bwrapWorks) {
  // Visible in the test output: a skipped containment test must never pass silently.
  console.warn(`SKIPPED: the bubblewrap sandbox tests cannot run here: ${found.kind === null ? found.reason : `${found.kind} is not bwrap`}`);
}

export interface ScriptedRun extends RunFiles {
  cli: CliResult;
  workspace: string;
  out: string;
  /** What each shell call sent back to the model, in order. */
  outputs: string[];
}

export interface RunSpec {
  commands: string[];
  sandbox?: Record<string, unknown>;
  workspace?: string;
  env?: Record<string, string | undefined>;
  extra?: Record<string, unknown>;
  mode?: string;
  tools?: string[];
  calls?: Array<{ name: string; args: Record<string, unknown> }>;
  /** The run output directory (default: beside the workspace). */
  out?: string;
  /** Run dist/cli/main.js in a process of its own instead of runCli in this one. */
  builtCli?: boolean;
}

export async function runCommands(spec: RunSpec): Promise<ScriptedRun> {
  const dir = tempDir('unattended-sbx-');
  const workspace = spec.workspace ?? path.join(dir, 'ws');
  fs.mkdirSync(workspace, { recursive: true });
  const calls = spec.calls ?? spec.commands.map((command) => ({ name: 'shell', args: { command } }));
  const turns = [...calls.map((call) => ({ calls: [call] })), { text: 'done' }];
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
  const recipe = {
    version: 1,
    prompt: 'contain me',
    provider: 'scripted',
    script: 'turns.yaml',
    workspace,
    tools: spec.tools ?? ['shell'],
    confirmation: { mode: spec.mode ?? 'auto-approve' },
    ...(spec.sandbox ? { sandbox: spec.sandbox } : {}),
    ...spec.extra,
  };
  fs.writeFileSync(path.join(dir, 'recipe.yaml'), YAML.stringify(recipe));
  const out = spec.out ?? path.join(dir, 'out');
  const args = ['run', path.join(dir, 'recipe.yaml'), '--out', out];
  const result = await (spec.builtCli ? cli : cliInProcess)(args, { env: spec.env ?? {} });
  const files = readRun(out);
  const outputs = files.events.filter((e) => e.type === 'tool_result').map((e) => String(e.llm_content));
  return { ...files, cli: result, workspace, out, outputs };
}

const outsideDirs: string[] = [];

/**
 * A new directory outside /tmp and the workspace (the sandbox's /tmp is private, so a write there
 * would vanish rather than fail): where an escaping write would land. removeOutsideDirs() after the file's cases.
 */
export function outsideDir(): string {
  const dir = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), 'unattended-outside-'));
  outsideDirs.push(dir);
  return dir;
}

export function removeOutsideDirs(): void {
  for (const dir of outsideDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
