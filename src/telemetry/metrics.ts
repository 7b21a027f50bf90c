// The run's events as metrics: counters and histograms a fleet dashboard sums over runs, each with
// the recipe name and the model as attributes (set by run_start; earlier events carry 'none').
import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';
import type { RunEvent } from '../types/events.js';
import { modelRequestKey } from './request-key.js';

/** The GenAI semantic conventions' advice for gen_ai.client.operation.duration. */
const GEN_AI_DURATION_BUCKETS_S = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
/** The GenAI semantic conventions' advice for gen_ai.client.token.usage (powers of 4). */
const GEN_AI_TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
/** A run takes seconds to an hour or more. */
const RUN_BUCKETS_S = [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200];

export class RunMetrics {
  private readonly tokens: Counter;
  private readonly modelRequests: Counter;
  private readonly retries: Counter;
  private readonly toolCalls: Counter;
  private readonly denials: Counter;
  private readonly runs: Counter;
  private readonly cost: Counter;
  private readonly runDuration: Histogram;
  private readonly modelDuration: Histogram;
  private readonly tokenUsage: Histogram;
  private common: Attributes = { 'unattended.recipe': 'unnamed', 'gen_ai.request.model': 'none' };
  /** When each model request not yet answered was sent (by sub-agent and turn): one that fails is measured at run_end. */
  private readonly pending = new Map<string, number>();

  /** `providerName`: the recipe's provider as the GenAI conventions name it (./provider-name.ts). */
  constructor(
    meter: Meter,
    private readonly providerName: (provider: string) => string,
  ) {
    this.tokens = meter.createCounter('unattended.tokens', { unit: '{token}', description: 'Tokens used, by kind (input, output, cached)' });
    this.modelRequests = meter.createCounter('unattended.model.requests', { unit: '{request}', description: 'Model requests answered' });
    this.retries = meter.createCounter('unattended.model.retries', { unit: '{retry}', description: 'Model requests retried' });
    this.toolCalls = meter.createCounter('unattended.tool.calls', { unit: '{call}', description: 'Tool calls, by tool and outcome (ok, error, denied)' });
    this.denials = meter.createCounter('unattended.denials', { unit: '{call}', description: 'Tool calls the policy denied' });
    this.cost = meter.createCounter('unattended.cost', { unit: 'USD', description: 'What model calls cost, when a price is known' });
    this.runs = meter.createCounter('unattended.runs', { unit: '{run}', description: 'Runs ended, by status and exit code' });
    // Buckets in seconds: the SDK's default ones (0, 5, 10, 25 … 10000) are for milliseconds and put
    // every model request under 5 s in one bucket, so a dashboard's percentiles say nothing.
    this.runDuration = meter.createHistogram('unattended.run.duration', { unit: 's', description: 'Run duration, by status', advice: { explicitBucketBoundaries: RUN_BUCKETS_S } });
    this.modelDuration = meter.createHistogram('gen_ai.client.operation.duration', { unit: 's', description: 'Model request duration', advice: { explicitBucketBoundaries: GEN_AI_DURATION_BUCKETS_S } });
    // The conventions' token metric, which GenAI dashboards read (unattended.tokens is the same tokens as a counter).
    this.tokenUsage = meter.createHistogram('gen_ai.client.token.usage', { unit: '{token}', description: 'Tokens used per model request, by type (input, output)', advice: { explicitBucketBoundaries: GEN_AI_TOKEN_BUCKETS } });
  }

