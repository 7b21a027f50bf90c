// report.json as a pure fold over the run's events: everything the report shows is in the
// transcript, so the report written at the end of a run and one rebuilt later from its transcript
// (`unattended report`, or after a run that could not finish writing) are the same report.
// Nothing here reads files, the clock or the environment.
import type { RunEvent } from '../types/events.js';
import type { ChangedFile, GitHandoffReport, TodoItem } from '../types/changes.js';
import { ExitCode, type LimitName } from '../types/outcome.js';
import { addUsage, ZERO_USAGE, type TokenUsage } from '../types/content.js';
import type { CheckReport, Denial, Report, SubAgentReport, ToolCallCounts } from './report.js';
import { summarizeDenials } from './denial-summary.js';

type RunStart = Extract<RunEvent, { type: 'run_start' }>;
type RunEnd = Extract<RunEvent, { type: 'run_end' }>;

/** Said when the transcript stops before the run's end (a crash, a full disk, a kill -9). */
export const NO_RUN_END = 'the transcript ends before the run did (no run_end event): this report shows what was recorded';

/**
 * The fold's state, fed one event at a time (the runner keeps one while the run goes, so a report
 * needs no second pass over a long transcript). `buildReport` is the same fold over a whole list.
 */
export class ReportFold {
  private start: RunStart | null = null;
  private end: RunEnd | null = null;
  /** `ts` of the first and latest transcript records: a run without run_end (or an older transcript) is dated by them. */
  private firstTs: string | null = null;
  private lastTs: string | null = null;
  private turns = 0;
  private usage: TokenUsage = { ...ZERO_USAGE };
  // Maps, not objects: a tool name comes from the model, and one named `constructor` or
  // `__proto__` must count as itself, not find (or replace) what every object inherits.
  private readonly byTool = new Map<string, ToolTally>();
  private readonly denials: Denial[] = [];
  private readonly warnings: string[] = [];
  private readonly pendingCalls = new Map<string, { name: string; args: Record<string, unknown>; allowed: boolean }>();
  private limit: LimitName | null = null;
  /** Task calls whose sub-agent was stopped by a limit of the run's (not its own turn limit), and which. */
  private readonly stoppedByRunLimit = new Map<string, LimitName>();
  private structuredOutput: unknown = null;
  private gitHandoff: GitHandoffReport | null = null;
  private todos: TodoItem[] = [];
  /** From the files_changed event; null until it comes (a transcript cut short never has it). */
  private filesChanged: ChangedFile[] | null = null;
  /** What file tools reported, call by call: the files a cut-short transcript shows. */
  private readonly toolDiffs = new Map<string, { added: boolean; diffs: string[] }>();
  private plan: string | null = null;
  private readonly subAgents = new Map<string, SubAgentReport>();
  private finish: Report['finish'] = null;
  private readonly errorsByType = new Map<string, number>();
  private readonly checks: CheckReport[] = [];
  private readonly compactions: Report['compactions'] = { total: 0, summarized: 0, after_context_error: 0 };
  /** `host:port` the sandbox's proxy refused, each once, in order. */
  private readonly deniedHosts: string[] = [];

  /** True once a run_start was folded. */
  get started(): boolean {
    return this.start !== null;
  }

