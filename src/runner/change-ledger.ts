// What the run changed and what it tried to change, followed from its events: the files the file
// tools changed, how the calls that edit files ended, and what the policy refused.
// `require_changes` and the "every edit failed" rule ask it; changed files are counted with the
// report's own code (changed-files.ts): a file a tool changed whose content now differs from what
// it was, plus what git saw the other tools change (untracked-changes.ts).
import type { Denial } from '../report/report.js';
import type { GitSeen } from '../types/changes.js';
import type { RunEvent } from '../types/events.js';
import { FileChanges } from './changed-files.js';

export interface EditTally {
  /** Calls that edit files (write_file, edit...) the policy let run, or that were refused for their parameters. */
  attempted: number;
  /** Of those, the ones that ended with an error: `edit_no_match: 2, io_error: 1`. */
  failed: Record<string, number>;
  /**
   * Of those, the ones that ended without an error yet changed nothing: a write_file of the bytes
   * the file already held (its result reports no FileDiff, only 'already has this content').
   */
  unchanged: number;
  /** Allowed calls of other tools that can change files (shell, MCP, discovered) that did not fail. */
  otherChanges: number;
}

export class ChangeLedger {
  private readonly files = new FileChanges();
  /** Allowed calls that can change files, waiting for their result, by call key. */
  private readonly pending = new Map<string, 'edit' | 'other'>();
  private readonly edits: EditTally = { attempted: 0, failed: {}, unchanged: 0, otherChanges: 0 };
  /** Calls the policy refused, for the message that ends a denial loop. */
  readonly denials: Denial[] = [];

  readonly observe = (event: RunEvent): void => {
    this.files.observe(event);
    if (event.type === 'tool_call') {
      if (event.decision?.decision === 'deny') {
        this.denials.push({ turn: event.turn, tool: event.name, args: event.args, reason: event.decision.reason, rule: event.decision.rule });
      }
      const allowed = event.decision?.decision === 'allow';
      // An edit refused for its parameters (no decision) was tried all the same; one the policy refused was not.
      if (event.effect === 'edit' && (allowed || !event.decision)) this.pending.set(callKey(event), 'edit');
      // A task call changes nothing itself: its sub-agent's own calls are counted, each as what it is.
      else if (allowed && (event.effect === 'exec' || event.effect === 'other') && !isTaskCall(event)) this.pending.set(callKey(event), 'other');
      return;
    }
    if (event.type !== 'tool_result') return;
    const kind = this.pending.get(callKey(event));
    this.pending.delete(callKey(event));
    if (kind === 'edit') {
      this.edits.attempted++;
      if (event.error_type) this.edits.failed[event.error_type] = (this.edits.failed[event.error_type] ?? 0) + 1;
      // A file tool reports each change it made as a FileDiff (changed-files.ts reads the same):
      // a text instead is a call that wrote nothing.
      else if (typeof event.return_display === 'string') this.edits.unchanged++;
    } else if (kind === 'other' && !event.error_type) {
      this.edits.otherChanges++;
    }
  };

  /** A change of the runs a continued run goes on from (earlier-changes.ts): this run's to count too. */
  seed(rel: string, original: string | null): void {
    this.files.seed(rel, original);
  }

  editTally(): EditTally {
    return { ...this.edits, failed: { ...this.edits.failed } };
  }

  /** Paths of the files that differ now from before the run, as files_changed will list them. */
  changedFiles(workspace: string, git: GitSeen): string[] {
    return this.files.paths(workspace, git);
  }
}

/** Sub-agents number their calls on their own: a call is known by its task call and its id. */
function callKey(event: { call_id: string; parent_call_id?: string }): string {
  return event.parent_call_id === undefined ? event.call_id : `${event.parent_call_id}/${event.call_id}`;
}

/** The agent's task call: a sub-agent runs under it (sub-agents cannot start one). */
function isTaskCall(event: { name: string; parent_call_id?: string }): boolean {
  return event.name === 'task' && event.parent_call_id === undefined;
}
