// Builds report.json from the run's events: a consumer like the transcript, never asked by the loop.
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { LimitName, RunEvent } from '../loop/events.js';
import type { RunOutcome } from '../loop/outcome.js';
import { addUsage, ZERO_USAGE, type TokenUsage } from '../types/content.js';
import type { ChangedFile, Denial, GitHandoffReport, Report, ToolCallCounts } from './report.js';

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
  private readonly pendingCalls = new Map<string, { turn: number; name: string; args: Record<string, unknown> }>();
  private limit: LimitName | null = null;
  private structuredOutput: unknown = null;
  private gitHandoff: GitHandoffReport | null = null;

  constructor(private readonly id: RunIdentity) {}

  readonly onEvent = (event: RunEvent): void => {
    switch (event.type) {
      case 'model_response':
        this.turns = Math.max(this.turns, event.turn);
        this.usage = addUsage(this.usage, event.usage);
        break;
      case 'tool_call':
        this.pendingCalls.set(event.call_id, { turn: event.turn, name: event.name, args: event.args });
        if (event.decision?.decision === 'deny') {
          this.denials.push({ turn: event.turn, tool: event.name, args: event.args, reason: event.decision.reason, rule: event.decision.rule });
        }
        break;
      case 'tool_result': {
        // A call never started (the tool-call budget was spent, the run was stopped) has no
        // tool_call event; counting it would report more calls than the limit allowed.
        if (!this.pendingCalls.has(event.call_id)) break;
        const counts = (this.byTool[event.name] ??= { success: 0, error: 0, denied: 0 });
        if (event.error_type === 'policy_denied') counts.denied++;
        else if (event.error_type) counts.error++;
        else counts.success++;
        if (typeof event.return_display !== 'string' && !this.files.has(event.return_display.fileName)) {
          this.files.set(event.return_display.fileName, { original: event.return_display.originalContent });
        }
        break;
      }
      case 'limit':
        this.limit = event.limit;
        break;
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
      limit: this.limit,
      turns: this.turns,
      tool_calls: { total, by_tool: this.byTool },
      denials: this.denials,
      usage: this.usage,
      files_changed: this.changedFiles(),
      warnings: this.warnings,
      transcript: this.id.transcript,
      git: this.gitHandoff,
    };
  }

  /** Diffs against what is on disk now, so later changes to the same file are included. */
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
    return changed;
  }
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
