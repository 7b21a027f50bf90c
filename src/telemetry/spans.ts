// The run's events as a span tree: the run span (started before the events, by ./exporter.ts) holds
// a span per model request (GenAI semantic conventions: `chat <model>`), per tool call
// (`execute_tool <name>`), per success check and one for the git hand-off. A sub-agent's spans
// nest under the task call that ran it. Content (prompt, arguments, outputs) goes out only when
// `logContent` returns it, already redacted.
import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { RunEvent } from '../types/events.js';
import { handoffFailed } from '../types/changes.js';
import { modelRequestKey } from './request-key.js';

type Of<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

export class RunSpans {
  private provider = 'none';
  private model = 'none';
  private readonly modelSpans = new Map<string, Span>();
  private readonly toolSpans = new Map<string, { span: Span; context: Context }>();

  constructor(
    private readonly tracer: Tracer,
    private readonly run: Span,
    private readonly runContext: Context,
    private readonly logContent: (text: string) => string | null,
    /** Free text exported whatever log_content says (a provider's error, a warning) may quote a secret: redacted as in the transcript. */
    private readonly redact: (text: string) => string,
    /** The recipe's provider as the GenAI conventions name it (./provider-name.ts). */
    private readonly providerName: (provider: string) => string,
  ) {}

  observe(event: RunEvent): void {
    switch (event.type) {
      case 'run_start':
        return this.runStart(event);
      case 'model_request':
        return this.modelRequest(event);
      case 'model_response':
        return this.modelResponse(event);
      case 'retry':
        this.modelSpans.get(modelRequestKey(event))?.addEvent('retry', { attempt: event.attempt, delay_ms: event.delay_ms, reason: this.redact(event.reason) });
        return;
      case 'tool_call':
        return this.toolCall(event);
      case 'tool_result':
        return this.toolResult(event);
      case 'check':
        return this.check(event);
      case 'git_handoff':
        return this.handoff(event);
      case 'limit':
        this.parentSpan(event.parent_call_id).addEvent('limit', { 'unattended.limit': event.limit, 'unattended.limit.value': event.value });
        return;
      case 'warning':
        this.run.addEvent('warning', { message: this.redact(event.message) });
        return;
      case 'network_denied':
        this.run.addEvent('network_denied', { 'server.address': event.host, 'server.port': event.port });
        return;
      case 'run_end':
        return this.runEnd(event);
      default:
        return;
    }
  }

  /** Spans still open when the run ends abruptly (a signal mid-call) end with it, marked as cut short. */
  endAll(): void {
    for (const span of this.modelSpans.values()) endCut(span);
    for (const { span } of this.toolSpans.values()) endCut(span);
    this.modelSpans.clear();
    this.toolSpans.clear();
    if (this.run.isRecording()) endCut(this.run);
  }

  private runStart(event: Of<'run_start'>): void {
    this.provider = this.providerName(event.provider);
    this.model = event.model;
    this.run.updateName(`invoke_agent ${event.recipe_name}`);
    this.run.setAttributes({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': event.recipe_name,
      'gen_ai.provider.name': this.provider,
      'gen_ai.request.model': event.model,
      'unattended.run_id': event.run_id,
      'unattended.recipe': event.recipe_name,
      'unattended.policy.mode': event.policy.mode,
      'unattended.sandbox': event.sandbox ? (event.sandbox.kind ?? 'none') : 'none',
      'unattended.tools': event.tools,
    });
    const prompt = event.prompt ? this.logContent(event.prompt) : null;
    if (prompt !== null) this.run.setAttribute('unattended.prompt', prompt);
  }