  add(event: RunEvent): void {
    const ts = (event as { ts?: unknown }).ts;
    if (typeof ts === 'string') {
      this.firstTs ??= ts;
      this.lastTs = ts;
    }
    switch (event.type) {
      case 'run_start':
        this.start = event;
        break;
      case 'model_request':
        // A request that gets no answer (refused, blocked, failed) ends no turn: the finish of an
        // earlier turn would be stale.
        if (event.parent_call_id === undefined) this.finish = null;
        break;
      case 'model_response':
        // A sub-agent's turns are its own (counted per task call); its tokens are the run's.
        if (event.parent_call_id === undefined) {
          this.turns = Math.max(this.turns, event.turn);
          this.finish = { reason: event.finish_reason, raw: event.finish_raw };
        } else this.subAgent(event.parent_call_id).turns++;
        this.usage = addUsage(this.usage, event.usage);
        break;
      case 'tool_call':
        this.toolCall(event);
        break;
      case 'tool_result':
        this.toolResult(event);
        break;
      case 'limit':
        // A sub-agent's limit ends only the sub-agent: its task call fails, the run goes on.
        if (event.parent_call_id === undefined) this.limit = event.limit;
        else if (event.limit !== 'sub_agent_max_turns') this.stoppedByRunLimit.set(event.parent_call_id, event.limit);
        break;
      case 'compaction':
        this.compactions.total++;
        if (event.summary === 'written') this.compactions.summarized++;
        if (event.reason === 'context_error') this.compactions.after_context_error++;
        // The summary side request is paid for like a turn.
        if (event.usage) this.usage = addUsage(this.usage, event.usage);
        break;
      case 'side_request':
        // A tool's own model request (web_search) is paid for like a turn.
        this.usage = addUsage(this.usage, event.usage);
        break;
      case 'plan':
        this.plan = event.plan;
        break;
      case 'network_denied': {
        const where = `${event.host}:${event.port}`;
        if (!this.deniedHosts.includes(where)) this.deniedHosts.push(where);
        break;
      }
      case 'warning':
        this.warnings.push(event.message);
        break;
      case 'check': {
        const { type: _type, ts: _ts, seq: _seq, run_id: _runId, ...check } = event as typeof event & { ts?: unknown; seq?: unknown; run_id?: unknown };
        this.checks.push(check);
        break;
      }
      case 'todos':
        this.todos = event.todos.map((t) => ({ id: t.id, content: t.content, status: t.status }));
        break;
      case 'structured_output':
        this.structuredOutput = event.value;
        break;
      case 'files_changed':
        this.filesChanged = event.files.map((f) => ({ path: f.path, status: f.status, diff: f.diff }));
        break;
      case 'git_handoff':
        this.gitHandoff = event.git;
        break;
      case 'run_end':
        this.end = event;
        break;
      default:
        break;
    }
  }

  /** Turns, tool calls and tokens so far, for the final event of a run stopped anywhere. */
  progress(): { turns: number; toolCalls: number; usage: TokenUsage } {
    return { turns: this.turns, toolCalls: this.toolCallTotal(), usage: { ...this.usage } };
  }

  report(): Report {
    const start = this.start;
    const end = this.end;
    const startedAt = start?.started_at ?? this.firstTs ?? new Date(0).toISOString();
    const startedMs = Date.parse(startedAt);
    const endedMs = end ? startedMs + end.duration_ms : Date.parse(this.lastTs ?? startedAt);
    const endedAt = new Date(Number.isNaN(endedMs) ? 0 : endedMs).toISOString();
    return {
      run_id: start?.run_id ?? '',
      trace: start?.trace ?? null,
      status: end?.status ?? 'error',
      exit_code: end?.exit_code ?? ExitCode.failed,
      recipe: { name: start?.recipe_name ?? 'unnamed', file: start?.recipe ?? null },
      provider: start?.provider ?? 'none',
      model: start?.model ?? 'none',
      workspace: start?.workspace ?? '',
      started_at: startedAt,
      ended_at: endedAt,
      duration_ms: end ? end.duration_ms : Math.max(0, endedMs - startedMs) || 0,
      final_answer: end?.final_answer ?? null,
      // The accepted answer, parsed: a run that did not end with it (a check failed, every edit
      // failed) has no final_answer, and its JSON must not reach a later step either.
      structured_output: end?.final_answer == null ? null : this.structuredOutput,
      error: end ? end.error : `${NO_RUN_END}${this.cutOffCalls()}`,
      error_kind: end?.error_kind ?? null,
      limit: this.limit,
      finish: this.finish,
      turns: this.turns,
      tool_calls: { total: this.toolCallTotal(), by_tool: cloneCounts(this.byTool), errors_by_type: Object.fromEntries(this.errorsByType), truncated: this.truncatedTotal(), unfinished: this.startedUnanswered().length },
      denials: this.denials.map((d) => ({ ...d })),
      denial_summary: summarizeDenials(this.denials),
      checks: this.checks.map((c) => ({ ...c })),
      usage: { ...this.usage },
      compactions: { ...this.compactions },
      files_changed: (this.filesChanged ?? this.filesFromToolDiffs()).map((f) => ({ ...f })),
      warnings: [...this.warnings],
      transcript: start?.transcript ?? '',
      todos: this.todos.map((t) => ({ ...t })),
      plan: this.plan,
      sub_agents: [...this.subAgents.values()].map((s) => ({ ...s })),
      git: this.gitHandoff,
      // A transcript from before the sandbox existed has none in its run_start.
      sandbox: start?.sandbox ? { ...start.sandbox, denied_hosts: [...this.deniedHosts] } : null,
      context_files: (start?.context?.files ?? []).map((f) => ({ ...f })),
      continued_from: start?.continued_from ? { ...start.continued_from } : null,
    };
  }

