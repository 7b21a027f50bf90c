// The benchmark's model: a Gemini streamGenerateContent endpoint on 127.0.0.1 that answers from a
// script, picking the reply by the number of model turns already in the request (as the shared
// bench kit's fake does), so it costs nothing and every run gets the same conversation.
import http from 'node:http';

/** script: [{ calls: [{ name, args }] } | { text }]; returns { url, requests: [{ bytes }], close }. */
export async function startScriptedGemini(script) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      requests.push({ url: req.url, bytes: raw.length });
      const body = JSON.parse(raw.toString('utf8') || '{}');
      const turn = (body.contents ?? []).filter((c) => c.role === 'model').length;
      const step = script[Math.min(turn, script.length - 1)];
      const parts = step.calls ? step.calls.map((c) => ({ functionCall: c })) : [{ text: step.text }];
      const payload = {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: Math.ceil(raw.length / 4), candidatesTokenCount: 10, totalTokenCount: Math.ceil(raw.length / 4) + 10 },
      };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(payload)}\n\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
