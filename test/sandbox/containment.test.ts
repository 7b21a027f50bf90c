// What an approved command can do once it runs, under the real bubblewrap sandbox: the e2e
// promises of the README's "Sandbox" section, each shown by a command that would succeed without it.
// Runs are in this process (runCli) except where a command attacks the runner's process itself.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { processesWith } from '../helpers/processes.js';
import { bwrapWorks, outsideDir, removeOutsideDirs, runCommands } from './harness.js';

afterAll(removeTempDirs);

afterAll(removeOutsideDirs);
const made: string[] = [];

/** A new directory under `parent`, removed after the file's cases. */
function tempIn(parent: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(parent, 'unattended-sbx-')));
  made.push(dir);
  return dir;
}
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe.skipIf(!bwrapWorks)('the bubblewrap sandbox', () => {
  let server: http.Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits++;
      res.end('hello from the host\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );

  it('reports a death by signal as without the sandbox (bwrap passes it on as 128+n)', async () => {
    const commands = ['kill -SEGV $$', 'echo out; kill -TERM $$', 'exit 3'];
    const sandboxed = await runCommands({ commands });
    const unsandboxed = await runCommands({ commands, sandbox: { mode: 'off' } });
    expect(sandboxed.outputs).toEqual(['Killed by SIGSEGV (no output)', 'Killed by SIGTERM\nStdout:\nout', 'Exit code: 3 (no output)']);
    expect(unsandboxed.outputs).toEqual(sandboxed.outputs);
  });

  it('says a success check killed by a signal was, by its name, as without the sandbox: not "exit 139"', async () => {
    const extra = { checks: { commands: ['kill -SEGV $$'] } };
    const sandboxed = await runCommands({ commands: [], extra });
    const unsandboxed = await runCommands({ commands: [], extra, sandbox: { mode: 'off' } });
    for (const run of [sandboxed, unsandboxed]) {
      expect(run.cli.code).toBe(56);
      expect(run.report.checks[0]).toMatchObject({ passed: false, exit_code: null, reason: 'killed by SIGSEGV' });
      expect(run.report.error).toBe('success check failed: `kill -SEGV $$` killed by SIGSEGV');
    }
  });

  it('says which sandbox ran, in run_start and the report', async () => {
    const run = await runCommands({ commands: ['true'] });
    const start = run.events.find((e) => e.type === 'run_start')!;
    expect(start.sandbox).toEqual({ mode: 'auto', kind: 'bwrap', reason: null, network: false });
    expect(run.report.sandbox).toMatchObject({ kind: 'bwrap', denied_hosts: [] });
    expect(run.reportMd).toContain('## Sandbox');
  });

  // The suite's own temporary directory (in memory, /dev/shm, where there is one) and the real /tmp:
  // the sandbox mounts both afresh, and neither may swallow a write beside the workspace.
  it.each([
    ['the temporary directory', () => path.join(tempDir(), 'ws')],
    ['/tmp', () => path.join(tempIn('/tmp'), 'ws')],
  ])('lets commands write the workspace and nothing outside it (a workspace under %s)', async (_where, workspace) => {
    const outside = outsideDir();
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'original\n');
    const run = await runCommands({
      workspace: workspace(),
      commands: [
        'echo inside > made-here.txt && cat made-here.txt',
        `echo changed > ${outside}/keep.txt; echo new > ${outside}/new.txt; echo "exit $?"`,
        `rm -f ${outside}/keep.txt; echo x > /etc/unattended-test; touch ~/unattended-test; echo "exit $?"`,
        // Beside the workspace: the sandbox's private /tmp or /dev must not swallow it.
        'echo x > ../beside.txt; echo "beside exit $?"; mkdir ../newdir; echo "mkdir exit $?"',
      ],
    });
    expect(run.outputs[3]).toMatch(/beside exit [1-9]/);
    expect(run.outputs[3]).toMatch(/mkdir exit [1-9]/);
    expect(run.cli.code).toBe(0);
    expect(fs.readFileSync(path.join(run.workspace, 'made-here.txt'), 'utf8')).toBe('inside\n');
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('original\n');
    expect(fs.existsSync(path.join(outside, 'new.txt'))).toBe(false);
    expect(fs.existsSync('/etc/unattended-test')).toBe(false);
    expect(run.outputs[1]).toMatch(/Read-only file system/);
    expect(run.outputs[1]).toMatch(/exit 1/);
  });

  it('gives no privilege inside, even to a runner started as root: no unmounting, no remounting, no new user namespace', async () => {
    const ws = path.join(tempDir(), 'repo');
    fs.mkdirSync(ws);
    const { execa } = await import('execa');
    await execa('git', ['init', '-q'], { cwd: ws });
    const run = await runCommands({
      workspace: ws,
      commands: [
        `umount ${ws}/.git/config; echo "umount exit $?"; mount -o remount,rw /; echo "remount exit $?"; echo x > /etc/unattended-root-test; echo "write exit $?"`,
        'grep CapEff /proc/self/status; unshare -U -r -m sh -c "umount /; echo inner-umount-ok"; echo "unshare exit $?"',
      ],
    });
    expect(run.outputs[0]).toMatch(/umount exit [1-9]/);
    expect(run.outputs[0]).toMatch(/remount exit [1-9]/);
    expect(run.outputs[0]).toMatch(/write exit [1-9]/);
    expect(fs.existsSync('/etc/unattended-root-test')).toBe(false);
    expect(run.outputs[1]).toContain('CapEff:\t0000000000000000');
    expect(run.outputs[1]).not.toContain('inner-umount-ok');
  });

  it('writes outside succeed with sandbox.mode: off (the control: the test above can fail)', async () => {
    const outside = outsideDir();
    const run = await runCommands({ commands: [`echo new > ${outside}/new.txt`], sandbox: { mode: 'off' } });
    expect(fs.readFileSync(path.join(outside, 'new.txt'), 'utf8')).toBe('new\n');
    expect(run.report.sandbox).toMatchObject({ kind: null, reason: 'sandbox.mode is off' });
  });

  it('has no network by default: a server on the host loopback is unreachable', async () => {
    const before = hits;
    const run = await runCommands({ commands: [`curl -sS -m 3 http://127.0.0.1:${port}/; echo "curl exit $?"`] });
    expect(run.outputs[0]).not.toContain('hello from the host');
    expect(run.outputs[0]).toMatch(/curl exit [1-9]/);
    expect(hits).toBe(before);
  });

  it('network: true reaches the host', async () => {
    const run = await runCommands({ commands: [`curl -sS -m 3 http://127.0.0.1:${port}/`], sandbox: { network: true } });
    expect(run.outputs[0]).toContain('hello from the host');
  });

  it('lets named hosts through the proxy (plain and CONNECT) and records the others as events', async () => {
    const before = hits;
    const run = await runCommands({
      sandbox: { network: ['localhost'] },
      commands: [
        `curl -sS -m 5 http://localhost:${port}/plain`,
        `curl -sS -m 5 --proxytunnel http://localhost:${port}/tunnel`,
        `curl -sS -m 5 http://127.0.0.1:${port}/; echo "curl exit $?"`,
        `curl -sS -m 5 https://denied.example.test/; echo "curl exit $?"`,
      ],
    });
    expect(run.outputs[0]).toContain('hello from the host');
    expect(run.outputs[1]).toContain('hello from the host');
    expect(run.outputs[2]).not.toContain('hello from the host');
    expect(run.outputs[3]).toMatch(/403/);
    expect(hits).toBe(before + 2);
    const denied = run.events.filter((e) => e.type === 'network_denied').map((e) => `${e.host}:${e.port}`);
    expect(denied).toEqual([`127.0.0.1:${port}`, 'denied.example.test:443']);
    expect(run.report.sandbox.denied_hosts).toEqual(denied);
  });

  // The tools' environment is filtered, but a process of the same user reads any other's starting
  // environment in /proc: only the sandbox's own PID namespace keeps the runner's keys from it
  // (README, "That filter is not a secret boundary without the sandbox").
  it("hides the runner's environment, which a command without the sandbox can read", async () => {
    const secret = `sekrit-${process.pid}-${Date.now()}`;
    const command = `cat /proc/$PPID/environ /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c '${secret.slice(0, 6)}[-]${secret.slice(7)}'; true`;
    const env = { MYAPP_DB_PASSWORD: secret };
    const sandboxed = await runCommands({ builtCli: true, env, commands: [command] });
    expect(sandboxed.outputs[0]).toBe('Exit code: 0\nStdout:\n0');
    const unsandboxed = await runCommands({ builtCli: true, env, commands: [command], sandbox: { mode: 'off' } });
    expect(unsandboxed.outputs[0]).toMatch(/^Exit code: 0\nStdout:\n[1-9]/);
  });

  it('a command cannot kill the runner: kill -9 $PPID leaves a run with a report', async () => {
    const run = await runCommands({ builtCli: true, commands: ['kill -9 $PPID; kill -9 -1; echo "still here, parent was $PPID"', 'echo second call'] });
    expect(run.cli.code).toBe(0);
    expect(run.report.status).toBe('success');
    expect(run.outputs[1]).toContain('second call');
  });

  it('nothing a command starts outlives the run, setsid and nohup children included', async () => {
    const marker = `${Date.now() % 100000}${process.pid}`;
    const run = await runCommands({
      commands: [`setsid sleep 7${marker} > /dev/null 2>&1 & nohup sleep 8${marker} > /dev/null 2>&1 & disown; (setsid bash -c 'sleep 9${marker}' &); echo started`],
    });
    expect(run.outputs[0]).toContain('started');
    await new Promise((r) => setTimeout(r, 200));
    expect(processesWith(`7${marker}`)).toEqual([]);
    expect(processesWith(`8${marker}`)).toEqual([]);
    expect(processesWith(`9${marker}`)).toEqual([]);
  });

  it('hides credential directories and files of the home directory', async () => {
    const home = outsideDir();
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.ssh/id_ed25519'), 'PRIVATE KEY\n');
    fs.mkdirSync(path.join(home, '.aws'));
    fs.writeFileSync(path.join(home, '.aws/credentials'), 'aws_secret_access_key=abc\n');
    fs.mkdirSync(path.join(home, '.config/gcloud'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config/gcloud/credentials.db'), 'GCLOUD_TOKEN\n');
    fs.writeFileSync(path.join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=npm_secret\n');
    fs.writeFileSync(path.join(home, '.netrc'), 'machine github.com password hunter2\n');
    // Other coding agents' logins.
    fs.mkdirSync(path.join(home, '.gemini'));
    fs.writeFileSync(path.join(home, '.gemini/oauth_creds.json'), '{"refresh_token":"GEMINI_REFRESH"}\n');
    fs.writeFileSync(path.join(home, '.claude.json'), '{"oauthAccount":"CLAUDE_ACCOUNT"}\n');
    fs.mkdirSync(path.join(home, '.codex'));
    fs.writeFileSync(path.join(home, '.codex/auth.json'), '{"OPENAI_API_KEY":"CODEX_KEY"}\n');
    // Shell histories, where a token exported or pasted stays.
    fs.writeFileSync(path.join(home, '.bash_history'), 'export GITHUB_TOKEN=ghp_HISTORY_SECRET\n');
    fs.writeFileSync(path.join(home, '.python_history'), 'openai.api_key = "PY_HISTORY_SECRET"\n');
    fs.writeFileSync(path.join(home, 'notes.txt'), 'visible\n');
    const run = await runCommands({
      env: { HOME: home },
      commands: ['cat ~/.ssh/id_ed25519 ~/.aws/credentials ~/.config/gcloud/credentials.db ~/.npmrc ~/.netrc ~/.gemini/oauth_creds.json ~/.claude.json ~/.codex/auth.json ~/.bash_history ~/.python_history; ls -A ~/.ssh ~/.aws; cat ~/notes.txt'],
    });
    const out = run.outputs[0]!;
    for (const secret of ['PRIVATE KEY', 'aws_secret', 'GCLOUD_TOKEN', 'npm_secret', 'hunter2', 'GEMINI_REFRESH', 'CLAUDE_ACCOUNT', 'CODEX_KEY', 'HISTORY_SECRET']) expect(out).not.toContain(secret);
    expect(out).toContain('visible');
  });

  it("hides the sockets that hand out secrets to whoever connects: git's credential cache answers no sandboxed command", async () => {
    const home = outsideDir();
    const socket = path.join(home, '.cache/git/credential/socket');
    fs.mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
    let asked = 0;
    const daemon = net.createServer((c) => c.on('data', () => (asked++, c.end('username=me\npassword=hunter2\n\n'))));
    await new Promise<void>((resolve) => daemon.listen(socket, resolve));
    fs.writeFileSync(path.join(home, '.pgpass'), 'db:5432:*:me:pg_secret\n');
    try {
      const ask = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${socket}'); s.sendall(b'action=get\\nhost=github.com\\n\\n'); print(s.recv(200))" 2>&1; cat ~/.pgpass`;
      const run = await runCommands({ env: { HOME: home }, commands: [ask] });
      expect(run.outputs[0]).not.toContain('hunter2');
      expect(run.outputs[0]).not.toContain('pg_secret');
      expect(asked).toBe(0);
      // The control: without the sandbox the same command gets the password.
      const open = await runCommands({ env: { HOME: home }, commands: [ask], sandbox: { mode: 'off' } });
      expect(open.outputs[0]).toContain('hunter2');
    } finally {
      daemon.close();
    }
  });

  // A database's socket trusts the runner's user (peer authentication). Made where the system puts it; root only.
  it.skipIf(process.getuid?.() !== 0)("hides a local database's socket (/run/postgresql), which trusts whoever connects as the user", async () => {
    const made = !fs.existsSync('/run/postgresql');
    if (made) fs.mkdirSync('/run/postgresql');
    const socket = `/run/postgresql/.s.PGSQL.${40000 + (process.pid % 20000)}`;
    let asked = 0;
    const daemon = net.createServer((c) => c.on('data', () => (asked++, c.end('rows: secret_row\n'))));
    await new Promise<void>((resolve) => daemon.listen(socket, resolve));
    try {
      const ask = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${socket}'); s.sendall(b'SELECT'); print(s.recv(200))" 2>&1`;
      const run = await runCommands({ commands: [ask] });
      expect(run.outputs[0]).not.toContain('secret_row');
      expect(asked).toBe(0);
      const open = await runCommands({ commands: [ask], sandbox: { mode: 'off' } });
      expect(open.outputs[0]).toContain('secret_row');
    } finally {
      daemon.close();
      fs.rmSync(socket, { force: true });
      if (made) fs.rmSync('/run/postgresql', { recursive: true, force: true });
    }
  });

  // What npm, yarn, gradle and the like read from there must look like no settings at all: bound to
  // /dev/null (a device, on a mount without devices) it read as 'Permission denied', which such a
  // tool may take for a broken setup and stop on.
  it('hidden credential files read as empty and cannot be written', async () => {
    const home = outsideDir();
    fs.writeFileSync(path.join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=npm_secret\n');
    const run = await runCommands({
      env: { HOME: home },
      commands: ['cat ~/.npmrc; echo "read exit $?"; test -f ~/.npmrc && test ! -s ~/.npmrc && echo "an empty file"; echo x >> ~/.npmrc; echo "write exit $?"'],
    });
    expect(run.outputs[0]).toMatch(/^Exit code: 0\nStdout:\nread exit 0\nan empty file\nwrite exit 1\nStderr:\n.*Read-only file system$/);
    expect(fs.readFileSync(path.join(home, '.npmrc'), 'utf8')).toBe('//registry.npmjs.org/:_authToken=npm_secret\n');
  });

  // Without capabilities root is still the owner of /etc/shadow; started by any other user this
  // holds without the sandbox's help (the file is unreadable to it anyway).
  it("hides the system's own secrets from a runner started as root", async () => {
    const run = await runCommands({ commands: ['cat /etc/shadow /etc/gshadow; echo "read exit $?"; id -u'] });
    expect(run.outputs[0]).toMatch(/read exit \d/);
    expect(run.outputs[0]).not.toMatch(/^root:/m);
  });

  it('hides them even when the workspace is the home directory itself', async () => {
    const home = outsideDir();
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.ssh/id_rsa'), 'PRIVATE KEY\n');
    const run = await runCommands({ env: { HOME: home }, workspace: home, commands: ['cat .ssh/id_rsa; echo key > .ssh/planted; echo "exit $?"'] });
    expect(run.outputs[0]).not.toContain('PRIVATE KEY');
    expect(run.outputs[0]).toMatch(/exit [1-9]/);
    expect(fs.existsSync(path.join(home, '.ssh/planted'))).toBe(false);
  });

  it('keeps .git/config and .git/hooks read-only, so a command cannot plant a hook or an fsmonitor', async () => {
    const dir = tempDir();
    const ws = path.join(dir, 'repo');
    fs.mkdirSync(ws);
    const { execa } = await import('execa');
    await execa('git', ['init', '-q'], { cwd: ws });
    const configBefore = fs.readFileSync(path.join(ws, '.git/config'), 'utf8');
    const run = await runCommands({
      workspace: ws,
      commands: [
        'git config core.fsmonitor "touch /tmp/pwned"; echo "config exit $?"',
        'printf "#!/bin/sh\\ntouch pwned\\n" > .git/hooks/pre-commit; echo "hook exit $?"',
        'echo tracked > file.txt && git add file.txt && echo "add ok"',
      ],
    });
    expect(fs.readFileSync(path.join(ws, '.git/config'), 'utf8')).toBe(configBefore);
    expect(fs.existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
    expect(run.outputs[0]).toMatch(/config exit [1-9]/);
    expect(run.outputs[1]).toMatch(/hook exit [1-9]/);
    // The rest of the repository stays usable.
    expect(run.outputs[2]).toContain('add ok');
  });

  it('a command cannot swap .git for a fresh one, or repoint a .git file', async () => {
    const ws = path.join(tempDir(), 'repo');
    fs.mkdirSync(ws);
    const { execa } = await import('execa');
    await execa('git', ['init', '-q'], { cwd: ws });
    const configBefore = fs.readFileSync(path.join(ws, '.git/config'), 'utf8');
    const run = await runCommands({
      workspace: ws,
      commands: [
        'mv .git .git-old; echo "mv exit $?"; rm -rf .git/hooks; echo "rm exit $?"; mv .git/config .git/config.bak; echo "mv config exit $?"',
        'git config core.fsmonitor "touch pwned"; echo "config exit $?"',
      ],
    });
    expect(run.outputs[0]).toMatch(/mv exit [1-9]/);
    expect(run.outputs[0]).toMatch(/rm exit [1-9]/);
    expect(run.outputs[0]).toMatch(/mv config exit [1-9]/);
    expect(run.outputs[1]).toMatch(/config exit [1-9]/);
    expect(fs.readFileSync(path.join(ws, '.git/config'), 'utf8')).toBe(configBefore);
    expect(fs.existsSync(path.join(ws, '.git-old'))).toBe(false);

    // A linked work tree: `.git` is a file naming the git directory.
    const linked = path.join(tempDir(), 'linked');
    fs.mkdirSync(linked);
    fs.writeFileSync(path.join(linked, '.git'), `gitdir: ${path.join(ws, '.git')}\n`);
    const second = await runCommands({ workspace: linked, commands: ['echo "gitdir: /tmp/evil" > .git; echo "exit $?"'] });
    expect(second.outputs[0]).toMatch(/exit [1-9]/);
    expect(fs.readFileSync(path.join(linked, '.git'), 'utf8')).toBe(`gitdir: ${path.join(ws, '.git')}\n`);
  });

  it('keeps the run output directory read-only when it lies inside the workspace', async () => {
    const ws = path.join(tempDir(), 'ws');
    const run = await runCommands({
      workspace: ws,
      out: path.join(ws, '.unattended/runs/r1'),
      commands: ['echo forged >> .unattended/runs/r1/transcript.jsonl; echo "exit $?"; echo x > inside.txt'],
    });
    expect(run.outputs[0]).toMatch(/exit [1-9]/);
    expect(fs.readFileSync(path.join(run.out, 'transcript.jsonl'), 'utf8').split('\n')).not.toContain('forged');
    expect(fs.existsSync(path.join(ws, 'inside.txt'))).toBe(true);
  });

  it('keeps the run output directory and the memory file read-only when they lie in a sandbox.writable directory', async () => {
    const scratch = outsideDir();
    const out = path.join(scratch, 'out');
    fs.writeFileSync(path.join(scratch, 'MEMORY.md'), '- a fact\n');
    const run = await runCommands({
      sandbox: { writable: [scratch] },
      out,
      extra: { memory: { file: path.join(scratch, 'MEMORY.md') } },
      commands: [`echo forged >> ${out}/transcript.jsonl; echo "exit $?"; echo '- planted' >> ${scratch}/MEMORY.md; echo "memory exit $?"; echo x > ${scratch}/scratch.txt && echo "scratch ok"`],
    });
    expect(run.outputs[0]).toMatch(/^exit [1-9]/m);
    expect(run.outputs[0]).toMatch(/memory exit [1-9]/);
    expect(run.outputs[0]).toContain('scratch ok');
    expect(fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8').split('\n')).not.toContain('forged');
    expect(fs.readFileSync(path.join(scratch, 'MEMORY.md'), 'utf8')).toBe('- a fact\n');
  });

  it("keeps unattended's cache directory read-only when the workspace holds it: the launcher runs its code cache as code", async () => {
    const ws = path.join(tempDir(), 'ws');
    const run = await runCommands({
      workspace: ws,
      env: { XDG_CACHE_HOME: path.join(ws, '.cache') },
      commands: ['mkdir -p .cache/unattended/code && echo planted > .cache/unattended/code/main-x.bin; echo "exit $?"; mkdir -p .cache/other && echo x > .cache/other/entry && echo "beside ok"'],
    });
    expect(run.outputs[0]).toMatch(/exit [1-9]/);
    expect(fs.existsSync(path.join(ws, '.cache/unattended/code/main-x.bin'))).toBe(false);
    expect(run.outputs[0]).toContain('beside ok');
  });

  it('sandbox.writable opens one more directory, sandbox.hide hides one more', async () => {
    const cache = outsideDir();
    const secret = outsideDir();
    fs.writeFileSync(path.join(secret, 'token'), 'TOPSECRET\n');
    const run = await runCommands({
      sandbox: { writable: [cache], hide: [secret] },
      commands: [`echo cached > ${cache}/entry && cat ${secret}/token; echo done`],
    });
    expect(fs.readFileSync(path.join(cache, 'entry'), 'utf8')).toBe('cached\n');
    expect(run.outputs[0]).not.toContain('TOPSECRET');
  });

  it('runs success check commands inside the sandbox too', async () => {
    const outside = outsideDir();
    const run = await runCommands({
      builtCli: true,
      commands: ['echo made > made.txt'],
      extra: { checks: { commands: [`echo x > ${outside}/escaped; test -f made.txt && kill -9 $PPID; echo "ppid $PPID"`] } },
    });
    expect(run.cli.code, run.cli.stderr).toBe(0);
    expect(fs.existsSync(path.join(outside, 'escaped'))).toBe(false);
    const check = run.events.find((e) => e.type === 'check' && e.name !== 'require_changes');
    expect(JSON.stringify(check)).toMatch(/Read-only file system/);
  });

  it('runs discovered tools inside the sandbox too', async () => {
    const outside = outsideDir();
    const dir = tempDir();
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'discover.sh'), `#!/bin/sh\necho '[{"name":"escape","description":"d","parameters":{"type":"object","properties":{}}}]'\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(ws, 'call.sh'), `#!/bin/sh\necho out > ${outside}/escaped; echo "write exit $?"; kill -9 $PPID; echo ppid=$PPID\n`, { mode: 0o755 });
    const run = await runCommands({
      builtCli: true,
      workspace: ws,
      tools: [],
      calls: [{ name: 'escape', args: {} }],
      commands: [],
      extra: { tool_discovery: { command: './discover.sh', call_command: './call.sh' } },
    });
    expect(run.cli.code).toBe(0);
    expect(fs.existsSync(path.join(outside, 'escaped'))).toBe(false);
    expect(run.outputs[0]).toMatch(/write exit [1-9]/);
    expect(run.outputs[0]).toContain('ppid=1');
  });
});

describe('the report never reads through a link a command left', () => {
  it('shows a replaced file as the link it now is, not the content outside it points to', async () => {
    const secretDir = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), 'unattended-secret-'));
    made.push(secretDir);
    fs.writeFileSync(path.join(secretDir, 'secret.txt'), 'THE-SECRET-CONTENT\n');
    fs.mkdirSync(path.join(secretDir, 'dir'));
    fs.writeFileSync(path.join(secretDir, 'dir', 'b.txt'), 'OTHER-SECRET\n');
    const run = await runCommands({
      // Unsandboxed too: the runner itself must not be the one that reads outside.
      sandbox: { mode: 'off' },
      tools: ['write_file', 'shell'],
      commands: [],
      calls: [
        { name: 'write_file', args: { file_path: 'a.txt', content: 'mine\n' } },
        { name: 'write_file', args: { file_path: 'sub/b.txt', content: 'mine too\n' } },
        { name: 'shell', args: { command: `ln -sf ${secretDir}/secret.txt a.txt && rm -r sub && ln -s ${secretDir}/dir sub` } },
      ],
    });
    const everything = JSON.stringify(run.report) + run.reportMd + JSON.stringify(run.events);
    expect(everything).not.toContain('THE-SECRET-CONTENT');
    expect(everything).not.toContain('OTHER-SECRET');
    expect(JSON.stringify(run.report.files_changed)).toContain('now a symbolic link to');
  });
});
