// The benchmark's model as an Anthropic Messages API endpoint on 127.0.0.1: same script, same
// conversation as scripted-gemini.mjs, picking the reply by the number of assistant messages in
// the request, streamed as the API streams (message_start, content_block_start / ping /
// content_block_delta with text_delta or input_json_delta / content_block_stop, message_delta,
// message_stop). Usage reports cache reads once a prefix repeats, as prompt caching would.
import http from 'node:http';

/** script: [{ calls: [{ name, args }] } | { text }]; returns { url, requests: [{ bytes, body }], close }. */
export async function startScriptedAnthropic(script) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8') || '{}');
      requests.push({ url: req.url, bytes: raw.length, body, at: performance.now() });
      const turn = (body.messages ?? []).filter((m) => m.role === 'assistant').length;
      const step = script[Math.min(turn, script.length - 1)];
      const events = [];
      const send = (type, data) => events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      const prompt = Math.ceil(raw.length / 4);
      const cached = turn === 0 ? 0 : Math.ceil(requests[requests.length - 2].bytes / 4);
      send('message_start', {
        message: { id: `msg_bench_${turn}`, type: 'message', role: 'assistant', content: [], model: body.model, stop_reason: null, stop_sequence: null,
          usage: { input_tokens: prompt - cached, cache_read_input_tokens: cached, cache_creation_input_tokens: 0, output_tokens: 1 } },
      });
      const blocks = step.calls
        ? step.calls.map((c, i) => [{ type: 'tool_use', id: `toolu_${turn}_${i}`, name: c.name, input: {} }, { type: 'input_json_delta', partial_json: JSON.stringify(c.args) }])
        : [[{ type: 'text', text: '' }, { type: 'text_delta', text: step.text }]];
      blocks.forEach(([start, delta], index) => {
        send('content_block_start', { index, content_block: start });
        if (index === 0) send('ping', {});
        send('content_block_delta', { index, delta });
        send('content_block_stop', { index });
      });
      send('message_delta', { delta: { stop_reason: step.calls ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } });
      send('message_stop', {});
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(events.join(''));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
