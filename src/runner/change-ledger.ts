// What the run changed and what it tried to change, followed from its events: the content each
// file tool found before the run first changed a file (its FileDiff), and how the calls that edit
// files ended. `require_changes` and the "every edit failed" rule ask it; they count changed files
// as the report does: a file a tool changed whose content now differs from what it was, plus what
// git saw the other tools change (runner/untracked-changes.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Denial } from '../report/report.js';
import type { RunEvent } from '../types/events.js';

export interface EditTally {
  /** Calls that edit files (write_file, edit...) the policy let run. */
  attempted: number;
  /** Of those, the ones that ended with an error: `edit_no_match: 2, io_error: 1`. */
  failed: Record<string, number>;
  /** Allowed calls of other tools that can change files (shell, MCP, discovered) that did not fail. */
  otherChanges: number;
}

export class ChangeLedger {
  /** Workspace-relative path -> content before the run first changed it (null: it did not exist). */
  private readonly originals = new Map<string, string | null>();
  /** Allowed calls that can change files, waiting for their result, by call key. */
  private readonly pending = new Map<string, 'edit' | 'other'>();
  private readonly edits: EditTally = { attempted: 0, failed: {}, otherChanges: 0 };
  /** Calls the policy refused, for the message that ends a denial loop. */
  readonly denials: Denial[] = [];

  readonly observe = (event: RunEvent): void => {
    if (event.type === 'tool_call') {
      if (event.decision?.decision === 'deny') {
        this.denials.push({ turn: event.turn, tool: event.name, args: event.args, reason: event.decision.reason, rule: event.decision.rule });
      }
      const allowed = event.decision?.decision === 'allow';
      if (allowed && event.effect === 'edit') this.pending.set(callKey(event), 'edit');
      else if (allowed && (event.effect === 'exec' || event.effect === 'other')) this.pending.set(callKey(event), 'other');
      return;
    }
    if (event.type !== 'tool_result') return;
    const kind = this.pending.get(callKey(event));
    this.pending.delete(callKey(event));
    if (kind === 'edit') {
      this.edits.attempted++;
      if (event.error_type) this.edits.failed[event.error_type] = (this.edits.failed[event.error_type] ?? 0) + 1;
    } else if (kind === 'other' && !event.error_type) {
      this.edits.otherChanges++;
    }
    const display = event.return_display;
    if (typeof display !== 'string' && !this.originals.has(display.fileName)) this.originals.set(display.fileName, display.originalContent);
  };

  editTally(): EditTally {
    return { ...this.edits, failed: { ...this.edits.failed } };
  }

  /**
   * Files that differ now from what they were before the run, sorted: those the file tools
   * changed (read from disk now: a later change back to the original is no change) and `others`
   * (git's view of what shell, MCP and discovered tools changed).
   */
  changedFiles(workspace: string, others: readonly string[]): string[] {
    const changed = new Set<string>(others);
    for (const [rel, original] of this.originals) {
      if (readIfExists(path.join(workspace, rel)) !== original) changed.add(rel);
      else changed.delete(rel);
    }
    return [...changed].sort();
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