  observe(event: RunEvent): void {
    switch (event.type) {
      case 'run_start':
        this.common = { 'unattended.recipe': event.recipe_name, 'gen_ai.request.model': event.model, 'gen_ai.provider.name': this.providerName(event.provider) };
        return;
      case 'model_request':
        this.pending.set(modelRequestKey(event), performance.now());
        return;
      case 'model_response':
        this.pending.delete(modelRequestKey(event));
        this.modelRequests.add(1, this.common);
        this.modelDuration.record(event.duration_ms / 1000, { ...this.common, 'gen_ai.operation.name': 'chat' });
        this.tokens.add(event.usage.input, { ...this.common, 'gen_ai.token.type': 'input' });
        this.tokens.add(event.usage.output, { ...this.common, 'gen_ai.token.type': 'output' });
        this.recordUsage(event.usage, event.response_model);
        // A known price of nothing (a local model) is $0, not no data: only an unknown price is left out.
        if (event.usage.cost_usd !== undefined) this.cost.add(event.usage.cost_usd, this.common);
        if (event.usage.cached) this.tokens.add(event.usage.cached, { ...this.common, 'gen_ai.token.type': 'cached' });
        return;
      case 'side_request':
        this.tokens.add(event.usage.input, { ...this.common, 'gen_ai.token.type': 'input' });
        this.tokens.add(event.usage.output, { ...this.common, 'gen_ai.token.type': 'output' });
        // Its cached input too, as the report counts it (report/fold.ts) and a turn's is counted.
        if (event.usage.cached) this.tokens.add(event.usage.cached, { ...this.common, 'gen_ai.token.type': 'cached' });
        this.recordUsage(event.usage, undefined);
        if (event.usage.cost_usd !== undefined) this.cost.add(event.usage.cost_usd, this.common);
        return;
      case 'compaction':
        // The summary side request is paid for like a turn, as the report counts it.
        if (!event.usage) return;
        this.tokens.add(event.usage.input, { ...this.common, 'gen_ai.token.type': 'input' });
        this.tokens.add(event.usage.output, { ...this.common, 'gen_ai.token.type': 'output' });
        // A model request as any other: the conventions' histogram has it too, as it has a side request's.
        this.recordUsage(event.usage, undefined);
        if (event.usage.cached) this.tokens.add(event.usage.cached, { ...this.common, 'gen_ai.token.type': 'cached' });
        if (event.usage.cost_usd !== undefined) this.cost.add(event.usage.cost_usd, this.common);
        return;
      case 'retry':
        this.retries.add(1, this.common);
        return;
      case 'tool_call':
        if (event.decision?.decision === 'deny') this.denials.add(1, { ...this.common, 'gen_ai.tool.name': event.name });
        return;
      case 'tool_result':
        this.toolCalls.add(1, { ...this.common, 'gen_ai.tool.name': event.name, outcome: outcomeOf(event.error_type) });
        return;
      case 'run_end':
        this.failedRequests(event.error_kind !== null && event.status !== 'cancelled' ? event.error_kind : null);
        this.runs.add(1, { ...this.common, 'unattended.status': event.status, 'unattended.exit_code': event.exit_code });
        this.runDuration.record(event.duration_ms / 1000, { ...this.common, 'unattended.status': event.status });
        return;
      default:
        return;
    }
  }

  /** gen_ai.client.token.usage: one point per type of each request, with the model that answered when the provider said. */
  private recordUsage(usage: { input: number; output: number }, responseModel: string | undefined): void {
    const attributes: Attributes = { ...this.common, 'gen_ai.operation.name': 'chat', ...(responseModel ? { 'gen_ai.response.model': responseModel } : {}) };
    this.tokenUsage.record(usage.input, { ...attributes, 'gen_ai.token.type': 'input' });
    this.tokenUsage.record(usage.output, { ...attributes, 'gen_ai.token.type': 'output' });
  }

  /**
   * A request still unanswered when the run fails is the one that failed it (refused, retries run
   * out): the conventions record its duration too, with error.type. One a stop cut short is not
   * measured, as it did not fail.
   */
  private failedRequests(errorType: string | null): void {
    if (errorType !== null) {
      const now = performance.now();
      for (const sent of this.pending.values()) this.modelDuration.record((now - sent) / 1000, { ...this.common, 'gen_ai.operation.name': 'chat', 'error.type': errorType });
    }
    this.pending.clear();
  }
}

function outcomeOf(errorType: string | null): string {
  if (errorType === null) return 'ok';
  return errorType === 'policy_denied' ? 'denied' : 'error';
}
