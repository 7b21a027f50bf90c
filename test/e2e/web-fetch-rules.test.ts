// web_fetch through the CLI against an HTTP server on 127.0.0.1: a loopback host is fetched only
// when an allow rule names it exactly, and every redirect hop is held to the same rules. The first
// case runs the built CLI, the others its entry in process (the same code, no process start each).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, readRun } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { cleanupTempDirs, writeRecipe } from './temp-recipe.js';

afterAll(cleanupTempDirs);

let server: http.Server;
const echoed: http.IncomingHttpHeaders[] = [];
let port = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/to-credentials') {
      res.writeHead(302, { location: `http://user:pw-secret@127.0.0.1:${port}/echo` }).end();
      return;
    }
    if (req.url === '/echo') {
      echoed.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers));
      return;
    }
    if (req.url === '/hop') {
      res.writeHead(302, { location: `http://localhost:${port}/page` }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<html><head><title>Notes</title></head><body><h1>Release notes</h1><p>Version 2 is out.</p></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())));

interface FetchCase {
  confirmation: Record<string, unknown>;
  flags?: string[];
  path: string;
  errorType: string | null;
  content: RegExp;
  denials: number;
}

const CASES: Array<[string, FetchCase]> = [
  ['allowed: an allow rule names 127.0.0.1 exactly', { confirmation: { mode: 'allowlist', allow: [{ web_fetch: '127.0.0.1' }] }, path: '/page', errorType: null, content: /Release notes\s+Version 2 is out\./, denials: 0 }],
  ['refused: auto-approve, but no rule names the loopback host', { confirmation: { mode: 'auto-approve' }, path: '/page', errorType: 'policy_denied', content: /loopback/, denials: 1 }],
  ['denied: the allow rules name another host', { confirmation: { mode: 'allowlist', allow: [{ web_fetch: 'docs.python.org' }] }, path: '/page', errorType: 'policy_denied', content: /not covered by any allow rule/, denials: 1 }],
  ['allowed: an allow rule names 127.0.0.1 on the port fetched', { confirmation: { mode: 'allowlist', allow: [{ web_fetch: '127.0.0.1:PORT' }] }, path: '/page', errorType: null, content: /Release notes/, denials: 0 }],
  // The exemption is the rule's host on the rule's port, not every port of it.
  ['refused: the allow rule names 127.0.0.1 on another port', { confirmation: { mode: 'allowlist', allow: ['web_fetch', { web_fetch: '127.0.0.1:1' }] }, path: '/page', errorType: 'policy_denied', content: /loopback/, denials: 1 }],
  ['denied: a redirect to a host no allow rule names', { confirmation: { mode: 'allowlist', allow: [{ web_fetch: '127.0.0.1' }] }, path: '/hop', errorType: 'policy_denied', content: /redirect .*to http:\/\/localhost:\d+\/page: the redirect to 'localhost' is not covered by any allow rule/, denials: 1 }],
];

describe('web_fetch and host rules', () => {
  it.each(CASES.map(([name, c], i) => [name, c, i === 0 ? cli : cliInProcess] as const))('%s', async (_name, c, run) => {
    const url = `http://127.0.0.1:${port}${c.path}`;
    const confirmation = JSON.parse(JSON.stringify(c.confirmation).replaceAll('PORT', String(port))) as Record<string, unknown>;
    const { file, out } = writeRecipe({ prompt: 'Read the release notes.', tools: ['web_fetch'], confirmation }, [
      { calls: [{ name: 'web_fetch', args: { url } }] },
      { text: 'Done.' },
    ]);
    const r = await run(['run', file, '--out', out, ...(c.flags ?? [])]);
    expect(r.code, r.stderr).toBe(0);
    const { report, events } = readRun(out);
    const result = events.find((e) => e.type === 'tool_result' && e.name === 'web_fetch');
    expect(result?.error_type ?? null).toBe(c.errorType);
    expect(String(result?.llm_content)).toMatch(c.content);
    expect(report.denials).toHaveLength(c.denials);
  });
});

