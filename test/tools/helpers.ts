// Real temporary workspaces for the tool tests, and a call helper that mirrors the loop's order:
// validate (an error is invalid_params, nothing runs), then execute.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../../src/util/workspace.js';
import type { ToolContext } from '../../src/tools/context.js';
import type { AnyTool, ToolResult } from '../../src/tools/tools.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';

export interface TempWorkspace {
  /** Canonical root. */
  root: string;
  ctx: ToolContext;
  tool(name: string): AnyTool;
  write(relative: string, content: string | Buffer): string;
  read(relative: string): string;
  cleanup(): void;
}

const made: string[] = [];

/** A fresh directory holding `ws/` (the workspace) and `outside/` (a sibling it must never reach). */
export function makeWorkspace(files: Record<string, string | Buffer> = {}, env: Record<string, string> = {}): TempWorkspace {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-tools-')));
  made.push(base);
  const root = path.join(base, 'ws');
  fs.mkdirSync(root);
  fs.mkdirSync(path.join(base, 'outside'));
  fs.writeFileSync(path.join(base, 'outside', 'secret.txt'), 'TOP SECRET\n');
  const ctx: ToolContext = { workspace: Workspace.open(root), env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, maxTimeoutMs: 60_000 };
  const write = (relative: string, content: string | Buffer) => {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };
  for (const [relative, content] of Object.entries(files)) write(relative, content);
  return {
    root,
    ctx,
    tool: (name) => createBuiltinTools(ctx, [name])[0]!,
    write,
    read: (relative) => fs.readFileSync(path.join(root, relative), 'utf8'),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

export function cleanupAll(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export async function call(tool: AnyTool, params: unknown, signal = new AbortController().signal): Promise<ToolResult> {
  const invalid = tool.validateToolParams(params);
  if (invalid) return { llmContent: `Error: ${invalid}`, returnDisplay: invalid, error: { type: 'invalid_params', message: invalid } };
  return tool.execute(params, signal);
}

export function text(result: ToolResult): string {
  if (typeof result.llmContent !== 'string') throw new Error('expected text llmContent');
  return result.llmContent;
}

/**
 * grep in `ws` reached through a wrapper `rg` on PATH that logs each argv before running the real
 * ripgrep: `grep(engine, params)` answers like the tool, `calls(run)` lists the ripgrep argvs `run` made.
 */
export function loggedRipgrep(ws: TempWorkspace, realRg: string) {
  const bin = path.join(path.dirname(ws.root), 'bin');
  fs.mkdirSync(bin);
  const log = path.join(bin, 'calls.log');
  fs.writeFileSync(log, '');
  fs.writeFileSync(path.join(bin, 'rg'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realRg}' "$@"\n`, { mode: 0o755 });
  const rgPath = `${bin}:/usr/bin:/bin`;
  const grep = async (engine: 'javascript' | undefined, params: object) => {
    const result = await call(createBuiltinTools({ ...ws.ctx, env: { PATH: rgPath }, grepEngine: engine }, ['grep'])[0]!, params);
    return { text: text(result), display: result.returnDisplay, error: result.error, linesOf: result.linesOf };
  };
  const calls = async (run: () => Promise<unknown>) => {
    fs.writeFileSync(log, '');
    await run();
    return fs.readFileSync(log, 'utf8').trim().split('\n');
  };
  return { log, grep, calls };
}
