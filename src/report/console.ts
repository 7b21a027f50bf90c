// What a person watching the log sees while the run goes: one short line per tool call on stderr.
// stdout stays clean for the final answer (text), the report (json) or the events (stream-json).
import type { RunEvent, SandboxSummary } from '../types/events.js';

export function progressPrinter(write: (line: string) => void): (event: RunEvent) => void {
  const described = new Map<string, string>();
  return (event) => {
    switch (event.type) {
      case 'run_start':
        write(`unattended: ${event.recipe_name} · ${event.provider}/${event.model} · ${event.policy.mode} · ${event.workspace}${sandboxNote(event.sandbox)}`);
        break;
      case 'network_denied':
        write(`  ✗ network: ${event.host}:${event.port} refused (${event.reason})`);
        break;
      case 'tool_call':
        described.set(event.call_id, oneLine(event.description ?? event.name));
        break;
      case 'tool_result': {
        const what = described.get(event.call_id) ?? event.name;
        // A sub-agent's calls are indented under the task call that ran them.
        const indent = event.parent_call_id ? '      ' : '  ';
        if (event.error_type === 'policy_denied') write(`${indent}✗ ${event.name}: ${what} — ${oneLine(String(event.llm_content))}`);
        else if (event.error_type) write(`${indent}✗ ${event.name}: ${what} — ${event.error_type}`);
        else write(`${indent}✓ ${event.name}: ${what}`);
        break;
      }
      case 'answer_rejected':
        write(`  … final answer rejected (attempt ${event.attempt}): ${oneLine(event.reason)}`);
        break;
      case 'check':
        write(`  ${event.passed ? '✓' : '✗'} check ${oneLine(event.check)}${event.passed ? '' : ` — ${event.reason ?? 'failed'}`} (${(event.duration_ms / 1000).toFixed(1)} s)`);
        break;
      case 'retry':
        write(`  … model call retry ${event.attempt} in ${event.delay_ms} ms: ${event.reason}`);
        break;
      case 'compaction': {
        const why = event.reason === 'context_error' ? 'the provider refused the request as too long' : 'the request neared the context window';
        const summary = event.summary === 'written' ? ', older turns summarized' : event.summary === 'failed' ? ', older turns dropped without a summary' : '';
        write(`  … context compacted (${why}): ~${event.tokens_before} → ~${event.tokens_after} tokens${summary}`);
        break;
      }
      case 'limit':
        write(`  ⏱ limit reached: ${event.limit} (${event.value})`);
        break;
      case 'warning':
        write(`  ! ${event.message}`);
        break;
      case 'run_end':
        write(`unattended: ${event.status} (exit ${event.exit_code}) · ${event.turns} turns · ${event.tool_calls} tool calls · ${event.usage.total} tokens${event.usage.cost_usd === undefined ? '' : ` · $${event.usage.cost_usd.toFixed(4)}`}`);
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

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}
