// OpenTelemetry export (issue 15): the scripted provider and an in-process OTLP/HTTP collector on
// 127.0.0.1 that decodes what the real exporters send (protobuf by default, JSON on request).
// Asserts the span tree (run -> model requests, tool calls), the parent from TRACEPARENT, GenAI
// attributes, policy decisions, metrics, that no content leaves, that a collector refusing
// everything costs a warning and not the run, that SIGTERM still exports, and that without the
// OTEL_* environment nothing of telemetry is loaded.
//
// What is exported is asserted on runs of the CLI in this process (cliInProcess: the same runCli,
// runner and exporters, over real HTTP); what only a process shows (it exits no later than the
// flush deadlines, a signal still exports, which files it loads) on the built CLI. The collector
// that never answers costs its deadlines while the in-process runs go on beside it.
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import YAML from 'yaml';
import { baseEnv, CLI, cli, type CliResult, readRun, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { processesWith } from '../helpers/processes.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';

afterAll(removeTempDirs);

/** A collector for one test, closed when it ends. */
async function collector(): Promise<OtlpReceiver> {
  const receiver = await startOtlpReceiver();
  onTestFinished(() => receiver.close());
  return receiver;
}

const SECRET_PROMPT = 'Publish the package with token PROMPT-CANARY-7731.';
const PARENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';
/** The never-answering collector's case sets the export timeout to this: it waits it out once, then 250 ms. */
const SILENT_TIMEOUT_MS = 3_000;

/** An allowlist recipe: `git status` allowed, `git push *` denied, and a scripted model that tries both. */
function recipe(turns: unknown[], extra: Record<string, unknown> = {}): { file: string; out: string } {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'README.md'), 'hello\n');
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(
    file,
    YAML.stringify({
      version: 1,
      name: 'publish',
      prompt: SECRET_PROMPT,
      workspace: 'ws',
      provider: 'scripted',
      script: 'turns.yaml',
      tools: ['shell', 'read_file'],
      confirmation: { mode: 'allowlist', allow: [{ shell: 'echo *' }], deny: [{ shell: 'git push *' }] },
      ...extra,
    }),
  );
  return { file, out: path.join(dir, 'out') };
}

const TURNS = [
  { calls: [{ name: 'shell', args: { command: 'echo ARGS-CANARY-5521' } }], usage: { input: 120, output: 7 } },
  { calls: [{ name: 'shell', args: { command: 'git push origin DENIED-CANARY-7731' } }], usage: { input: 150, output: 9 } },
  { text: 'Could not publish: pushing is denied.', usage: { input: 180, output: 11 } },
];

const byName = (spans: ReceivedSpan[], prefix: string) => spans.filter((s) => s.name.startsWith(prefix));
/** A metric's value summed over the series that match `attrs`; each export is cumulative, so the last one of a series counts. */
function point(r: OtlpReceiver, metric: string, attrs: Record<string, unknown> = {}): number {
  const series = new Map<string, number>();
  for (const p of r.points) if (p.metric === metric && Object.entries(attrs).every(([k, v]) => p.attributes[k] === v)) series.set(JSON.stringify(p.attributes), p.value);
  return [...series.values()].reduce((sum, v) => sum + v, 0);
}

