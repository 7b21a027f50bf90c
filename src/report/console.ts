// What a person watching the log sees while the run goes: one short line per tool call on stderr.
// stdout stays clean for the final answer (text), the report (json) or the events (stream-json).
// Whatever a model or a tool wrote passes through `safe` (the caller's terminal sanitiser) before
// it is put in a line; only the marks are coloured, by `paint`.
import type { RunEvent, SandboxSummary } from '../types/events.js';
import type { TokenUsage } from '../types/content.js';
import { plural } from '../util/plural.js';
import { durationText } from '../util/duration-text.js';

export type MarkStyle = 'ok' | 'fail' | 'warn' | 'dim' | 'strong';

export interface PrinterOptions {
  /** Makes text from a model or a tool inert on a terminal. */
  safe?: (text: string) => string;
  /** Colours one of our marks; identity when colour is off. */
  paint?: (style: MarkStyle, text: string) => string;
}

export function progressPrinter(write: (line: string) => void, options: PrinterOptions = {}): (event: RunEvent) => void {
  const described = new Map<string, string>();
  const safe = options.safe ?? ((text: string) => text);
  const paint = options.paint ?? ((_style: MarkStyle, text: string) => text);
  const oneLine = (text: string) => flatten(safe(text));
  const OK = paint('ok', '✓');
  const FAIL = paint('fail', '✗');
  return (event) => {
    switch (event.type) {
      case 'run_start':
        write(`${paint('strong', 'unattended:')} ${safe(event.recipe_name)} · ${safe(`${event.provider}/${event.model}`)} · ${event.policy.mode} · ${safe(event.workspace)}${sandboxNote(event.sandbox)}`);
        break;
      case 'network_denied':
        write(`  ${FAIL} network: ${safe(event.host)}:${event.port} refused (${safe(event.reason)})`);
        break;
      case 'tool_call':
        described.set(event.call_id, oneLine(event.description ?? event.name));
        break;
      case 'tool_result': {
        const what = described.get(event.call_id) ?? oneLine(event.name);
        // One result per call: a 2,000-turn run must not keep every description it printed.
        described.delete(event.call_id);
        const name = oneLine(event.name);
        // A sub-agent's calls are indented under the task call that ran them.
        const indent = event.parent_call_id ? '      ' : '  ';
        if (event.error_type === 'policy_denied') write(`${indent}${FAIL} ${name}: ${what} — ${oneLine(String(event.llm_content))}`);
        else if (event.error_type) write(`${indent}${FAIL} ${name}: ${what} — ${event.error_type}`);
        else write(`${indent}${OK} ${name}: ${what}${event.truncated ? ` ${paint('warn', '(truncated)')}` : ''}`);
        break;
      }
      case 'answer_rejected':
        write(`  ${paint('warn', '…')} final answer rejected (attempt ${event.attempt}): ${oneLine(event.reason)}`);
        break;
      case 'check':
        write(`  ${event.passed ? OK : FAIL} check ${oneLine(event.check)}${event.passed ? '' : ` — ${safe(event.reason ?? 'failed')}`} (${(event.duration_ms / 1000).toFixed(1)} s)`);
        break;
      case 'retry':
        write(`  ${paint('warn', '…')} model call retry ${event.attempt} in ${event.delay_ms} ms: ${safe(event.reason)}`);
        break;
      case 'compaction': {
        const why = event.reason === 'context_error' ? 'the provider refused the request as too long' : 'the request neared the context window';
        const summary = event.summary === 'written' ? ', older turns summarized' : event.summary === 'failed' ? ', older turns dropped without a summary' : '';
        write(`  … context compacted (${why}): ~${event.tokens_before} → ~${event.tokens_after} tokens${summary}`);
        break;
      }
      case 'limit':
        // A sub-agent's limit ends only that sub-agent: said so, under the task call that ran it.
        if (event.parent_call_id === undefined) write(`  ${paint('warn', '⏱')} limit reached: ${event.limit} (${limitValue(event.limit, event.value)})`);
        else write(`      ${paint('warn', '⏱')} sub-agent stopped: ${event.limit === 'sub_agent_max_turns' ? `its own turn limit (${event.value})` : `the run's ${event.limit} (${limitValue(event.limit, event.value)})`}`);
        break;
      case 'tools_changed': {
        const parts = [['added', event.added], ['removed', event.removed], ['changed', event.changed]] as const;
        const said = parts.filter(([, names]) => names.length > 0).map(([what, names]) => `${what} ${names.map(oneLine).join(', ')}`);
        write(`  … MCP server ${oneLine(event.server)} changed its tools: ${said.join('; ')}`);
        break;
      }
      case 'warning':
        // Lines it quotes (a server's stderr) stay under it, not at the margin among the run's own.
        write(`  ${paint('warn', '!')} ${safe(event.message).replace(/\n/g, '\n    ')}`);
        break;
      case 'run_end':
        write(`${paint('strong', 'unattended:')} ${paint(event.exit_code === 0 ? 'ok' : 'fail', event.status)} (exit ${event.exit_code}) · ${plural(event.turns, 'turn')} · ${plural(event.tool_calls, 'tool call')} · ${usageNote(event.usage)}`);
        break;
      default:
        break;
    }
  };
}

/** Only when it matters to the person watching: the sandbox's mechanism, or that there is none. */
function sandboxNote(sandbox: SandboxSummary | undefined): string {
  if (!sandbox) return '';
  return sandbox.kind ? ` · sandbox ${sandbox.kind}` : sandbox.mode === 'off' ? ' · sandbox off' : ' · no sandbox';
}

function flatten(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}

/** `1234 tokens · $0.0123`; an estimate (the endpoint sent no usage) says so. */
function usageNote(usage: TokenUsage): string {
  const about = usage.estimated ? 'about ' : '';
  const tokens = `${about}${usage.total} tokens${usage.estimated ? ' (estimated)' : ''}`;
  return usage.cost_usd === undefined ? tokens : `${tokens} · ${about}$${usage.cost_usd.toFixed(4)}`;
}

/** A limit's value as the user wrote it: the timeout is milliseconds in the event, `1.5s`-like here. */
function limitValue(limit: string, value: number): string {
  return limit === 'timeout' ? durationText(value) : String(value);
}
