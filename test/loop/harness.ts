// The loop in process: a scripted model, the recipe's real registry of built-in tools on a temp
// workspace, the recipe's real policy, the run's features (sub-agents, plan mode), and the report
// folded from the events. No HTTP, no child process (but for what a shell tool itself starts), so
// each scenario runs in milliseconds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadRecipe } from '../../src/recipe/index.js';
import { runLoop, type LoopResult } from '../../src/loop/run-loop.js';
import type { CachePrices, GenerateOptions, ModelProvider, ModelRequest, ModelTurn } from '../../src/providers/provider.js';
import { sameModelAs } from '../../src/providers/provider.js';
import { ScriptedProvider, type ScriptedTurn } from '../../src/providers/scripted.js';
import { buildReport } from '../../src/report/fold.js';
import type { Report } from '../../src/report/report.js';
import { RunFeatures } from '../../src/runner/run-features.js';
import { builtinRegistry, createJudge } from '../../src/runner/session.js';
import { toolOutputSaver } from '../../src/runner/tool-outputs.js';
import { RunDir } from '../../src/runner/out-dir.js';
import type { AnyTool } from '../../src/tools/tools.js';
import type { Content } from '../../src/types/content.js';
import type { RunEvent } from '../../src/types/events.js';
import { Workspace } from '../../src/util/workspace.js';

/** One model turn: a scripted turn, or a function of the request (to stall, retry, or send odd calls). */
export type HarnessTurn = ScriptedTurn | ((request: ModelRequest, options: GenerateOptions) => Promise<ModelTurn>);

export interface HarnessOptions {
  /** The recipe's YAML after `version`, `name` and `prompt` (tools, confirmation, limits...). */
  recipe: string;
  turns: HarnessTurn[];
  files?: Record<string, string>;
  /** Extra tools registered beside the recipe's built-ins. */
  tools?: (root: string) => AnyTool[];
  /** Aborts the run (pass `new RunStop(...)` as the reason, as the runner does). */
  signal?: AbortSignal;
  /** Answers the runner's side requests (a compaction summary) without using a turn; absent: they use turns like any request. */
  summarize?: (request: ModelRequest) => string;
  /** A real provider instead of the scripted turns (a real SDK against a fake endpoint). */
  provider?: ModelProvider;
  /** The scripted model's prompt-cache prices (ModelProvider.cachePrices). */
  cachePrices?: CachePrices;
  /** The conversation a continued run goes on with (the prompt `go` follows it). */
  history?: Content[];
  /** What the runner knows changed besides the file tools' reports (compaction.changedFiles). */
  changedFiles?: () => Promise<readonly string[]>;
}

export interface HarnessRun {
  result: LoopResult;
  events: RunEvent[];
  report: Report;
  /** What each model request carried (a copy of the history at the time); side requests are in `sideRequests`. */
  requests: Content[][];
  sideRequests: ModelRequest[];
  root: string;
  read(relative: string): string | null;
}

const made: string[] = [];

