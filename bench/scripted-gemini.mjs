// The benchmark's model: a Gemini streamGenerateContent endpoint on 127.0.0.1 that answers from a
// script, picking the reply by the number of model turns already in the request (as the shared
// bench kit's fake does), so it costs nothing and every run gets the same conversation. It counts
// the turns in the raw body instead of parsing it (a 2,000-turn run sends 0.6 MB bodies: parsing
// them would make the endpoint, not the runner, what a 2-core machine measures); JSON escapes any
// `"role":"model"` inside a string, so only real turns match.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * script: [{ calls: [{ name, args }] } | { text }]. Options: `bodiesDir` keeps every body as
 * NNNN.json plus index.txt (the shared kit's FAKE_LLM_BODIES layout, for cache-cost.mjs);
 * `onRequest({ index, bytes })` is called as each request arrives.
 * Returns { url, requests: [{ bytes, at, epoch }], close } (`at`: performance.now(); `epoch`: Date.now(), to line up with other processes' clocks).
 */
export async function startScriptedGemini(script, { bodiesDir, onRequest } = {}) {
  const requests = [];
  const index = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      requests.push({ url: req.url, bytes: raw.length, at: performance.now(), epoch: Date.now() });
      onRequest?.({ index: requests.length - 1, bytes: raw.length });
      if (bodiesDir) {
        const name = `${String(requests.length).padStart(4, '0')}.json`;
        fs.writeFileSync(path.join(bodiesDir, name), raw);
        index.push(`${name} ${req.method} ${req.url}`);
      }
      const text = raw.toString('utf8');
      let turn = 0;
      for (let at = text.indexOf('"role":"model"'); at !== -1; at = text.indexOf('"role":"model"', at + 1)) turn++;
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
    close: () =>
      new Promise((resolve) => {
        if (bodiesDir) fs.writeFileSync(path.join(bodiesDir, 'index.txt'), `${index.join('\n')}\n`);
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
