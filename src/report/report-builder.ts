// Builds report.json from the run's events: a consumer like the transcript, never asked by the loop.
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { LimitName, RunEvent } from '../types/events.js';
import type { RunOutcome } from '../types/outcome.js';
import { addUsage, ZERO_USAGE, type TokenUsage } from '../types/content.js';
import type { Todo } from '../tools/run-state.js';
import type { ChangedFile, CheckReport, Denial, GitHandoffReport, Report, SubAgentReport, ToolCallCounts } from './report.js';
import { summarizeDenials } from './denial-summary.js';

export interface RunIdentity {
  runId: string;
  recipeName: string;
  recipeFile: string | null;
  provider: string;
  model: string;
  workspace: string;
  transcript: string;
  startedAt: Date;
}

interface FileHistory {
  /** Content before the run first changed it; null when the run created it. */
  original: string | null;
}

export class ReportBuilder {
  private turns = 0;
  private usage: TokenUsage = { ...ZERO_USAGE };
  private readonly byTool: Record<string, ToolCallCounts> = {};
  private readonly denials: Denial[] = [];
  private readonly warnings: string[] = [];
  private readonly files = new Map<string, FileHistory>();
  private readonly pendingCalls = new Map<string, { turn: number; name: string; args: Record<string, unknown>; allowed: boolean }>();
  private limit: LimitName | null = null;
  private readonly extraChanges: ChangedFile[] = [];
  private structuredOutput: unknown = null;
  private gitHandoff: GitHandoffReport | null = null;
  private todoSource: () => readonly Todo[] = () => [];
  private plan: string | null = null;
  private readonly subAgents = new Map<string, SubAgentReport>();
  private finish: Report['finish'] = null;
  private readonly errorsByType: Record<string, number> = {};
  private readonly checks: CheckReport[] = [];

  constructor(private readonly id: RunIdentity) {}

  readonly onEvent = (event: RunEvent): void => {
    switch (event.type) {
      case 'model_response':
        // A sub-agent's turns are its own (counted per task call); its tokens are the run's.
        if (event.parent_call_id === undefined) {
          this.turns = Math.max(this.turns, event.turn);
          this.finish = { reason: event.finish_reason, raw: event.finish_raw };
        } else this.subAgent(event.parent_call_id).turns++;
        this.usage = addUsage(this.usage, event.usage);
        break;
      case 'tool_call':
        this.pendingCalls.set(callKey(event), { turn: event.turn, name: event.name, args: event.args, allowed: event.decision?.decision === 'allow' });
        if (event.name === 'task' && event.parent_call_id === undefined) {
          const sub = this.subAgent(event.call_id);
          sub.description = typeof event.args.description === 'string' ? event.args.description : '';
          if (event.decision?.decision === 'deny') sub.status = 'denied';
        }
        if (event.decision?.decision === 'deny') {
          this.denials.push({ turn: event.turn, tool: event.name, args: event.args, reason: event.decision.reason, rule: event.decision.rule });
        }
        break;
      case 'tool_result': {
        // A call never started (the tool-call budget was spent, the run was stopped) has no
        // tool_call event; counting it would report more calls than the limit allowed.
        const call = this.pendingCalls.get(callKey(event));
        if (!call) break;
        // Refused while running though the policy allowed the call (a redirect to a host no rule allows).
        if (event.error_type === 'policy_denied' && call.allowed) {
          this.denials.push({ turn: event.turn, tool: event.name, args: call.args, reason: String(event.llm_content).replace(/^Error: /, ''), rule: null });
        }
        if (event.parent_call_id !== undefined) this.subAgent(event.parent_call_id).tool_calls++;
        else if (event.name === 'task' && event.error_type !== 'policy_denied') this.subAgent(event.call_id).status = event.error_type ? 'error' : 'success';
        const counts = (this.byTool[event.name] ??= { success: 0, error: 0, denied: 0, errors_by_type: {} });
        if (event.error_type === 'policy_denied') counts.denied++;
        else if (event.error_type) {
          counts.error++;
          counts.errors_by_type[event.error_type] = (counts.errors_by_type[event.error_type] ?? 0) + 1;
          this.errorsByType[event.error_type] = (this.errorsByType[event.error_type] ?? 0) + 1;
        } else counts.success++;
        if (typeof event.return_display !== 'string' && !this.files.has(event.return_display.fileName)) {
          this.files.set(event.return_display.fileName, { original: event.return_display.originalContent });
        }
        break;
      }
      case 'limit':
        // A sub-agent's limit ends only the sub-agent: its task call fails, the run goes on.
        if (event.parent_call_id === undefined) this.limit = event.limit;
        break;
      case 'plan':
        this.plan = event.plan;
        break;
      case 'check': {
        const { type: _type, ...check } = event;
        this.checks.push(check);
        break;
      }
      case 'warning':
        this.warnings.push(event.message);
        break;
      default:
        break;
    }
  };

