// Notices a model that asks for the same call over and over: after `limit` identical calls in a
// row the run ends with status `loop` instead of burning the rest of its budget.
import type { FunctionCall } from '../types/content.js';

export class LoopGuard {
  private last = '';
  private repeats = 0;

  constructor(private readonly limit = 5) {}

  /** Returns the repeated call's name when the limit is reached. */
  observe(calls: FunctionCall[]): string | null {
    for (const call of calls) {
      const signature = `${call.name}\u0000${stableJson(call.args)}`;
      this.repeats = signature === this.last ? this.repeats + 1 : 1;
      this.last = signature;
      if (this.repeats >= this.limit) return call.name;
    }
    return null;
  }
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