  private toolCall(event: Extract<RunEvent, { type: 'tool_call' }>): void {
    this.pendingCalls.set(callKey(event), { name: event.name, args: event.args, allowed: event.decision?.decision === 'allow' });
    // Only a task call the policy let through starts a sub-agent: one it refused (or one never
    // judged, its parameters invalid or held back by plan mode) is a denial or a failed call, not
    // a sub-agent that ran.
    if (event.name === 'task' && event.parent_call_id === undefined && event.decision?.decision === 'allow') {
      this.subAgent(event.call_id).description = typeof event.args.description === 'string' ? event.args.description : '';
    }
    if (event.decision?.decision === 'deny') {
      this.denials.push({ turn: event.turn, tool: event.name, args: event.args, reason: event.decision.reason, rule: event.decision.rule });
    }
  }

  private toolResult(event: Extract<RunEvent, { type: 'tool_result' }>): void {
    // A call never started (the tool-call budget was spent, the run was stopped) has no
    // tool_call event; counting it would report more calls than the limit allowed.
    const call = this.pendingCalls.get(callKey(event));
    if (!call) return;
    // Answered: its arguments are not needed again (kept, they grew a long run's memory per call).
    this.pendingCalls.delete(callKey(event));
    // Refused while running though the policy allowed the call (a redirect to a host no rule allows).
    if (event.error_type === 'policy_denied' && call.allowed) {
      this.denials.push({ turn: event.turn, tool: event.name, args: call.args, reason: String(event.llm_content).replace(/^Error: /, ''), rule: null });
    }
    if (event.parent_call_id !== undefined) this.subAgent(event.parent_call_id).tool_calls++;
    else if (event.name === 'task' && this.subAgents.has(event.call_id)) this.subAgent(event.call_id).status = this.subAgentEnd(event.call_id, event.error_type);
    let counts = this.byTool.get(event.name);
    if (!counts) this.byTool.set(event.name, (counts = { success: 0, error: 0, denied: 0, errors_by_type: new Map(), truncated: 0 }));
    if (event.truncated === true) counts.truncated++;
    if (event.error_type === 'policy_denied') counts.denied++;
    else if (event.error_type) {
      counts.error++;
      counts.errors_by_type.set(event.error_type, (counts.errors_by_type.get(event.error_type) ?? 0) + 1);
      this.errorsByType.set(event.error_type, (this.errorsByType.get(event.error_type) ?? 0) + 1);
    } else counts.success++;
    const display = event.return_display as unknown;
    if (display && typeof display === 'object' && 'fileName' in display && 'fileDiff' in display) {
      const { fileName, fileDiff } = display as { fileName: unknown; fileDiff: unknown };
      if (typeof fileName === 'string' && typeof fileDiff === 'string') {
        const entry = this.toolDiffs.get(fileName) ?? { added: fileDiff.startsWith('--- /dev/null'), diffs: [] };
        entry.diffs.push(fileDiff);
        this.toolDiffs.set(fileName, entry);
      }
    }
  }

