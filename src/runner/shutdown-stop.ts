// A stop (the run's timeout, a signal) met once the run's outcome was decided: after its loop, or
// once a success check failed with no retry left, while git records what changed or the hand-off
// runs. Which outcome the report then gives.
import { RunStop, stopOutcome } from '../loop/stop.js';
import type { EventSink } from '../types/events.js';
import { ExitCode, type RunOutcome } from '../types/outcome.js';
import { durationText } from '../util/duration-text.js';

/**
 * The run's timeout met after its loop ended (while git recorded what the run changed, or during
 * the hand-off): a run that would have exited 0 did not keep within its time and ends `limit`
 * (stoppedWhileShuttingDown, its limit event recorded here); one that had already failed
 * (check_failed, failed, loop, ended by its denials) keeps its status, exit code and error, which
 * say more than 55 about what went wrong, and a warning says when the timeout came. True: kept.
 */
export function failedBeforeTimeout(signal: AbortSignal, outcome: RunOutcome, emit: EventSink): boolean {
  const stop: unknown = signal.reason;
  if (!(stop instanceof RunStop) || stop.kind !== 'timeout') return false;
  const limit = stop.limitMs === null ? '' : ` (${durationText(stop.limitMs)})`;
  if (outcome.exitCode === ExitCode.success || outcome.status === 'limit') {
    emit({ type: 'limit', limit: 'timeout', value: stop.limitMs ?? 0 });
    return false;
  }
  emit({ type: 'warning', message: `the run's timeout${limit} came while it shut down, after it had ended with status ${outcome.status}` });
  return true;
}

/**
 * A signal after the loop ended (during the hand-off or while MCP servers close) still stops the
 * run. So does the wall-clock limit, armed until the hand-off is over: met while git records what
 * the run changed, it is in the report (its limit event), and a success beside it would say the
 * run kept within it. A loop or hand-off it stopped has said so already (status limit).
 */
export function stoppedWhileShuttingDown(signal: AbortSignal, outcome: RunOutcome): RunOutcome {
  const stop: unknown = signal.reason;
  if (!(stop instanceof RunStop) || outcome.status === 'cancelled') return outcome;
  if (stop.kind === 'timeout' && outcome.status === 'limit') return outcome;
  const stopped = stopOutcome(stop);
  const what = stop.kind === 'timeout' ? stopped.error : stop.message;
  return { ...stopped, finalAnswer: outcome.finalAnswer, error: `${what} while shutting down (the run had ended with status ${outcome.status})` };
}
