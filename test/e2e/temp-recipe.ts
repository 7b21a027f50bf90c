// A recipe and its recorded turns written to a temp directory, for e2e tests that run their own recipes.
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { fixtureWorkspace, tempDir as makeTempDir } from '../helpers/cli.js';

const made: string[] = [];

/** A temp dir removed by cleanupTempDirs (call it in afterAll). */
export function tempDir(): string {
  const dir = makeTempDir();
  made.push(dir);
  return dir;
}

/** fixtureWorkspace, with its temp dir removed by cleanupTempDirs. */
export async function workspace(name: string, opts: { git?: boolean } = {}): Promise<string> {
  const ws = await fixtureWorkspace(name, opts);
  made.push(path.dirname(ws));
  return ws;
}

export function cleanupTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export interface Turn {
  text?: string;
  calls?: Array<{ name: string; args: Record<string, unknown> }>;
  usage?: { input: number; output: number };
}

/** Writes `recipe.yaml` (scripted, on `turns.yaml`) and returns its path and a fresh output dir. */
export function writeRecipe(recipe: Record<string, unknown>, turns: Turn[] = [], dir = tempDir()): { file: string; out: string; dir: string } {
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(file, stringify({ version: 1, name: 'case', provider: 'scripted', script: 'turns.yaml', ...recipe }));
  fs.writeFileSync(path.join(dir, 'turns.yaml'), stringify({ turns }));
  return { file, out: path.join(tempDir(), 'run'), dir };
}

export const geminiEnv = (url: string) => ({ GEMINI_API_KEY: 'test-key-e2e', GOOGLE_GEMINI_BASE_URL: url });

/** Names of the function declarations a recorded Gemini request offered. */
export function declaredTools(body: any): string[] {
  return (body.tools?.[0]?.functionDeclarations ?? []).map((d: { name: string }) => d.name);
}

/** The text parts of the last content of a recorded Gemini request. */
export function lastUserText(body: any): string {
  return body.contents.at(-1).parts.map((p: { text?: string }) => p.text ?? '').join('');
}
