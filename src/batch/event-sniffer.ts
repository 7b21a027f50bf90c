// Live progress from a child run's stream-json output without holding or parsing whole events:
// a turn number and a tool name sit in the first few hundred characters of their lines, while a
// tool result line can be megabytes.
export type LiveEvent = { kind: 'turn'; turn: number } | { kind: 'tool'; name: string };

const HEAD_CHARS = 400;
const MODEL_REQUEST = /^\{"type":"model_request".*?"turn":(\d+)/;
const TOOL_CALL = /^\{"type":"tool_call".*?"name":"((?:[^"\\]|\\.)*)"/;

export function eventSniffer(onEvent: (event: LiveEvent) => void): (chunk: Buffer | string) => void {
  let head = '';
  return (chunk) => {
    const text = String(chunk);
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      const piece = text.slice(start, nl === -1 ? undefined : nl);
      if (head.length < HEAD_CHARS) head += piece.slice(0, HEAD_CHARS - head.length);
      if (nl === -1) return;
      sniff(head, onEvent);
      head = '';
      start = nl + 1;
    }
  };
}

function sniff(line: string, onEvent: (event: LiveEvent) => void): void {
  const turn = MODEL_REQUEST.exec(line);
  if (turn) return onEvent({ kind: 'turn', turn: Number(turn[1]) });
  const tool = TOOL_CALL.exec(line);
  if (tool) onEvent({ kind: 'tool', name: tool[1]! });
}
