// Each tool call of a run gets an id of its own. Some servers give two calls the same id (DeepSeek
// and GLM two calls of one turn, Kimi's Anthropic endpoint calls of different turns) or none at
// all; their results would then go back under one id, which strict servers refuse ("Duplicate
// value for 'tool_call_id'"), and the run's record, keyed by id, would fold the calls into one, so
// a failed edit could hide behind a call that succeeded. A repeated or missing id is replaced, in
// the function call and in the turn's part alike, before anything is recorded or sent.
import type { Content } from '../types/content.js';
import type { ModelTurn } from '../providers/provider.js';

export class CallIds {
  private readonly used = new Set<string>();

  /** `history`: what the run starts from (a continued run's turns), whose ids are taken. */
  constructor(history: readonly Content[] = []) {
    for (const content of history) for (const part of content.parts) if (part.functionCall?.id) this.used.add(part.functionCall.id);
  }

  /** Gives every function call of `reply` an id no earlier call of the run had (in place). */
  claim(reply: ModelTurn, turn: number): void {
    const parts = reply.parts.filter((part) => part.functionCall);
    reply.functionCalls.forEach((call, index) => {
      let id = call.id;
      if (id === undefined || id === '' || this.used.has(id)) {
        const base = id ? `${id}_${index}` : `call_${turn}_${index}`;
        id = base;
        for (let n = 2; this.used.has(id); n++) id = `${base}_${n}`;
        call.id = id;
        const part = parts[index]?.functionCall;
        // The turn's part is the same call object for most providers, a copy for Gemini's.
        if (part && part !== call && part.name === call.name) part.id = id;
      }
      this.used.add(id);
    });
  }
}