  private modelRequest(event: Of<'model_request'>): void {
    const span = this.tracer.startSpan(
      `chat ${this.model}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': this.provider, 'gen_ai.request.model': this.model, 'unattended.turn': event.turn },
      },
      this.parentContext(event.parent_call_id),
    );
    this.modelSpans.set(modelRequestKey(event), span);
  }

  private modelResponse(event: Of<'model_response'>): void {
    const key = modelRequestKey(event);
    const span = this.modelSpans.get(key) ?? this.tracer.startSpan(`chat ${this.model}`, { kind: SpanKind.CLIENT, startTime: Date.now() - event.duration_ms }, this.parentContext(event.parent_call_id));
    this.modelSpans.delete(key);
    const attributes: Attributes = {
      'gen_ai.usage.input_tokens': event.usage.input,
      'gen_ai.usage.output_tokens': event.usage.output,
      'gen_ai.response.finish_reasons': [event.finish_reason],
      // The provider's name for the model that answered; the one asked for when it does not say (scripted).
      'gen_ai.response.model': event.response_model ?? this.model,
      'unattended.tool_calls_requested': event.function_calls.length,
    };
    if (event.usage.cached !== undefined) attributes['gen_ai.usage.cache_read.input_tokens'] = event.usage.cached;
    if (event.usage.cost_usd !== undefined) attributes['unattended.cost_usd'] = event.usage.cost_usd;
    const text = event.text ? this.logContent(event.text) : null;
    if (text !== null) attributes['unattended.response.text'] = text;
    span.setAttributes(attributes);
    span.end();
  }

  private toolCall(event: Of<'tool_call'>): void {
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': event.name,
      'gen_ai.tool.call.id': event.call_id,
      'unattended.policy.decision': event.decision?.decision ?? 'none',
    };
    // A rule may quote a token (a deny rule naming one, say): redacted, as in the transcript.
    if (event.decision?.rule) attributes['unattended.policy.rule'] = this.redact(event.decision.rule);
    if (event.effect) attributes['unattended.tool.effect'] = event.effect;
    const args = this.logContent(JSON.stringify(event.args));
    if (args !== null) attributes['gen_ai.tool.call.arguments'] = args;
    const span = this.tracer.startSpan(`execute_tool ${event.name}`, { kind: SpanKind.INTERNAL, attributes }, this.parentContext(event.parent_call_id));
    if (event.decision?.decision === 'deny') {
      // The reason quotes the call's arguments: exported only with log_content (and redacted), else the rule.
      const reason = this.logContent(event.decision.reason);
      const message = reason !== null ? `denied: ${reason}` : event.decision.rule ? `denied by the rule ${this.redact(event.decision.rule)}` : 'denied by the policy';
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
    this.toolSpans.set(event.call_id, { span, context: trace.setSpan(this.runContext, span) });
  }

  private toolResult(event: Of<'tool_result'>): void {
    const open = this.toolSpans.get(event.call_id);
    const span = open?.span ?? this.tracer.startSpan(`execute_tool ${event.name}`, { startTime: Date.now() - event.duration_ms, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': event.name } }, this.parentContext(event.parent_call_id));
    span.setAttribute('unattended.tool.duration_ms', event.duration_ms);
    if (event.error_type) {
      span.setAttribute('error.type', event.error_type);
      if (event.error_type !== 'policy_denied') span.setStatus({ code: SpanStatusCode.ERROR, message: event.error_type });
    }
    const output = this.logContent(typeof event.llm_content === 'string' ? event.llm_content : JSON.stringify(event.llm_content));
    if (output !== null) span.setAttribute('gen_ai.tool.call.result', output);
    span.end();
    this.toolSpans.delete(event.call_id);
  }

  private check(event: Of<'check'>): void {
    const span = this.tracer.startSpan(
      `check ${event.kind === 'command' ? 'command' : 'require_changes'}`,
      {
        startTime: Date.now() - event.duration_ms,
        attributes: { 'unattended.check.kind': event.kind, 'unattended.check.attempt': event.attempt, 'unattended.check.passed': event.passed, ...(event.exit_code === null ? {} : { 'process.exit.code': event.exit_code }) },
      },
      this.runContext,
    );
    if (!event.passed) span.setStatus({ code: SpanStatusCode.ERROR, message: this.redact(event.reason ?? 'failed') });
    span.end();
  }

  private handoff(event: Of<'git_handoff'>): void {
    const git = event.git;
    const span = this.tracer.startSpan(
      'git_handoff',
      { startTime: Date.now() - (event.duration_ms ?? 0), attributes: { 'unattended.git.branch': git.branch, 'unattended.git.committed': git.commit !== null, 'unattended.git.pushed': git.pushed, 'unattended.git.files': git.files.length } },
      this.runContext,
    );
    const pr = git.pull_request;
    if (pr?.url) span.setAttributes({ 'unattended.pull_request.url': pr.url, 'unattended.pull_request.action': pr.action ?? 'none' });
    // Every way a hand-off fails its run, a push that failed too (the commit left on the local branch).
    if (handoffFailed(git)) {
      const message = git.error || git.commit === null ? 'hand-off failed' : git.push_error !== null ? 'push failed' : 'pull request failed';
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
    span.end();
  }

  private runEnd(event: Of<'run_end'>): void {
    this.endAllChildren(event);
    this.run.setAttributes({
      'unattended.status': event.status,
      'unattended.exit_code': event.exit_code,
      'unattended.turns': event.turns,
      'unattended.tool_calls': event.tool_calls,
      'gen_ai.usage.input_tokens': event.usage.input,
      'gen_ai.usage.output_tokens': event.usage.output,
    });
    if (event.usage.cost_usd !== undefined) this.run.setAttribute('unattended.cost_usd', event.usage.cost_usd);
    if (event.error_kind) this.run.setAttribute('error.type', event.error_kind);
    // By the exit code: a run that ends `denied` with exit 0 (some calls refused, the work done) is no error in a trace backend's rates.
    if (event.exit_code !== 0) this.run.setStatus({ code: SpanStatusCode.ERROR, message: event.status });
    this.run.end();
  }

  private endAllChildren(event: Of<'run_end'>): void {
    // A model request still open when a run fails is the one that failed it (the provider refused,
    // retries ran out): its span says why, as the transcript does, rather than "cut short".
    const failed = event.error_kind !== null && event.status !== 'cancelled';
    for (const span of this.modelSpans.values()) {
      if (!failed) {
        endCut(span);
        continue;
      }
      span.setAttribute('error.type', event.error_kind!);
      span.setStatus({ code: SpanStatusCode.ERROR, message: this.redact((event.error ?? event.error_kind!).slice(0, 1_000)) });
      span.end();
    }
    for (const { span } of this.toolSpans.values()) endCut(span);
    this.modelSpans.clear();
    this.toolSpans.clear();
  }

  private parentContext(parentCallId: string | undefined): Context {
    return (parentCallId !== undefined ? this.toolSpans.get(parentCallId)?.context : undefined) ?? this.runContext;
  }

  private parentSpan(parentCallId: string | undefined): Span {
    return (parentCallId !== undefined ? this.toolSpans.get(parentCallId)?.span : undefined) ?? this.run;
  }
}

function endCut(span: Span): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: 'cut short: the run ended first' });
  span.end();
}