  /**
   * Without the runner's files_changed (the transcript stops early): each file a file tool changed,
   * with the diffs of its calls in order. Changes by shell commands are not known here.
   */
  private filesFromToolDiffs(): ChangedFile[] {
    return [...this.toolDiffs]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([file, entry]) => ({ path: file, status: entry.added ? 'added' : 'modified', diff: entry.diffs.join('') }));
  }

  /**
   * Calls a transcript cut short recorded as started (allowed) with no result: they ran, in part or
   * whole, though tool_calls.total counts a call at its result. Said (and counted in
   * tool_calls.unfinished), so a killed run's `0 tool calls` does not read as nothing having run.
   */
  private cutOffCalls(): string {
    const names = this.startedUnanswered();
    if (names.length === 0) return '';
    const one = names.length === 1;
    return `; ${one ? '1 call' : `${names.length} calls`} started with no result recorded (${names.join(', ')}): in tool_calls.unfinished, not its total; ${one ? 'it' : 'they'} may have done some or all of ${one ? 'its' : 'their'} work`;
  }

  /** The names of the calls recorded as allowed (so started) that have no result yet. */
  private startedUnanswered(): string[] {
    return [...this.pendingCalls.values()].filter((c) => c.allowed).map((c) => c.name);
  }

  private truncatedTotal(): number {
    let total = 0;
    for (const c of this.byTool.values()) total += c.truncated;
    return total;
  }

  private toolCallTotal(): number {
    let total = 0;
    for (const c of this.byTool.values()) total += c.success + c.error + c.denied;
    return total;
  }

  /**
   * How a sub-agent ended. One stopped with the run is said in the run's own words (a signal:
   * `cancelled`; the run's timeout, recorded before it stopped everything, or a budget of the
   * run's it met itself: `limit`; the run's max_denials or fail_on_denial: `denied`): it read `error`, as if it had
   * failed at its work.
   */
  private subAgentEnd(callId: string, errorType: string | null): SubAgentReport['status'] {
    if (errorType === null) return 'success';
    if (errorType === 'aborted') return this.limit !== null ? 'limit' : 'cancelled';
    const limit = this.stoppedByRunLimit.get(callId);
    // max_denials ends a run `denied`, the others `limit`.
    if (limit !== undefined) return limit === 'max_denials' ? 'denied' : 'limit';
    // fail_on_denial (run_start's max_denials 0) records no limit event: a denial made so far ended
    // every loop, this one included; its own failure (a fatal error) is still its own.
    if (errorType === 'execution_failed' && this.start?.limits.max_denials === 0 && this.denials.length > 0) return 'denied';
    return 'error';
  }

  private subAgent(callId: string): SubAgentReport {
    let sub = this.subAgents.get(callId);
    if (!sub) this.subAgents.set(callId, (sub = { call_id: callId, description: '', status: 'running', turns: 0, tool_calls: 0 }));
    return sub;
  }
}

/** report.json from the run's events (or a transcript's records, which are events with ts/seq). */
export function buildReport(events: Iterable<RunEvent>): Report {
  const fold = new ReportFold();
  for (const event of events) fold.add(event);
  return fold.report();
}

/** report.json's text: the one serialisation, so a rebuilt report is byte-for-byte the written one. */
export function reportJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** A tool's counts while folding: its error types in a Map, like the tool names (see byTool). */
type ToolTally = Omit<ToolCallCounts, 'errors_by_type'> & { errors_by_type: Map<string, number> };

function cloneCounts(byTool: Map<string, ToolTally>): Record<string, ToolCallCounts> {
  // Object.fromEntries defines each key as the object's own, `__proto__` included.
  return Object.fromEntries([...byTool].map(([name, c]) => [name, { ...c, errors_by_type: Object.fromEntries(c.errors_by_type) }]));
}

/** Sub-agents number their calls on their own: a call is known by its task call and its id. */
function callKey(event: { call_id: string; parent_call_id?: string }): string {
  return event.parent_call_id === undefined ? event.call_id : `${event.parent_call_id}/${event.call_id}`;
}