export function removeHarnessDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export async function runInProcess(opts: HarnessOptions): Promise<HarnessRun> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-loop-')));
  made.push(base);
  const root = path.join(base, 'ws');
  const outDir = path.join(base, 'out');
  fs.mkdirSync(root);
  fs.mkdirSync(outDir);
  for (const [rel, content] of Object.entries(opts.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  const recipeFile = path.join(base, 'recipe.yaml');
  fs.writeFileSync(recipeFile, `version: 1\nname: harness\nprompt: go\n${opts.recipe}\n`);
  const recipe = loadRecipe(recipeFile, { params: {}, overrides: { workspace: root } });

  const workspace = Workspace.open(root);
  const features = new RunFeatures(recipe, { outDir, env: {} });
  const registry = builtinRegistry(recipe, workspace, { PATH: process.env.PATH ?? '/usr/bin:/bin' }, features.toolContext);
  for (const tool of opts.tools?.(root) ?? []) registry.register(tool);
  const requests: Content[][] = [];
  const sideRequests: ModelRequest[] = [];
  const provider = withSideRequests(opts.provider ? recording(opts.provider, requests) : scriptedModel(opts.turns, root, requests, opts.cachePrices), sideRequests, opts.summarize);
  const events: RunEvent[] = [];
  const started = Date.now();
  const runDir = RunDir.open(outDir);
  const result = await runLoop(
    features.forLoop({
      provider,
      registry,
      judge: createJudge(recipe, workspace, outDir),
      systemInstruction: 'harness',
      prompt: 'go',
      ...(opts.history ? { history: opts.history } : {}),
      limits: recipe.limits,
      signal: opts.signal ?? new AbortController().signal,
      emit: (event) => events.push(event),
      cap: { threshold: 100_000, save: toolOutputSaver(runDir, (text) => text) },
      compaction: { window: recipe.limits.contextTokens, compactAt: recipe.limits.compactAt, ...(opts.changedFiles ? { changedFiles: opts.changedFiles } : {}) },
    }),
  ).finally(() => runDir.close());
  const all: RunEvent[] = [
    { type: 'run_start', run_id: 'harness', started_at: new Date(started).toISOString(), transcript: '', recipe: recipeFile, recipe_name: 'harness', provider: 'scripted', model: 'scripted', workspace: root, prompt: 'go', tools: registry.names(), policy: { mode: recipe.confirmation.mode, allow: [], deny: [] }, limits: {} },
    ...events,
    { type: 'run_end', status: result.status, exit_code: result.exitCode, final_answer: result.finalAnswer, error: result.error, error_kind: result.errorKind ?? null, turns: result.turns, tool_calls: result.toolCalls, usage: result.usage, duration_ms: Date.now() - started },
  ];
  const read = (rel: string) => (fs.existsSync(path.join(root, rel)) ? fs.readFileSync(path.join(root, rel), 'utf8') : null);
  return { result, events, report: buildReport(all), requests, sideRequests, root, read };
}

/** Side requests go to `summarize` when given (else to the model like a turn), recorded apart from the turns. */
function withSideRequests(inner: ModelProvider, side: ModelRequest[], summarize: HarnessOptions['summarize']): ModelProvider {
  return {
    ...sameModelAs(inner),
    async generate(request, options) {
      if (request.purpose === undefined) return inner.generate(request, options);
      side.push(structuredClone(request));
      if (!summarize) return inner.generate(request, options);
      const text = summarize(request);
      return { parts: [{ text }], text, functionCalls: [], usage: { input: 0, output: 0, total: 0 }, finish: { reason: 'stop', raw: null } };
    },
  };
}

function recording(inner: ModelProvider, requests: Content[][]): ModelProvider {
  return {
    ...sameModelAs(inner),
    generate(request, options) {
      if (request.purpose === undefined) requests.push(structuredClone(request.contents));
      return inner.generate(request, options);
    },
  };
}

/** Turns in order, `{{workspace}}` filled in as the scripted provider does; each request recorded. */
function scriptedModel(turns: HarnessTurn[], root: string, requests: Content[][], cachePrices?: CachePrices): ModelProvider {
  let next = 0;
  return {
    name: 'scripted',
    model: 'scripted',
    ...(cachePrices ? { cachePrices } : {}),
    async generate(request, options) {
      if (request.purpose === undefined) requests.push(structuredClone(request.contents));
      const index = next++;
      const turn = turns[index];
      if (typeof turn === 'function') return turn(request, options);
      // One turn at a time through the real scripted provider, so ids and placeholders are its own.
      const one = new ScriptedProvider(turn === undefined ? [] : [turn], root, 'harness-script');
      const reply = await one.generate(request, options);
      const functionCalls = reply.functionCalls.map((c, i) => ({ ...c, id: `call_${index + 1}_${i}` }));
      const parts = reply.parts.filter((p) => !p.functionCall).concat(functionCalls.map((call) => ({ functionCall: call })));
      return { ...reply, functionCalls, parts };
    },
  };
}

/** The function responses the model received in the request after turn `turn` (in order). */
export function responsesSent(run: HarnessRun, afterTurn: number): Array<{ name: string; response: Record<string, unknown> }> {
  const request = run.requests[afterTurn];
  if (!request) return [];
  const last = request[request.length - 1]!;
  return last.parts.flatMap((p) => (p.functionResponse ? [{ name: p.functionResponse.name, response: p.functionResponse.response }] : []));
}
