// Small HTTP servers on 127.0.0.1 for the web_fetch tests: each records what it was asked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  url: string;
  port: number;
  requests: { path: string; host: string }[];
  close(): Promise<void>;
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse, server: TestServer) => void;

export async function startServer(routes: Record<string, Route>): Promise<TestServer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const self: TestServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  server.on('request', (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    self.requests.push({ path: req.url ?? '/', host: req.headers.host ?? '' });
    const route = routes[path];
    if (route) route(req, res, self);
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`no route ${path}`);
    }
  });
  return self;
}

export function send(res: http.ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export function redirect(res: http.ServerResponse, location: string, status = 302): void {
  res.writeHead(status, { location });
  res.end();
}