describe('web_fetch under auto-approve with --allow', () => {
  // Allow rules decide nothing under auto-approve: one there would open no loopback host, and is refused before the run.
  it('is refused before the model is asked anything (exit 42), so no rule can seem to open the loopback host', async () => {
    const { file, out } = writeRecipe({ prompt: 'Read the release notes.', tools: ['web_fetch'], confirmation: { mode: 'auto-approve' } }, [
      { calls: [{ name: 'web_fetch', args: { url: `http://127.0.0.1:${port}/page` } }] },
      { text: 'Done.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out, '--allow', 'web_fetch:127.0.0.1']);
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(/--allow 'web_fetch:127\.0\.0\.1': allow rules count only in allowlist mode/);
    expect(readRun(out).events.some((e) => e.type === 'tool_call')).toBe(false);
  });
});

describe('web_fetch of a name DNS cannot resolve', () => {
  it('is a failed fetch, not a policy denial: fail_on_denial does not end the run', async () => {
    const { file, out } = writeRecipe(
      { prompt: 'Read the release notes.', tools: ['web_fetch'], confirmation: { mode: 'allowlist', allow: ['web_fetch'] }, fail_on_denial: true },
      [{ calls: [{ name: 'web_fetch', args: { url: 'http://no-such-host.invalid/notes' } }] }, { text: 'The host does not exist.' }],
    );
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const { report, events } = readRun(out);
    const result = events.find((e) => e.type === 'tool_result' && e.name === 'web_fetch');
    expect(result?.error_type).toBe('execution_failed');
    expect(String(result?.llm_content)).toMatch(/cannot resolve no-such-host\.invalid: (ENOTFOUND|EAI_AGAIN|EAI_NODATA|no address)/);
    expect(report).toMatchObject({ status: 'success', denials: [] });
  });
});

describe('host rules name an IP address however it is written', () => {
  // The URL parser writes a host one way (zeros compressed, lower case, IPv4 in dotted decimal): a
  // rule written another way must still match it, or a deny rule fails open.
  it.each([
    ['[2606:4700:0:0:0:0:0:1111]', 'http://[2606:4700::1111]/dns-query'],
    ['[2606:4700:0000:0000:0000:0000:0000:1111]:8443', 'https://[2606:4700::1111]:8443/'],
    ['[2001:DB8::A]', 'http://[2001:db8::a]/'],
    ['2001:db8::a', 'http://[2001:db8:0::a]/'],
    ['[::ffff:127.0.0.1]', 'http://[::ffff:7f00:1]/'],
    ['0x7f.1', 'http://127.0.0.1/'],
  ])('deny %s refuses %s', async (pattern, url) => {
    const { file } = writeRecipe({ prompt: 'x', tools: ['web_fetch'], confirmation: { mode: 'auto-approve', deny: [{ web_fetch: pattern }] } });
    const r = await cliInProcess(['policy', 'check', file, '--tool', 'web_fetch', '--args', JSON.stringify({ url })]);
    expect(JSON.parse(r.stdout), r.stderr).toMatchObject({ decision: 'deny', rule: `web_fetch: ${pattern}` });
  });

  it('refuses an IPv6 rule that is no address, naming it', async () => {
    const { file } = writeRecipe({ prompt: 'x', tools: ['web_fetch'], confirmation: { mode: 'auto-approve', deny: [{ web_fetch: '[2606:4700::zz]' }] } });
    const r = await cliInProcess(['validate', file]);
    expect(r.code).toBe(52);
    expect(r.stderr).toMatch(/'\[2606:4700::zz\]' is not an IPv6 address/);
  });
});

describe('a redirect to a URL with a user name or password', () => {
  it('is refused, as such a first URL is: nothing is sent to the target and no credential reaches the transcript', async () => {
    const url = `http://127.0.0.1:${port}/to-credentials`;
    const { file, out } = writeRecipe({ prompt: 'Read it.', tools: ['web_fetch'], confirmation: { mode: 'allowlist', allow: [{ web_fetch: '127.0.0.1' }] } }, [
      { calls: [{ name: 'web_fetch', args: { url } }] },
      { text: 'Done.' },
    ]);
    const r = await cliInProcess(['run', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(echoed).toEqual([]);
    const { events } = readRun(out);
    const result = events.find((e) => e.type === 'tool_result' && e.name === 'web_fetch');
    expect(result?.error_type).toBe('execution_failed');
    expect(result?.llm_content).toBe(
      `Error: refused to follow the redirect from ${url} to http://127.0.0.1:${port}/echo: the target carries a user name or password, which web_fetch never sends`,
    );
    expect(JSON.stringify(events)).not.toMatch(/pw-secret|dXNlcjpwdy1zZWNyZXQ/);
  });
});