  progress(): { turns: number; toolCalls: number; usage: TokenUsage } {
    return { turns: this.turns, toolCalls: this.toolCallTotal(), usage: { ...this.usage } };
  }

  private toolCallTotal(): number {
    return Object.values(this.byTool).reduce((n, c) => n + c.success + c.error + c.denied, 0);
  }

  setStructuredOutput(value: unknown): void {
    this.structuredOutput = value;
  }

  setTodoSource(source: () => readonly Todo[]): void {
    this.todoSource = source;
  }

  private subAgent(callId: string): SubAgentReport {
    let sub = this.subAgents.get(callId);
    if (!sub) this.subAgents.set(callId, (sub = { call_id: callId, description: '', status: 'running', turns: 0, tool_calls: 0 }));
    return sub;
  }

  setGitHandoff(value: GitHandoffReport | null): void {
    this.gitHandoff = value;
  }

  build(outcome: RunOutcome, endedAt = new Date()): Report {
    const total = this.toolCallTotal();
    return {
      run_id: this.id.runId,
      status: outcome.status,
      exit_code: outcome.exitCode,
      recipe: { name: this.id.recipeName, file: this.id.recipeFile },
      provider: this.id.provider,
      model: this.id.model,
      workspace: this.id.workspace,
      started_at: this.id.startedAt.toISOString(),
      ended_at: endedAt.toISOString(),
      duration_ms: endedAt.getTime() - this.id.startedAt.getTime(),
      final_answer: outcome.finalAnswer,
      structured_output: this.structuredOutput,
      error: outcome.error,
      error_kind: outcome.errorKind ?? null,
      limit: this.limit,
      finish: this.finish,
      turns: this.turns,
      tool_calls: { total, by_tool: this.byTool, errors_by_type: this.errorsByType },
      denials: this.denials,
      denial_summary: summarizeDenials(this.denials),
      checks: this.checks,
      usage: this.usage,
      files_changed: this.changedFiles(),
      warnings: this.warnings,
      transcript: this.id.transcript,
      todos: this.todoSource().map((t) => ({ id: t.id, content: t.content, status: t.status })),
      plan: this.plan,
      sub_agents: [...this.subAgents.values()].map((s) => ({ ...s })),
      git: this.gitHandoff,
    };
  }

  /** Diffs against what is on disk now, so later changes to the same file are included. */
  /**
   * Changes the tools did not report themselves (a shell command, an MCP tool), as git saw them.
   * A file a file tool changed keeps that tool's diff, which also covers ignored files.
   */
  addChangedFiles(files: ChangedFile[]): void {
    this.extraChanges.push(...files);
  }

  private changedFiles(): ChangedFile[] {
    const changed: ChangedFile[] = [];
    for (const [rel, history] of [...this.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const current = readIfExists(path.join(this.id.workspace, rel));
      if (current === history.original) continue;
      const status = history.original === null ? 'added' : current === null ? 'deleted' : 'modified';
      // createTwoFilesPatch starts with a '====' rule; drop it so the text is a plain unified diff.
      const diff = createTwoFilesPatch(
        history.original === null ? '/dev/null' : `a/${rel}`,
        current === null ? '/dev/null' : `b/${rel}`,
        history.original ?? '',
        current ?? '',
        undefined,
        undefined,
        { context: 3 },
      );
      changed.push({ path: rel, status, diff: diff.slice(diff.indexOf('\n') + 1) });
    }
    const known = new Set(this.files.keys());
    const extra = this.extraChanges.filter((f) => !known.has(f.path));
    return [...changed, ...extra].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Sub-agents number their calls on their own: a call is known by its task call and its id. */
function callKey(event: { call_id: string; parent_call_id?: string }): string {
  return event.parent_call_id === undefined ? event.call_id : `${event.parent_call_id}/${event.call_id}`;
}
