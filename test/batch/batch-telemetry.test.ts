// A batch exported as one trace (issue 15): `batch <recipe>` with a `target <spec>` span per
// target, each target's run nested under its target span (through TRACEPARENT in the run's
// environment), the whole under the pipeline's TRACEPARENT. The built CLI over the test fleet,
// an in-process OTLP/HTTP collector decoding protobuf.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupRepos, tempRoot } from '../git/repos.js';
import { baseEnv, CLI, cli, ROOT } from '../helpers/cli.js';
import { processesWith } from '../helpers/processes.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { makeFleet, makePlainFleet, readBatch, RECIPE } from './fleet.js';

afterAll(cleanupRepos);

const PIPELINE_TRACE = '0af7651916cd43dd8448eb211c80319c';
const PIPELINE_SPAN = 'b7ad6b7169203331';

describe('batch telemetry', () => {
  it('one trace: the batch span under TRACEPARENT, a span per target, each run under its target', { timeout: 90_000 }, async () => {
    const receiver = await startOtlpReceiver();
    try {
      const fleet = await makeFleet();
      // One target of each kind: run in place, cloned from a URL, denied, missing, unclonable. The
      // fleet's two other plain repositories would only add two more child runs like alpha's.
      fs.writeFileSync(fleet.targetsFile, `${fleet.targets.filter((t) => !/repos\/(beta|delta)$/.test(t)).join('\n')}\n`);
      const out = path.join(fleet.root, 'out');
      const r = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out], {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT: `00-${PIPELINE_TRACE}-${PIPELINE_SPAN}-01` },
        timeoutMs: 80_000,
      });
      const report = readBatch(out);
      expect(r.code, r.stderr).toBe(1);
      expect(report.rows.map((row: any) => row.category)).toEqual(['success', 'success', 'success', 'infrastructure', 'infrastructure']);
      const spans = receiver.spans;
      expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([PIPELINE_TRACE]));
      const batch = spans.filter((s) => s.name.startsWith('batch '));
      expect(batch).toHaveLength(1);
      expect(batch[0]!.parentSpanId).toBe(PIPELINE_SPAN);
      const targets = spans.filter((s) => s.name.startsWith('target '));
      expect(targets.map((t) => t.attributes['unattended.target']).sort()).toEqual(report.rows.map((row: any) => row.target).sort());
      for (const t of targets) expect(t.parentSpanId).toBe(batch[0]!.spanId);
      for (const row of report.rows as any[]) {
        const target = targets.find((t) => t.attributes['unattended.target'] === row.target)!;
        expect(target.attributes['unattended.category']).toBe(row.category);
        // A target that never ran (workspace not found, clone failed) has no run span.
        const runs = spans.filter((s) => s.name.startsWith('invoke_agent') && s.parentSpanId === target.spanId);
        expect(runs.length, row.target).toBe(row.run_id ? 1 : 0);
        if (row.run_id) {
          expect(runs[0]!.attributes['unattended.run_id']).toBe(row.run_id);
          const runReport = readJson(path.join(out, row.report));
          expect(runReport.trace.trace_id).toBe(PIPELINE_TRACE);
          expect(runReport.trace.span_id).toBe(runs[0]!.spanId);
        }
      }
    } finally {
      await receiver.close();
    }
  });

  it("a recipe's telemetry block (no OTEL_* environment) makes the batch one trace too, not a trace per run", { timeout: 60_000 }, async () => {
    const receiver = await startOtlpReceiver();
    try {
      const fleet = await makePlainFleet(['alpha', 'beta']);
      const dir = tempRoot('unattended-batch-recipe-');
      fs.copyFileSync(path.join(path.dirname(RECIPE), 'greet-turns.yaml'), path.join(dir, 'greet-turns.yaml'));
      const recipe = path.join(dir, 'greet.yaml');
      fs.writeFileSync(recipe, `${fs.readFileSync(RECIPE, 'utf8')}telemetry:\n  endpoint: ${receiver.url}\n`);
      const r = await cli(['batch', recipe, '--targets', fleet.targetsFile, '--out', path.join(fleet.root, 'out')], { env: {}, timeoutMs: 50_000 });
      expect(r.code, r.stderr).toBe(0);
      const spans = receiver.spans;
      const batch = spans.filter((s) => s.name.startsWith('batch '));
      expect(batch).toHaveLength(1);
      const runs = spans.filter((s) => s.name.startsWith('invoke_agent'));
      expect(runs).toHaveLength(2);
      for (const run of runs) {
        expect(run.traceId).toBe(batch[0]!.traceId);
        const target = spans.find((s) => s.spanId === run.parentSpanId)!;
        expect(target.name).toMatch(/^target /);
        expect(target.parentSpanId).toBe(batch[0]!.spanId);
      }
    } finally {
      await receiver.close();
    }
  });

  it('an endpoint written wrong is said on the batch\'s own stderr, once, not only in each run\'s report', { timeout: 60_000 }, async () => {
    const fleet = await makePlainFleet(['alpha', 'beta']);
    const r = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', path.join(fleet.root, 'out')], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' }, timeoutMs: 50_000 });
    expect(r.code, r.stderr).toBe(0);
    const said = r.stderr.split('\n').filter((line) => line.includes('OTEL_EXPORTER_OTLP_ENDPOINT'));
    expect(said, r.stderr).toHaveLength(1);
    expect(said[0]).toContain('localhost:4318');
  });

  it("a pipeline's trace that is not sampled (TRACEPARENT ...-00) is said on the batch's own stderr, once, not only in each run's report", { timeout: 60_000 }, async () => {
    const receiver = await startOtlpReceiver();
    try {
      const fleet = await makePlainFleet(['alpha', 'beta']);
      const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT: `00-${PIPELINE_TRACE}-${PIPELINE_SPAN}-00` };
      const r = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', path.join(fleet.root, 'out')], { env, timeoutMs: 50_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(receiver.spans).toEqual([]);
      const said = r.stderr.split('\n').filter((line) => line.includes('not sampled'));
      expect(said, r.stderr).toEqual([`unattended batch: telemetry: TRACEPARENT=00-${PIPELINE_TRACE}-${PIPELINE_SPAN}-00 is not sampled (trace flags 00, not 01): the batch's spans and its runs' follow the pipeline's decision and are not exported; the runs' metrics are`]);
    } finally {
      await receiver.close();
    }
  });

  it("TRACESTATE reaches every span, the target runs' too (it was dropped for them)", { timeout: 60_000 }, async () => {
    const receiver = await startOtlpReceiver();
    try {
      const fleet = await makePlainFleet(['alpha']);
      const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT: `00-${PIPELINE_TRACE}-${PIPELINE_SPAN}-01`, TRACESTATE: 'vendor=v1,other=x' };
      const r = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', path.join(fleet.root, 'out')], { env, timeoutMs: 50_000 });
      expect(r.code, r.stderr).toBe(0);
      const spans = receiver.spans;
      expect(spans.filter((s) => s.name.startsWith('invoke_agent'))).toHaveLength(1);
      expect(new Set(spans.map((s) => s.name.split(' ')[0]))).toEqual(new Set(['batch', 'target', 'invoke_agent', 'chat', 'execute_tool']));
      expect(spans.filter((s) => s.traceState !== 'vendor=v1,other=x').map((s) => s.name)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("a target URL's credentials do not leave in the trace (span name, attributes, status): they are redacted as in a transcript", { timeout: 60_000 }, async () => {
    const receiver = await startOtlpReceiver();
    try {
      const fleet = await makePlainFleet(['alpha']);
      // A token in the URL, as a CI job writes a private repository's; the clone fails (nothing listens on port 9).
      const secret = 'CANARY-TOKEN-00a1b2c3d4e5';
      fs.writeFileSync(fleet.targetsFile, `${fs.readFileSync(fleet.targetsFile, 'utf8')}https://x-access-token:${secret}@127.0.0.1:9/acme/private.git\n`);
      const r = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', path.join(fleet.root, 'out')], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, timeoutMs: 50_000 });
      expect(r.code, r.stderr).toBe(1);
      const targets = receiver.spans.filter((s) => s.name.startsWith('target '));
      expect(targets).toHaveLength(2);
      expect(targets.map((t) => t.name)).toContainEqual(expect.stringMatching(/^target https:\/\/.*127\.0\.0\.1:9\/acme\/private\.git$/));
      expect(JSON.stringify(receiver.spans)).not.toContain(secret);
    } finally {
      await receiver.close();
    }
  });

  it('a collector that never answers costs the batch one export timeout, not one per target (each run waited it out twice)', { timeout: 120_000 }, async () => {
    const receiver = await startOtlpReceiver();
    receiver.status = 0;
    try {
      const fleet = await makePlainFleet(['alpha', 'beta', 'gamma', 'delta']);
      const out = path.join(fleet.root, 'out');
      const timeoutMs = 3_000;
      const r = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out, '--concurrency', '1'], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_TIMEOUT: String(timeoutMs) }, timeoutMs: 100_000 });
      expect(r.code, r.stderr).toBe(0);
      const runs = (readBatch(out).rows as any[]).map((row) => readJson(path.join(out, row.report)));
      const late = (run: any) => run.warnings.filter((w: string) => w.startsWith('telemetry: export failed: not finished within'));
      // The first run waited the timeout and said so; the runs after it were told, and gave the
      // collector 250 ms (each waited the timeout before run_end, and again after, so did the batch).
      expect(late(runs[0])).toEqual([`telemetry: export failed: not finished within ${timeoutMs} ms; what was not sent is dropped`]);
      for (const run of runs.slice(1)) expect(late(run)).toEqual(['telemetry: export failed: not finished within 250 ms (cut short: the collector did not answer an earlier export); what was not sent is dropped']);
      expect(r.stderr).toContain('unattended batch: telemetry: export failed: not finished within 250 ms (cut short');
    } finally {
      await receiver.close();
    }
  });

  it('SIGTERM with a collector that never answers: the batch exits within seconds, not after the export timeout', { timeout: 90_000 }, async () => {
    const receiver = await startOtlpReceiver();
    receiver.status = 0;
    try {
      const fleet = await makePlainFleet(['alpha']);
      const dir = tempRoot('unattended-batch-sigterm-');
      const marker = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
      fs.writeFileSync(path.join(dir, 'turns.yaml'), JSON.stringify({ turns: [{ calls: [{ name: 'shell', args: { command: `sleep 30.${marker}` } }] }, { text: 'never' }] }));
      const recipe = path.join(dir, 'wait.yaml');
      fs.writeFileSync(recipe, 'version: 1\nname: wait\nprompt: Wait.\nprovider: scripted\nscript: turns.yaml\ntools: [shell]\nconfirmation:\n  mode: auto-approve\n');
      // An export may take 20 s; a CI system's SIGKILL follows its SIGTERM long before that.
      const env = baseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_TIMEOUT: '20000' });
      const child = execa(process.execPath, [CLI, 'batch', recipe, '--targets', fleet.targetsFile, '--out', path.join(dir, 'out')], { cwd: ROOT, env, extendEnv: false, reject: false, stdin: 'ignore', forceKillAfterDelay: false });
      const deadline = Date.now() + 30_000;
      while (processesWith(`sleep 30.${marker}`).length === 0) {
        if (Date.now() > deadline) throw new Error('the target never started its shell call');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const signalled = Date.now();
      child.kill('SIGTERM');
      const result = await child;
      const elapsed = Date.now() - signalled;
      expect(result.exitCode, result.stderr).toBe(143);
      // The target's run winds down within its 5 s; the batch's last export then has 1 s, as a run's has.
      expect(elapsed).toBeLessThan(9_000);
      expect(readJson(path.join(dir, 'out', 'batch-report.json')).interrupted).toBe('SIGTERM');
    } finally {
      await receiver.close();
    }
  });
});

function readJson(file: string): any {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
