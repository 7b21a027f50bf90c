// Server-sent events split out of a text stream: each event's `data:` lines, joined, as one
// payload. Events end at a blank line (\n\n, \r\n\r\n or \r\r); comments and fields other than
// data are dropped. What is left when the stream ends is the caller's to judge (a cut-off event).
const EVENT_END = /\r\n\r\n|\n\n|\r\r/g;
const LINE = /\r\n|\n|\r/;

export class SseDecoder {
  private pending = '';

  /** Adds text; returns the data of each event it completed, in order. */
  push(text: string): string[] {
    this.pending += text;
    const out: string[] = [];
    let start = 0;
    EVENT_END.lastIndex = 0;
    for (let m = EVENT_END.exec(this.pending); m !== null; m = EVENT_END.exec(this.pending)) {
      const data = eventData(this.pending.slice(start, m.index));
      if (data !== null) out.push(data);
      start = m.index + m[0].length;
    }
    if (start > 0) this.pending = this.pending.slice(start);
    return out;
  }

  /** Text after the last complete event (an event the stream ended in the middle of), trimmed. */
  rest(): string {
    return this.pending.trim();
  }
}

function eventData(event: string): string | null {
  let data: string | null = null;
  for (const line of event.split(LINE)) {
    if (!line.startsWith('data:')) continue;
    const value = line.slice(line[5] === ' ' ? 6 : 5);
    data = data === null ? value : `${data}\n${value}`;
  }
  return data;
}

/**
 * A whole body that is an event stream, each event's data in order; null when it is none. A server
 * or gateway that streams whatever `stream: false` says (one that always streams) sends one.
 */
export function eventStreamData(text: string): string[] | null {
  // An event stream opens with a field (`data:`, `event:`…) or a comment (`: keep-alive`).
  if (!/^\s*(:|(data|event|id|retry)[ \t]*:)/.test(text)) return null;
  const decoder = new SseDecoder();
  return decoder.push(`${text}\n\n`);
}
