// Sandbox.command(argv, opts): what every spawner (shell, discovered tools, MCP, check commands)
// spawns instead of argv. The mechanism is injected, so this runs anywhere; the e2e tests run it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX, type SandboxSettings } from '../../src/recipe/types.js';
import { Sandbox, SandboxUnavailableError } from '../../src/sandbox/sandbox.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function temp(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-sbx-cmd-')));
  dirs.push(dir);
  return dir;
}

const bwrap = () => ({ kind: 'bwrap' as const, program: '/usr/bin/bwrap' });
const seatbelt = () => ({ kind: 'seatbelt' as const, program: '/usr/bin/sandbox-exec' });
const nothing = () => ({ kind: null, reason: 'bubblewrap (bwrap) is not installed' });
const settings = (over: Partial<SandboxSettings> = {}): SandboxSettings => ({ ...DEFAULT_SANDBOX, ...over });

describe('Sandbox.command', () => {
  it('wraps argv in bwrap, in the workspace, with a private TMPDIR; the argv itself is unchanged after --', async () => {
    const ws = temp();
    const sandbox = await Sandbox.open(settings(), { workspace: ws, outDir: null, env: { HOME: temp() }, detect: bwrap, inheritedFds: [] });
    const spec = sandbox.command(['bash', '-c', 'echo "$1"', 'x'], { cwd: path.join(ws), env: { PATH: '/usr/bin', TMPDIR: '/var/tmp/me' } });
    expect(spec.file).toBe('/usr/bin/bwrap');
    // First a shell that makes the sandbox the OOM killer's first choice, then argv as it was.
    const inner = spec.args.slice(spec.args.indexOf('--') + 1);
    expect(inner.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(inner[2]).toContain('echo 1000 > /proc/self/oom_score_adj');
    expect(inner.slice(3)).toEqual(['sh', 'bash', '-c', 'echo "$1"', 'x']);
    expect(spec.args.join(' ')).toContain(`--bind ${ws} ${ws}`);
    expect(spec.env).toEqual({ PATH: '/usr/bin', TMPDIR: '/tmp' });
    expect(sandbox.status).toEqual({ mode: 'auto', kind: 'bwrap', reason: null, network: false });
    await sandbox.close();
  });

  it("hides the home directory's credentials that exist, and ~/ paths of sandbox.hide and writable", async () => {
    const home = temp();
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.netrc'), 'x');
    fs.mkdirSync(path.join(home, 'private'));
    fs.mkdirSync(path.join(home, '.cache'));
    const sandbox = await Sandbox.open(settings({ hide: ['~/private'], writable: ['~/.cache', '~/missing'] }), { workspace: temp(), outDir: null, env: { HOME: home }, detect: bwrap });
    const args = sandbox.command(['true'], { cwd: '/', env: {} }).args.join(' ');
    expect(args).toContain(`--tmpfs ${home}/.ssh --remount-ro ${home}/.ssh`);
    // An empty regular file the sandbox made, not /dev/null (a device reads as 'Permission denied' there).
    expect(args).toMatch(new RegExp(`--ro-bind (/\\S+/unattended-empty-\\w+/empty) ${home}/\\.netrc`));
    const empty = args.match(/--ro-bind (\S+) \S+\.netrc/)![1]!;
    expect(fs.statSync(empty).size).toBe(0);
    await sandbox.close();
    expect(fs.existsSync(empty)).toBe(false);
    expect(args).toContain(`--tmpfs ${home}/private --remount-ro ${home}/private`);
    expect(args).toContain(`--bind ${home}/.cache ${home}/.cache`);
    expect(args).not.toContain('.aws');
    expect(sandbox.notes).toEqual([`sandbox.writable: '${home}/missing' does not exist; left out`]);
  });

  it('does not hide a path twice: one inside a hidden directory is left to it (bwrap could not mount there)', async () => {
    const home = temp();
    fs.mkdirSync(path.join(home, '.config/pip'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config/pip/pip.conf'), 'x');
    fs.mkdirSync(path.join(home, '.config/gh'), { recursive: true });
    const sandbox = await Sandbox.open(settings({ hide: ['~/.config'] }), { workspace: temp(), outDir: null, env: { HOME: home }, detect: bwrap });
    const args = sandbox.command(['true'], { cwd: '/', env: {} }).args.join(' ');
    expect(args).toContain(`--tmpfs ${home}/.config --remount-ro ${home}/.config`);
    expect(args).not.toContain(`${home}/.config/pip`);
    expect(args).not.toContain(`${home}/.config/gh`);
  });

  it('holds .git/config and hooks read-only, creating a missing hooks directory so that it can be', async () => {
    const ws = temp();
    fs.mkdirSync(path.join(ws, '.git'));
    fs.writeFileSync(path.join(ws, '.git/config'), '[core]\n');
    const sandbox = await Sandbox.open(settings(), { workspace: ws, outDir: path.join(ws, '.unattended/runs/r'), env: {}, detect: bwrap });
    fs.mkdirSync(path.join(ws, '.unattended/runs/r'), { recursive: true });
    const args = sandbox.command(['true'], { cwd: ws, env: {} }).args.join(' ');
    expect(fs.statSync(path.join(ws, '.git/hooks')).isDirectory()).toBe(true);
    expect(args).toContain(`--ro-bind ${ws}/.git/config ${ws}/.git/config`);
    expect(args).toContain(`--ro-bind ${ws}/.git/hooks ${ws}/.git/hooks`);
  });

  it('creates and mounts nothing through a .git that links out of the workspace; one that links inside is guarded where it lies', async () => {
    const ws = temp();
    const elsewhere = path.join(temp(), 'git');
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, 'config'), '[core]\n');
    fs.symlinkSync(elsewhere, path.join(ws, '.git'));
    const out = await Sandbox.open(settings(), { workspace: ws, outDir: null, env: {}, detect: bwrap });
    const args = out.command(['true'], { cwd: ws, env: {} }).args.join(' ');
    expect(fs.existsSync(path.join(elsewhere, 'hooks'))).toBe(false);
    // bwrap cannot mount onto a link that leads out of its view: every command would fail.
    expect(args).not.toContain('.git');
    expect(args).not.toContain(elsewhere);

    const inside = temp();
    fs.mkdirSync(path.join(inside, 'real-git'));
    fs.writeFileSync(path.join(inside, 'real-git/config'), '[core]\n');
    fs.symlinkSync(elsewhere, path.join(inside, 'real-git/hooks'));
    fs.symlinkSync('real-git', path.join(inside, '.git'));
    const linked = await Sandbox.open(settings(), { workspace: inside, outDir: null, env: {}, detect: bwrap });
    const linkedArgs = linked.command(['true'], { cwd: inside, env: {} }).args.join(' ');
    expect(linkedArgs).toContain(`--bind ${inside}/real-git ${inside}/real-git`);
    expect(linkedArgs).toContain(`--ro-bind ${inside}/real-git/config ${inside}/real-git/config`);
    // Its hooks link out of the workspace: neither mounted nor made there.
    expect(linkedArgs).not.toContain('hooks');
    expect(fs.existsSync(path.join(elsewhere, 'hooks'))).toBe(false);
  });

  it("keeps the run's own files in the workspace read-only: the recipe, the memory file, the outputs", async () => {
    const ws = temp();
    fs.writeFileSync(path.join(ws, 'recipe.yaml'), 'version: 1\n');
    fs.writeFileSync(path.join(ws, 'MEMORY.md'), '- a fact\n');
    const outside = path.join(temp(), 'recipe.yaml');
    fs.writeFileSync(outside, 'version: 1\n');
    const sandbox = await Sandbox.open(settings(), {
      workspace: ws,
      outDir: null,
      protectedFiles: [path.join(ws, 'recipe.yaml'), path.join(ws, 'MEMORY.md'), outside, path.join(ws, 'not-yet.md')],
      env: {},
      detect: bwrap,
    });
    const args = sandbox.command(['true'], { cwd: ws, env: {} }).args.join(' ');
    expect(args).toContain(`--ro-bind ${ws}/recipe.yaml ${ws}/recipe.yaml`);
    expect(args).toContain(`--ro-bind ${ws}/MEMORY.md ${ws}/MEMORY.md`);
    expect(args).not.toContain(outside);
    expect(args).not.toContain('not-yet.md');
  });

  it("closes the runner's inherited descriptors inside, before the program (and before the forwarder)", async () => {
    for (const network of [false, ['registry.npmjs.org']]) {
      const sandbox = await Sandbox.open(settings({ network }), { workspace: temp(), outDir: null, env: {}, detect: bwrap, inheritedFds: [20, 200] });
      const spec = sandbox.command(['npm', 'ci'], { cwd: '/', env: {} });
      // After the OOM-score sh (the first thing inside), before anything else.
      const inner = spec.args.slice(spec.args.indexOf('--') + 1);
      expect(inner.slice(0, 4)).toEqual(['/bin/sh', '-c', '{ echo 1000 > /proc/self/oom_score_adj; } 2>/dev/null; exec "$@"', 'sh']);
      expect(inner.slice(4, 10)).toEqual(['bash', '--norc', '--noprofile', '-c', 'exec 20<&- 200<&-; exec "$@"', 'unattended-close-fds']);
      expect(inner.slice(-2)).toEqual(['npm', 'ci']);
      await sandbox.close();
    }
  });

  it('with a host list, starts the proxy and runs argv behind the in-sandbox forwarder with proxy variables', async () => {
    const sandbox = await Sandbox.open(settings({ network: ['registry.npmjs.org'] }), { workspace: temp(), outDir: null, env: {}, detect: bwrap, inheritedFds: [] });
    try {
      const spec = sandbox.command(['npm', 'ci'], { cwd: '/', env: {} });
      const inner = spec.args.slice(spec.args.indexOf('--') + 5);
      expect(inner[0]).toBe(process.execPath);
      expect(inner[1]).toBe('-e');
      expect(inner.slice(3)).toEqual(['/tmp/.unattended-proxy/proxy.sock', '3128', 'npm', 'ci']);
      expect(spec.env).toMatchObject({ HTTPS_PROXY: 'http://127.0.0.1:3128', http_proxy: 'http://127.0.0.1:3128', NO_PROXY: '' });
      expect(spec.args).toContain('--unshare-net');
    } finally {
      await sandbox.close();
    }
  });

  it('on macOS: sandbox-exec with the generated profile, the proxy on a loopback port', async () => {
    const sandbox = await Sandbox.open(settings({ network: ['example.org'] }), { workspace: '/Users/u/ws', outDir: null, env: {}, detect: seatbelt });
    try {
      const spec = sandbox.command(['make', 'test'], { cwd: '/Users/u/ws', env: { TMPDIR: '/var/folders/x/T/' } });
      expect(spec.file).toBe('/usr/bin/sandbox-exec');
      expect(spec.args[0]).toBe('-p');
      expect(spec.args.slice(2)).toEqual(['--', 'make', 'test']);
      const port = Number(/localhost:(\d+)/.exec(spec.args[1]!)![1]);
      expect(port).toBeGreaterThan(0);
      expect(spec.env.HTTPS_PROXY).toBe(`http://127.0.0.1:${port}`);
      expect(spec.args[1]).toContain('(subpath "/var/folders/x/T")');
    } finally {
      await sandbox.close();
    }
  });

  it('auto without a mechanism, or off: argv runs as it is, and the status says why', async () => {
    for (const [over, reason] of [
      [{}, 'bubblewrap (bwrap) is not installed'],
      [{ mode: 'off' as const }, 'sandbox.mode is off'],
    ] as const) {
      const sandbox = await Sandbox.open(settings(over), { workspace: temp(), outDir: null, env: {}, detect: nothing });
      expect(sandbox.command(['ls', '-l'], { cwd: '/', env: { A: '1' } })).toEqual({ file: 'ls', args: ['-l'], env: { A: '1' } });
      expect(sandbox.status).toMatchObject({ kind: null, reason });
    }
  });

  it('required without a mechanism: a configuration error (exit 52) naming the reason and the way out', async () => {
    const open = Sandbox.open(settings({ mode: 'required' }), { workspace: temp(), outDir: null, env: {}, detect: nothing });
    await expect(open).rejects.toBeInstanceOf(SandboxUnavailableError);
    await expect(open).rejects.toMatchObject({ exitCode: 52, message: expect.stringMatching(/required.*bwrap\) is not installed/) });
  });

  it('required where bwrap is installed but refused (AppArmor): the way out does not say to install it', async () => {
    const refused = () => ({ kind: null, reason: 'bubblewrap cannot create a user namespace here (AppArmor restricts unprivileged user namespaces): allow it with sysctl kernel.apparmor_restrict_unprivileged_userns=0' });
    const open = Sandbox.open(settings({ mode: 'required' }), { workspace: temp(), outDir: null, env: {}, detect: refused });
    await expect(open).rejects.toMatchObject({ exitCode: 52, hint: expect.not.stringMatching(/install/) });
    await expect(open).rejects.toMatchObject({ hint: expect.stringContaining('set sandbox.mode: auto to run without one') });
  });
});
