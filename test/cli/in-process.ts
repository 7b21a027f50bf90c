// Runs a command line through runCli in this process, as a user would type it, against a fake
// Gemini (and OpenAI-compatible) endpoint on 127.0.0.1: no spawn, no key, no network. The working
// directory, environment and stdout/stderr are the process's own for the duration of the call.
import { vi } from 'vitest';
import { runCli } from '../../src/cli/cli.js';
import { startFakeGemini, type FakeGemini, type FakeStep } from '../helpers/fake-gemini.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
  /** What the fake Gemini endpoint received, in order. */
  requests: FakeGemini['requests'];
}

export interface InProcessOptions {
  cwd: string;
  /** The fake model's replies (default: one short text answer). */
  replies?: FakeStep[];
  env?: Record<string, string>;
  /** Piped stdin; default none (a terminal). */
  stdin?: string | null;
}

/** Splits a shell command line (plain words, '…' and "…" quotes) into argv. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /\s*(?:'([^']*)'|"([^"]*)"|([^\s'"]+))/gy;
  let current: string | null = null;
  let last = 0;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const joined = m.index === last && current !== null && !/^\s/.test(m[0]);
    const piece = m[1] ?? m[2] ?? m[3]!;
    if (joined) current += piece;
    else {
      if (current !== null) words.push(current);
      current = piece;
    }
    last = re.lastIndex;
  }
  if (current !== null) words.push(current);
  return words;
}

// Each run's signal guard stays installed after it (the real CLI exits): many runs in one file are expected.
process.setMaxListeners(100);

export async function runInProcess(command: string, opts: InProcessOptions): Promise<InProcessResult> {
  const argv = shellWords(command);
  if (argv.shift() !== 'unattended') throw new Error(`not an unattended command: ${command}`);
  const gemini = await startFakeGemini(opts.replies ?? [{ text: 'Done.' }]);
  const env = { GEMINI_API_KEY: 'in-process-test-key', GOOGLE_GEMINI_BASE_URL: gemini.url, ...opts.env };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const before = process.cwd();
  process.chdir(opts.cwd);
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => ((stderr += String(chunk)), true));
  // yargs prints help and completions with console.log, which the test runner takes over.
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void (stdout += `${parts.join(' ')}\n`));
  try {
    const code = await runCli(argv, { stdin: opts.stdin ?? null });
    return { code, stdout, stderr, requests: gemini.requests };
  } finally {
    out.mockRestore();
    log.mockRestore();
    err.mockRestore();
    process.chdir(before);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await gemini.close();
  }
}

/** The text of every part of one request's contents, by message. */
export function messageTexts(body: any): Array<{ role: string; text: string }> {
  return (body.contents as Array<{ role: string; parts: any[] }>).map((c) => ({
    role: c.role,
    text: c.parts.map((p) => p.text ?? (p.functionCall ? `call:${p.functionCall.name}` : p.functionResponse ? `response:${JSON.stringify(p.functionResponse.response)}` : '')).join('\n'),
  }));
}
