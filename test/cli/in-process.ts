// Runs a command line as a user types it (`unattended -p "…"`) through the CLI's entry in this
// process (helpers/cli-in-process.ts), against a fake Gemini endpoint on 127.0.0.1: no spawn, no
// key, no network.
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini, type FakeStep } from '../helpers/fake-gemini.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
  /** What the fake Gemini endpoint received, in order. */
  requests: FakeGemini['requests'];
}

export interface RunOptions {
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

/** `unattended …` as typed, through the CLI's entry in this process, against a fresh fake Gemini endpoint. */
export async function runInProcess(command: string, opts: RunOptions): Promise<InProcessResult> {
  const argv = shellWords(command);
  if (argv.shift() !== 'unattended') throw new Error(`not an unattended command: ${command}`);
  const gemini = await startFakeGemini(opts.replies ?? [{ text: 'Done.' }]);
  try {
    const env = { GEMINI_API_KEY: 'in-process-test-key', GOOGLE_GEMINI_BASE_URL: gemini.url, ...opts.env };
    const r = await cliInProcess(argv, { cwd: opts.cwd, env, stdin: opts.stdin ?? null });
    return { ...r, requests: gemini.requests };
  } finally {
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