describe('OpenTelemetry export', () => {
  // The built CLI against a collector that never answers, started before the cases below: the
  // process must exit once its flush deadlines pass, with no request outliving them. It is let go
  // once the collector holds its first request (the process has started and run, and from then
  // on only waits), so its deadlines pass while the in-process cases run. `waited`: from that
  // first request (the flush before run_end) to the exit, free of the start-up a busy machine slows.
  let silent: OtlpReceiver;
  let neverAnswered: Promise<{ r: CliResult; elapsed: number; waited: number; out: string }>;
  beforeAll(async () => {
    silent = await startOtlpReceiver();
    silent.status = 0;
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const started = Date.now();
    let firstRequest = 0;
    neverAnswered = cli(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: silent.url, OTEL_EXPORTER_OTLP_TIMEOUT: String(SILENT_TIMEOUT_MS) } }).then((r) => ({ r, elapsed: Date.now() - started, waited: Date.now() - firstRequest, out }));
    let exited = false;
    void neverAnswered.finally(() => (exited = true));
    while (silent.requests.length === 0 && !exited) await new Promise((resolve) => setTimeout(resolve, 20));
    firstRequest = Date.now();
  });
  afterAll(async () => {
    await neverAnswered;
    await silent?.close();
  });

  it('http/protobuf (the default): a run span under TRACEPARENT, model and tool spans under it, metrics, no content', async () => {
    const receiver = await collector();
    const { file, out } = recipe(TURNS);
    const r = await cliInProcess(['run', file, '--out', out], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT: `00-${PARENT_TRACE}-${PARENT_SPAN}-01` },
    });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(receiver.requests.every((q) => q.contentType === 'application/x-protobuf')).toBe(true);

    const spans = receiver.spans;
    const [run] = byName(spans, 'invoke_agent');
    expect(run).toBeDefined();
    // The run nests under the pipeline's span, and report.json names the trace.
    expect(run!.traceId).toBe(PARENT_TRACE);
    expect(run!.parentSpanId).toBe(PARENT_SPAN);
    expect(report.trace).toEqual({ trace_id: PARENT_TRACE, span_id: run!.spanId });
    expect(run!.name).toBe('invoke_agent publish');
    expect(run!.attributes).toMatchObject({
      'unattended.recipe': 'publish',
      'gen_ai.request.model': report.model,
      'unattended.policy.mode': 'allowlist',
      'unattended.status': report.status,
      'unattended.exit_code': 0,
      'gen_ai.usage.input_tokens': 450,
      'gen_ai.usage.output_tokens': 27,
    });
    expect(run!.resource['service.name']).toBe('unattended');
    expect(run!.resource['service.version']).toMatch(/^\d+\.\d+\.\d+/);
    // Denied calls, but the run did its work (exit 0): not an error span, which would inflate error rates.
    expect(report.status).toBe('denied');
    expect(run!.status.code).toBe(0);

    const chats = byName(spans, 'chat ');
    expect(chats).toHaveLength(3);
    for (const chat of chats) {
      expect(chat.parentSpanId).toBe(run!.spanId);
      expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'scripted', 'gen_ai.request.model': report.model, 'gen_ai.response.model': report.model });
    }
    expect(chats.map((c) => c.attributes['gen_ai.usage.input_tokens']).sort()).toEqual([120, 150, 180]);
    expect(chats.map((c) => c.attributes['gen_ai.response.finish_reasons'])).toContainEqual(['stop']);

    const tools = byName(spans, 'execute_tool shell');
    expect(tools).toHaveLength(2);
    const allowed = tools.find((t) => t.attributes['unattended.policy.decision'] === 'allow')!;
    const denied = tools.find((t) => t.attributes['unattended.policy.decision'] === 'deny')!;
    expect(allowed.parentSpanId).toBe(run!.spanId);
    expect(allowed.status.code).toBe(0);
    expect(denied.attributes).toMatchObject({ 'unattended.policy.rule': 'shell: git push *', 'error.type': 'policy_denied' });
    expect(denied.status.code).toBe(2);
    // The policy's reason quotes the call: its status names the rule instead.
    expect(denied.status.message).toBe('denied by the rule shell: git push *');

    // Nothing the model or the user wrote leaves without telemetry.log_content.
    const exported = JSON.stringify(spans);
    expect(exported).not.toContain('PROMPT-CANARY');
    expect(exported).not.toContain('ARGS-CANARY');
    expect(exported).not.toContain('DENIED-CANARY');
    expect(exported).not.toContain('Could not publish');

    const common = { 'unattended.recipe': 'publish' };
    expect(point(receiver, 'unattended.tokens', { ...common, 'gen_ai.token.type': 'input' })).toBe(450);
    expect(point(receiver, 'unattended.tokens', { ...common, 'gen_ai.token.type': 'output' })).toBe(27);
    expect(point(receiver, 'unattended.model.requests', common)).toBe(3);
    expect(point(receiver, 'unattended.tool.calls', { 'gen_ai.tool.name': 'shell', outcome: 'ok' })).toBe(1);
    expect(point(receiver, 'unattended.tool.calls', { 'gen_ai.tool.name': 'shell', outcome: 'denied' })).toBe(1);
    expect(point(receiver, 'unattended.denials', common)).toBe(1);
    expect(point(receiver, 'unattended.runs', { ...common, 'unattended.status': report.status, 'unattended.exit_code': 0 })).toBe(1);
    expect(point(receiver, 'unattended.run.duration', common)).toBe(1);
    // Durations in seconds with buckets for seconds (the GenAI semconv's for model requests), cumulative, with units.
    const modelDuration = receiver.points.find((p) => p.metric === 'gen_ai.client.operation.duration')!;
    expect(modelDuration.unit).toBe('s');
    expect(modelDuration.bounds).toEqual([0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92]);
    expect(receiver.points.find((p) => p.metric === 'unattended.run.duration')!.bounds![0]).toBe(1);
    expect(receiver.points.find((p) => p.metric === 'unattended.tokens')!.unit).toBe('{token}');
    // The GenAI conventions' token metric, which their dashboards read: a histogram per request, by type.
    for (const [type, sum] of [['input', 450], ['output', 27]] as const) {
      const usage = receiver.points.filter((p) => p.metric === 'gen_ai.client.token.usage' && p.attributes['gen_ai.token.type'] === type).at(-1)!;
      expect(usage, type).toBeDefined();
      expect(usage.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'scripted', 'gen_ai.request.model': 'scripted' });
      expect([usage.value, usage.sum, usage.unit]).toEqual([3, sum, '{token}']);
      expect(usage.bounds!.slice(0, 4)).toEqual([1, 4, 16, 64]);
    }
    expect(new Set(receiver.points.map((p) => p.temporality))).toEqual(new Set([2]));
  });

  it('http/json with headers, a service name and resource attributes; a signal-specific endpoint is used as given', async () => {
    const receiver = await collector();
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const r = await cliInProcess(['run', file, '--out', out], {
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=fleet%20a,authorization=Bearer abc',
        OTEL_SERVICE_NAME: 'nightly-agents',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=ci,team=infra,service.version=2.3.1',
      },
    });
    expect(r.code, r.stderr).toBe(0);
    // Only traces: no metrics endpoint was given.
    expect(new Set(receiver.requests.map((q) => q.path))).toEqual(new Set(['/v1/traces']));
    expect(receiver.requests[0]!.contentType).toBe('application/json');
    expect(receiver.requests[0]!.headers['x-tenant']).toBe('fleet a');
    expect(receiver.requests[0]!.headers.authorization).toBe('Bearer abc');
    const [run] = byName(receiver.spans, 'invoke_agent');
    // The service named is the user's: so is its version, when they give one.
    expect(run!.resource).toMatchObject({ 'service.name': 'nightly-agents', 'service.version': '2.3.1', 'deployment.environment': 'ci', team: 'infra' });
    expect(run!.parentSpanId).toBe('');
    expect(readRun(out).report.trace.trace_id).toBe(run!.traceId);
  });

  it("two runs write two metric series, not one (each its own service.instance.id), so a fleet's counters add up; the user's instance id is kept", async () => {
    const receiver = await collector();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    for (let i = 0; i < 2; i++) {
      const { file, out } = recipe([{ text: 'Nothing to do.' }]);
      const r = await cliInProcess(['run', file, '--out', out], { env });
      expect(r.code, r.stderr).toBe(0);
    }
    const runs = receiver.points.filter((p) => p.metric === 'unattended.runs');
    expect(runs).toHaveLength(2);
    // Same attributes, same service: the resource alone tells the two runs' cumulative series apart.
    expect(runs[0]!.attributes).toEqual(runs[1]!.attributes);
    const instances = runs.map((p) => p.resource?.['service.instance.id']);
    for (const id of instances) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(instances[0]).not.toBe(instances[1]);
    const spans = byName(receiver.spans, 'invoke_agent');
    expect(spans.map((s) => s.resource['service.instance.id']).sort()).toEqual([...instances].sort());

    const mine = await collector();
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: mine.url, OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=runner-7' } });
    expect(r.code, r.stderr).toBe(0);
    expect(mine.points.find((p) => p.metric === 'unattended.runs')!.resource?.['service.instance.id']).toBe('runner-7');
  });

  it('signal-specific headers win over OTEL_EXPORTER_OTLP_HEADERS for their signal; service.name may come from OTEL_RESOURCE_ATTRIBUTES', async () => {
    const receiver = await collector();
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const r = await cliInProcess(['run', file, '--out', out], {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=general-key,x-common=both',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-honeycomb-team=traces-key',
        OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'x-honeycomb-dataset=agent%20metrics',
        OTEL_RESOURCE_ATTRIBUTES: 'service.name=fleet-agents',
      },
    });
    expect(r.code, r.stderr).toBe(0);
    const sent = (signal: string) => receiver.requests.filter((q) => q.path === `/v1/${signal}`).map((q) => q.headers);
    expect(sent('traces').length).toBeGreaterThan(0);
    expect(sent('metrics').length).toBeGreaterThan(0);
    for (const h of sent('traces')) expect([h['x-honeycomb-team'], h['x-common'], h['x-honeycomb-dataset']]).toEqual(['traces-key', 'both', undefined]);
    for (const h of sent('metrics')) expect([h['x-honeycomb-team'], h['x-common'], h['x-honeycomb-dataset']]).toEqual(['general-key', 'both', 'agent metrics']);
    expect(byName(receiver.spans, 'invoke_agent')[0]!.resource['service.name']).toBe('fleet-agents');
  });

  it('a header entry that cannot be sent (a bad escape, a name with a space) is a warning; the other headers and the export still go', async () => {
    const receiver = await collector();
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=fleet,x-team=%ZZ,bad key=1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(byName(receiver.spans, 'invoke_agent')).toHaveLength(1);
    expect(receiver.requests.every((q) => q.headers['x-tenant'] === 'fleet')).toBe(true);
    const { report } = readRun(out);
    expect(report.warnings).toEqual([
      'telemetry: OTEL_EXPORTER_OTLP_HEADERS: the value of x-team is not valid percent-encoding (write a % as %25); it is ignored',
      'telemetry: OTEL_EXPORTER_OTLP_HEADERS has an entry whose key is not a header name, 9 characters long; it is ignored',
    ]);
    expect(report.trace).not.toBeNull();
  });

  it('an endpoint without its scheme (localhost:4318) is a warning that says how to write it, and nothing is sent elsewhere', async () => {
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' } });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.warnings).toEqual(['telemetry: OTEL_EXPORTER_OTLP_ENDPOINT=localhost:4318 is not an http:// or https:// URL; traces and metrics are not exported (write a URL with its scheme, like http://localhost:4318)']);
    expect(report.trace).toBeNull();
  });

  it('a TRACEPARENT the W3C propagator refuses (upper-case hex) is a warning; the run is still exported, as a trace of its own', async () => {
    const receiver = await collector();
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const bad = `00-${PARENT_TRACE.toUpperCase()}-${PARENT_SPAN}-01`;
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT: bad } });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.warnings).toEqual([`telemetry: TRACEPARENT=${bad} is not a W3C traceparent (00-<32 hex digits, lower case>-<16 hex digits>-<2 hex digits>); the run's trace starts on its own`]);
    const [run] = byName(receiver.spans, 'invoke_agent');
    expect([run!.parentSpanId, run!.traceId === PARENT_TRACE]).toEqual(['', false]);
  });

  it('an endpoint written with /v1/traces (as collectors document the traces URL) exports to the collector, with a warning; it went to /v1/traces/v1/traces', async () => {
    const receiver = await collector();
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/v1/traces` } });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.warnings).toEqual([`telemetry: OTEL_EXPORTER_OTLP_ENDPOINT=${receiver.url}/v1/traces is the collector's base URL, to which each signal's path is appended: /v1/traces is taken off (set OTEL_EXPORTER_OTLP_TRACES_ENDPOINT for one signal's own URL)`]);
    expect(byName(receiver.spans, 'invoke_agent')).toHaveLength(1);
    expect(new Set(receiver.requests.map((q) => q.path))).toEqual(new Set(['/v1/traces', '/v1/metrics']));
  });

  it('a recipe telemetry block turns export on; log_content exports the content, redacted like the transcript', async () => {
    const receiver = await collector();
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    const { file, out } = recipe(
      [{ calls: [{ name: 'shell', args: { command: `echo ARGS-CANARY ${token}` } }] }, { text: 'Done: PUBLISHED-CANARY.' }],
      { telemetry: { endpoint: receiver.url, protocol: 'http/json', service_name: 'from-recipe', log_content: true } },
    );
    const r = await cliInProcess(['run', file, '--out', out], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(receiver.requests.every((q) => q.contentType === 'application/json')).toBe(true);
    const [run] = byName(receiver.spans, 'invoke_agent');
    expect(run!.resource['service.name']).toBe('from-recipe');
    expect(run!.attributes['unattended.prompt']).toBe(SECRET_PROMPT);
    const [tool] = byName(receiver.spans, 'execute_tool shell');
    expect(tool!.attributes['gen_ai.tool.call.arguments']).toContain('ARGS-CANARY [REDACTED]');
    expect(tool!.attributes['gen_ai.tool.call.result']).toContain('ARGS-CANARY');
    expect(JSON.stringify(receiver.spans)).not.toContain(token);
    expect(JSON.stringify(receiver.spans)).toContain('PUBLISHED-CANARY');
    expect(readRun(out).report.trace.trace_id).toBe(run!.traceId);
  });

  it('log_content cuts content at 4,096 characters after redacting it: a secret across the cut leaves nothing of itself', async () => {
    const receiver = await collector();
    const secret = 'Zq7'.repeat(12);
    const token = `ghp_${secret}`;
    // The token starts 34 characters before the cut: cut first, its 30 visible characters no longer look like a token.
    const prompt = `${'p'.repeat(4_096 - 35)} ${token} and more`;
    const { file, out } = recipe([{ text: 'Done.' }], { prompt, telemetry: { endpoint: receiver.url, log_content: true } });
    const r = await cliInProcess(['run', file, '--out', out], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    const exported = byName(receiver.spans, 'invoke_agent')[0]!.attributes['unattended.prompt'] as string;
    expect(exported.startsWith('p'.repeat(100))).toBe(true);
    expect(exported.length).toBeLessThanOrEqual(4_097);
    expect(exported).not.toContain(secret.slice(0, 12));
  });

  it('a rule that quotes a token: the denied call\'s span names the rule redacted like the transcript\'s', async () => {
    const receiver = await collector();
    const token = `ghp_${'Ru1e'.repeat(9)}`;
    const rule = `curl -H 'Authorization: token ${token}' *`;
    const turns = [{ calls: [{ name: 'shell', args: { command: `curl -H 'Authorization: token ${token}' https://example.invalid` } }] }, { text: 'Denied.' }];
    const { file, out } = recipe(turns, { confirmation: { mode: 'allowlist', allow: [{ shell: 'echo *' }], deny: [{ shell: rule }] } });
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    expect(r.code, r.stderr).toBe(0);
    const transcript = fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8');
    expect(transcript).not.toContain(token);
    const [denied] = byName(receiver.spans, 'execute_tool shell');
    expect(denied!.attributes['unattended.policy.decision']).toBe('deny');
    expect(denied!.status.message).toMatch(/^denied by the rule shell: curl -H 'Authorization: token /);
    expect(JSON.stringify(receiver.spans)).not.toContain(token);
  });

  it('a retried model request is a span event and a metric; its reason (the provider\'s error text) is redacted like the transcript\'s', async () => {
    const receiver = await collector();
    const token = `ghp_${'R3tRy'.repeat(8)}`;
    const fake = await startFakeOpenAI([{ status: 503, retryAfterMs: '10', message: `overloaded; your request carried ${token}` }, { text: 'Done.', usage: { prompt_tokens: 20, completion_tokens: 3, total_tokens: 23 } }]);
    onTestFinished(() => fake.close());
    const { file, out } = recipe([], { provider: 'openai', model: 'gpt-4o-mini', base_url: fake.url, script: undefined });
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-000000' } });
    expect(r.code, r.stderr).toBe(0);
    const retries = byName(receiver.spans, 'chat ').flatMap((s) => s.events.filter((e) => e.name === 'retry'));
    expect(retries).toHaveLength(1);
    expect(retries[0]!.attributes.reason).toContain('overloaded');
    // The model the server says answered (the fake names the one asked for).
    expect(byName(receiver.spans, 'chat ')[0]!.attributes['gen_ai.response.model']).toBe('gpt-4o-mini');
    expect(JSON.stringify(receiver.spans)).not.toContain(token);
    expect(point(receiver, 'unattended.model.retries', { 'unattended.recipe': 'publish' })).toBe(1);
  });

  it('a model request the provider refuses: its chat span says why (error.type and the error), not that it was cut short', async () => {
    const receiver = await collector();
    const fake = await startFakeOpenAI([{ status: 400, message: 'tools[0] is invalid' }]);
    onTestFinished(() => fake.close());
    const { file, out } = recipe([], { provider: 'openai', model: 'gpt-4o-mini', base_url: fake.url, script: undefined });
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-000000' } });
    expect(r.code).toBe(readRun(out).report.exit_code);
    const [chat] = byName(receiver.spans, 'chat ');
    expect(chat!.status.code).toBe(2);
    expect(chat!.attributes['error.type']).toBe('bad_request');
    expect(chat!.status.message).toContain('tools[0] is invalid');
    expect(byName(receiver.spans, 'invoke_agent')[0]!.attributes['error.type']).toBe('bad_request');
    // The conventions measure a failed request's duration too, with error.type.
    expect(point(receiver, 'gen_ai.client.operation.duration', { 'gen_ai.operation.name': 'chat', 'error.type': 'bad_request' })).toBe(1);
  });

  it('a collector that refuses everything costs a warning in the report, never the run', async () => {
    const receiver = await collector();
    receiver.status = 400;
    const { file, out } = recipe(TURNS);
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.exit_code).toBe(0);
    expect(report.warnings.some((w: string) => /^telemetry: export failed: (traces|metrics)/.test(w))).toBe(true);
    // Which URL refused, and how: a wrong path or a missing key is then plain to see.
    expect(report.warnings).toContainEqual(expect.stringMatching(new RegExp(`^telemetry: export failed: traces to ${receiver.url}/v1/traces: HTTP 400 `)));
  });

  it('exports with OTEL_EXPORTER_OTLP_TIMEOUT anywhere in its range, above the metric reader\'s one-minute interval too', async () => {
    const receiver = await collector();
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_TIMEOUT: '600000' } });
    expect(r.code, r.stderr).toBe(0);
    const { report } = readRun(out);
    expect(report.warnings.filter((w: string) => w.startsWith('telemetry:'))).toEqual([]);
    expect(report.trace).not.toBeNull();
    expect(receiver.requests.length).toBeGreaterThan(0);
  });

  it('OTEL_TRACES_EXPORTER=none: metrics go, no trace does, and report.json names none', async () => {
    const receiver = await collector();
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: 'none' } });
    expect(r.code, r.stderr).toBe(0);
    expect(readRun(out).report.trace).toBeNull();
    expect(receiver.requests.some((q: { path: string }) => q.path.endsWith('/v1/traces'))).toBe(false);
    expect(receiver.requests.some((q: { path: string }) => q.path.endsWith('/v1/metrics'))).toBe(true);
  });

  it('OTEL_SDK_DISABLED=true turns it off: nothing is sent and report.json has no trace', async () => {
    const receiver = await collector();
    const { file, out } = recipe([{ text: 'Nothing to do.' }]);
    const r = await cliInProcess(['run', file, '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: 'true' } });
    expect(r.code, r.stderr).toBe(0);
    expect(receiver.requests).toEqual([]);
    expect(readRun(out).report.trace).toBeNull();
  });

  it('a collector that never answers holds the run up for one export timeout (OTEL_EXPORTER_OTLP_TIMEOUT before run_end), then 250 ms, not the timeout again', async () => {
    const { r, elapsed, waited, out } = await neverAnswered;
    expect(r.code, r.stderr).toBe(0);
    // The flush before run_end waited the timeout; the one after it, knowing the collector does
    // not answer, 250 ms, and the process did not wait for the request it gave up on (it waited
    // the timeout twice, 6 s from the first request, and so did every run of a batch).
    expect(elapsed).toBeGreaterThanOrEqual(SILENT_TIMEOUT_MS + 250);
    expect(waited).toBeLessThan(SILENT_TIMEOUT_MS + 2_000);
    expect(readRun(out).report.warnings).toContainEqual(expect.stringMatching(new RegExp(`^telemetry: export failed: not finished within ${SILENT_TIMEOUT_MS} ms`)));
    expect(r.stderr).toContain("unattended: telemetry: export failed: not finished within 250 ms (cut short: the collector did not answer an earlier export); what was not sent is dropped (the run's outcome is not affected)");
  });

  it('SIGTERM during a tool call: the cancelled run is still exported, the cut-short tool span ends with it', async () => {
    const receiver = await collector();
    const dir = tempDir();
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    const script = path.join(dir, 'turns.yaml');
    const marker = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
    fs.writeFileSync(script, JSON.stringify({ turns: [{ calls: [{ name: 'shell', args: { command: `sleep 30.${marker}` } }] }, { text: 'never' }] }));
    const out = path.join(dir, 'out');
    const child = execa(process.execPath, [CLI, 'run', '--provider', 'scripted', '--script', script, '--prompt', 'wait', '--approval', 'auto-approve', '--workspace', ws, '--out', out], {
      cwd: ROOT,
      env: baseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    // Signalled once the command runs (a signal between the tool_call event and the spawn is another matter).
    const deadline = Date.now() + 20_000;
    while (processesWith(`sleep 30.${marker}`).length === 0) {
      if (Date.now() > deadline) throw new Error('the shell call never started');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(143);
    const [run] = byName(receiver.spans, 'invoke_agent');
    expect(run!.attributes).toMatchObject({ 'unattended.status': 'cancelled', 'unattended.exit_code': 143 });
    const [tool] = byName(receiver.spans, 'execute_tool shell');
    expect(tool!.parentSpanId).toBe(run!.spanId);
    expect(point(receiver, 'unattended.runs', { 'unattended.status': 'cancelled' })).toBe(1);
  });
});

describe('telemetry off (the default)', () => {
  /**
   * Runs the built CLI with a hook that lists every file of dist/ it loads: the CommonJS files it
   * requires (the launcher, dist/vendor/), and the command's code, which the launcher compiles
   * through vm.Script.
   */
  async function loadedFiles(args: string[], env: Record<string, string> = {}): Promise<string[]> {
    const dir = tempDir();
    const log = path.join(dir, 'loaded.txt');
    const hook = [
      "const fs = require('node:fs'), Module = require('node:module'), vm = require('node:vm');",
      `const note = (file) => { if (file.includes('/dist/')) fs.appendFileSync(${JSON.stringify(log)}, file + '\\n'); };`,
      'const load = Module.prototype.load;',
      'Module.prototype.load = function (file) { note(file); return load.call(this, file); };',
      'const Script = vm.Script;',
      'vm.Script = class extends Script { constructor(code, options) { note(options.filename); super(code, options); } };',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'hook.cjs'), hook);
    const r = await execa(process.execPath, ['--require', path.join(dir, 'hook.cjs'), CLI, ...args], { cwd: dir, env: baseEnv(env), extendEnv: false, reject: false, stdin: 'ignore' });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    return fs.readFileSync(log, 'utf8').trim().split('\n');
  }
  // The SDK's own code: a file that defines its classes (the command's code only names them).
  const sdkMarker = /\b(?:class (?:BatchSpanProcessorBase|OTLPTraceExporter|PeriodicExportingMetricReader)\b|(?:BatchSpanProcessorBase|OTLPTraceExporter|PeriodicExportingMetricReader)\s*=\s*class\b)/;
  const withSdk = (files: string[]) => files.filter((f) => sdkMarker.test(fs.readFileSync(f, 'utf8'))).map((f) => path.basename(f));

  // --version is left to test/cli/help-loads.test.ts: it loads the entry file and a few bytes beside it.
  it('a plain run loads none of the OpenTelemetry code; a run that exports does', async () => {
    const [quiet, exported] = [recipe([{ text: 'Nothing to do.' }]), recipe([{ text: 'Nothing to do.' }])];
    const receiver = await collector();
    // Two processes side by side, each with its own workspace.
    const [plain, exporting] = await Promise.all([
      loadedFiles(['run', quiet.file, '--out', quiet.out]),
      loadedFiles(['run', exported.file, '--out', exported.out], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
    ]);
    // The hook is real: it saw the command's code.
    expect(plain.map((f) => path.basename(f))).toContain('main.cjs');
    expect(withSdk(plain)).toEqual([]);
    expect(withSdk(exporting).length).toBeGreaterThan(0);
  });
});

describe('a signal with a collector that never answers (built CLI)', () => {
  it('exits with the signal\'s code within 5 s, whatever the export timeout', { timeout: 30_000 }, async () => {
    const sockets = new Set<import('node:net').Socket>();
    const collector = createServer(() => {
      // accepts, never answers
    });
    collector.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    try {
      const dir = tempDir();
      fs.mkdirSync(path.join(dir, 'ws'));
      fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns: [{ calls: [{ name: 'shell', args: { command: 'sleep 30' } }] }, { text: 'done' }] }));
      const child = execa(process.execPath, [CLI, 'run', '--provider', 'scripted', '--script', path.join(dir, 'turns.yaml'), '--workspace', path.join(dir, 'ws'), '--out', path.join(dir, 'out'), '--prompt', 'go', '--approval', 'auto-approve', '--sandbox', 'off'], {
        cwd: ROOT,
        env: baseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '10000' }),
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
      let seen = '';
      // The run has started once its banner is printed; the call, soon after.
      await new Promise<void>((resolve) => child.stderr!.on('data', (chunk: Buffer) => ((seen += chunk.toString()), seen.includes('unattended:') && resolve())));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const signalled = Date.now();
      child.kill('SIGTERM');
      const result = await child;
      expect(result.exitCode).toBe(143);
      expect(Date.now() - signalled).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => collector.close(resolve));
    }
  });
});
