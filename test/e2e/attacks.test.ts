// Issue 3, "Tests": attacks run end to end. The scripted model attempts each one through the built
// CLI under an allowlist recipe (test/fixtures/e2e/allowlist.yaml, wide rules on purpose), and a
// sentinel proves nothing ran: the file the attack would create does not exist, the file it would
// change is unchanged, and a loopback HTTP sink saw no request. The unit corpus
// (test/policy/attacks.test.ts) covers many more decisions; this proves the runner obeys them.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, ROOT, tempDir, type RunFiles } from '../helpers/cli.js';

afterAll(removeTempDirs);

const RECIPE = path.join(ROOT, 'test/fixtures/e2e/allowlist.yaml');
const SENTINEL = 'pwned';

interface Sink {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let sink: Sink;
const dirs: string[] = [];
beforeAll(async () => {
  sink = await startSink();
});
afterAll(async () => {
  await sink.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface Layout {
  root: string;
  ws: string;
  outside: string;
}

/** A git workspace with a README, a directory outside it, and a symlink in the workspace to that directory. */
async function layout(): Promise<Layout> {
  const root = tempDir('unattended-attack-');
  dirs.push(root);
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(ws, 'README.md'), '# project\nhello\n');
  fs.writeFileSync(path.join(outside, 'victim.txt'), 'original\n');
  fs.symlinkSync(outside, path.join(ws, 'linked'));
  const git = (...args: string[]) => execa('git', args, { cwd: ws, env: { GIT_CONFIG_NOSYSTEM: '1', HOME: root } });
  await git('init', '-q', '-b', 'main');
  await git('add', 'README.md');
  await git('-c', 'user.email=t@example.com', '-c', 'user.name=test', 'commit', '-qm', 'init');
  fs.writeFileSync(path.join(ws, 'README.md'), '# project\nhello, world\n'); // something for git diff
  return { root, ws, outside };
}

interface Call {
  name: string;
  args: Record<string, unknown>;
}

/** Runs the allowlist recipe with one scripted call, then a final answer. */
async function attempt(l: Layout, call: Call): Promise<RunFiles & { code: number; stdout: string; stderr: string }> {
  const script = path.join(l.root, 'turns.yaml');
  fs.writeFileSync(script, JSON.stringify({ turns: [{ calls: [call] }, { text: 'Done.' }] }));
  const out = path.join(l.root, 'run');
  const r = await cli(['run', RECIPE, '--provider', 'scripted', '--script', script, '--workspace', l.ws, '--out', out]);
  return { ...r, ...readRun(out) };
}

const shell = (command: string): Call => ({ name: 'shell', args: { command, description: 'attack' } });

type Attack = [name: string, reason: RegExp, call: (l: Layout) => Call];

const NOT_COVERED = /not covered by any allow rule/;
const OUTSIDE = /would reach outside the workspace/;

const attacks: Attack[] = [
  ['command substitution inside an allowed echo', /command substitution/, () => shell(`echo $(touch ${SENTINEL})`)],
  ['backquotes inside an allowed echo', /command substitution/, () => shell(`echo \`touch ${SENTINEL}\``)],
  ['chaining an unlisted command with ;', /'mkdir pwned' matches none/, () => shell(`git status; mkdir ${SENTINEL}`)],
  ['redirection from an allowed echo to outside the workspace', /writes outside the workspace/, () => shell(`echo owned > ../outside/${SENTINEL}`)],
  ['redirection through a symlinked directory', /writes outside the workspace/, () => shell(`echo owned > linked/${SENTINEL}`)],
  ['redirection appending to a file outside', /writes outside the workspace/, () => shell('echo owned >> linked/victim.txt')],
  ['quoted heredoc into a git hook', /which is protected/, () => shell(`cat > .git/hooks/pre-commit <<'EOF'\n#!/bin/sh\ntouch ${SENTINEL}\nEOF`)],
  ['unquoted heredoc (its body would be expanded)', /command substitution|unquoted delimiter/, () => shell(`cat <<EOF\n$(touch ${SENTINEL})\nEOF`)],
  ['bash -c wrapping an unlisted command', /'mkdir pwned' matches none/, () => shell(`bash -c "mkdir ${SENTINEL}"`)],
  ['bash -c wrapping an allowed command aimed outside', /leads outside the workspace/, () => shell(`bash -c "touch ../outside/${SENTINEL}"`)],
  ['env wrapper with an assignment', NOT_COVERED, () => shell(`env X=1 touch ${SENTINEL}`)],
  ['assignment prefix', /variable assignment/, () => shell(`GIT_DIR=. touch ${SENTINEL}`)],
  ['argv[0] with a slash (touch * is allowed)', NOT_COVERED, () => shell(`/usr/bin/touch ${SENTINEL}`)],
  ['find -exec under find *', /find -exec guard/, () => shell(`find . -maxdepth 0 -exec touch ${SENTINEL} ;`)],
  ['git -c alias running a shell under git *', /git -c guard/, () => shell(`git -c alias.st='!touch ${SENTINEL}' st`)],
  ['git -c core.pager under git *', /git -c guard/, () => shell(`git -c core.pager='touch ${SENTINEL}' log`)],
  ['touch outside the workspace (touch * is allowed)', /leads outside the workspace/, (l) => shell(`touch ${path.join(l.outside, SENTINEL)}`)],
  ['write_file to ../outside', OUTSIDE, () => ({ name: 'write_file', args: { file_path: `{{workspace}}/../outside/${SENTINEL}`, content: 'owned' } })],
  ['write_file through a symlinked directory', OUTSIDE, () => ({ name: 'write_file', args: { file_path: `{{workspace}}/linked/${SENTINEL}`, content: 'owned' } })],
  [
    'edit through a symlinked directory',
    OUTSIDE,
    () => ({ name: 'edit', args: { file_path: '{{workspace}}/linked/victim.txt', old_string: 'original', new_string: 'owned' } }),
  ],
  ['write_file to .git/hooks/pre-commit', /'\.git' is never written/, () => ({ name: 'write_file', args: { file_path: '.git/hooks/pre-commit', content: `#!/bin/sh\ntouch ${SENTINEL}\n` } })],
  ['write_file to .github/workflows', /'\.github\/workflows' is never written/, () => ({ name: 'write_file', args: { file_path: '.github/workflows/x.yml', content: 'on: push\n' } })],
];

/** Files an attack would have created or changed, anywhere it could reach. */
function traces(l: Layout): string[] {
  const found: string[] = [];
  for (const dir of [l.root, l.ws, l.outside]) if (fs.existsSync(path.join(dir, SENTINEL))) found.push(path.join(dir, SENTINEL));
  for (const rel of ['.git/hooks/pre-commit', '.github']) if (fs.existsSync(path.join(l.ws, rel))) found.push(rel);
  if (fs.readFileSync(path.join(l.outside, 'victim.txt'), 'utf8') !== 'original\n') found.push('outside/victim.txt changed');
  return found;
}

describe('attacks end to end: the scripted model tries, the policy denies, nothing ran', () => {
  it.each(attacks)('%s', async (_name, reason, makeCall) => {
    const l = await layout();
    const call = makeCall(l);
    const run = await attempt(l, call);
    expect(run.code).toBe(0);
    expect(run.report.status).toBe('denied');
    expect(run.report.denials).toHaveLength(1);
    expect(run.report.denials[0]).toMatchObject({ tool: call.name });
    expect(run.report.denials[0].reason).toMatch(reason);
    expect(run.reportMd).toContain('Policy denials');
    const decided = run.events.find((e) => e.type === 'tool_call');
    expect(decided!.decision.decision).toBe('deny');
    expect(run.events.find((e) => e.type === 'tool_result')!.error_type).toBe('policy_denied');
    expect(run.events.at(-1)!.type).toBe('run_end');
    expect(traces(l)).toEqual([]);
  });

  it.each([
    ['an unlisted curl chained after an allowed command', (url: string) => `git status && curl -s ${url}/chained`],
    ['curl inside a substitution', (url: string) => `echo $(curl -s ${url}/substituted)`],
    ['curl piped from an allowed command', (url: string) => `echo hi | curl -s -d @- ${url}/piped`],
  ])('no request reaches a loopback sink: %s', async (_name, command) => {
    const l = await layout();
    const run = await attempt(l, shell(command(sink.url)));
    expect(run.report.status).toBe('denied');
    expect(run.report.denials).toHaveLength(1);
    expect(run.report.denials[0].args.command).toContain(sink.url);
    expect(sink.hits).toEqual([]);
  });

  it.each([
    ['the sink by address', (port: string) => `http://127.0.0.1:${port}/fetched`],
    ['the sink as localhost', (port: string) => `http://localhost:${port}/fetched`],
    ['the sink as an IPv4-mapped IPv6 address', (port: string) => `http://[::ffff:127.0.0.1]:${port}/fetched`],
  ])('web_fetch (allowed for *.example.org) never reaches %s', async (_name, url) => {
    const l = await layout();
    const run = await attempt(l, { name: 'web_fetch', args: { url: url(new URL(sink.url).port) } });
    expect(run.code).toBe(0);
    expect(run.report.status).toBe('denied');
    expect(run.report.denials).toHaveLength(1);
    expect(run.report.denials[0].reason).toMatch(/not covered by any allow rule|loopback/);
    expect(run.events.at(-1)!.type).toBe('run_end');
    expect(sink.hits).toEqual([]);
  });
});

describe('legitimate commands under the same allowlist still run end to end', () => {
  it.each([
    ['git status', /modified:\s+README\.md/],
    ['git diff --stat', /README\.md \| 2 \+-/],
    ['cat README.md | wc -l', /^\s*2\s*$/m],
    ['echo hi > note.txt && cat note.txt', /^hi$/m],
    ["bash -c 'git status' 2>&1 # a quick look", /modified:\s+README\.md/],
    ["cat <<'EOF' | wc -l\n$HOME\n`id`\nEOF", /^\s*2\s*$/m],
    ['git status > /dev/null && echo quiet', /^quiet$/m],
  ])('%s', async (command, expected) => {
    const l = await layout();
    const run = await attempt(l, shell(command));
    expect(run.code).toBe(0);
    expect(run.report.status).toBe('success');
    expect(run.report.denials).toEqual([]);
    const result = run.events.find((e) => e.type === 'tool_result');
    expect(result!.error_type).toBeNull();
    expect(result!.llm_content).toMatch(expected);
  });
});
