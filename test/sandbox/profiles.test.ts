// The two mechanisms' arguments, read as the promises they make: the bubblewrap argument list
// (mount order decides what wins) and the Seatbelt profile (later rules win), from one Containment.
import { describe, expect, it } from 'vitest';
import { bwrapArgs, parentsInPrivateMounts } from '../../src/sandbox/bwrap.js';
import { explainProbeFailure } from '../../src/sandbox/detect.js';
import { HostRules, splitAuthority } from '../../src/sandbox/hosts.js';
import { sbString, seatbeltProfile } from '../../src/sandbox/seatbelt.js';
import type { Containment } from '../../src/sandbox/spec.js';

const base: Containment = {
  workspace: '/home/u/repo',
  writable: ['/home/u/.cache/pip'],
  pinned: ['/home/u/repo/.git'],
  anchors: [],
  readable: ['/home/u/recipes'],
  readOnly: ['/home/u/repo/.git/config', '/home/u/repo/.git/hooks'],
  hiddenDirs: ['/home/u/.ssh', '/home/u/.aws'],
  hiddenFiles: ['/home/u/.npmrc'],
  network: 'none',
};

/** Index of `flag value...` in args, -1 when absent. */
function indexOf(args: string[], ...seq: string[]): number {
  for (let i = 0; i + seq.length <= args.length; i++) if (seq.every((s, j) => args[i + j] === s)) return i;
  return -1;
}

describe('bubblewrap arguments', () => {
  const args = bwrapArgs(base, { cwd: '/home/u/repo/src', proxyDir: null, emptyFile: '/e' });

  it('drops privilege first: own user namespace, no capabilities, no nested user namespaces', () => {
    expect(args.slice(0, 5)).toEqual(['--unshare-user', '--disable-userns', '--cap-drop', 'ALL', '--die-with-parent']);
    expect(bwrapArgs(base, { cwd: '/', proxyDir: null, emptyFile: '/e', hardening: ['--unshare-user', '--cap-drop', 'ALL'] }).slice(0, 3)).toEqual(['--unshare-user', '--cap-drop', 'ALL']);
  });

  it('isolates: own PID namespace, dies with the runner, new session, no network', () => {
    for (const flag of ['--unshare-pid', '--die-with-parent', '--new-session', '--unshare-net']) expect(args).toContain(flag);
    expect(bwrapArgs({ ...base, network: 'all' }, { cwd: '/', proxyDir: null, emptyFile: '/e' })).not.toContain('--unshare-net');
    expect(bwrapArgs({ ...base, network: 'proxy' }, { cwd: '/', proxyDir: '/tmp/p', emptyFile: '/e' })).toContain('--unshare-net');
  });

  it('mounts the system read-only first, then /tmp, the writable places, and last what stays read-only or hidden', () => {
    const root = indexOf(args, '--ro-bind', '/', '/');
    const tmp = indexOf(args, '--tmpfs', '/tmp');
    const ws = indexOf(args, '--bind', '/home/u/repo', '/home/u/repo');
    const extra = indexOf(args, '--bind', '/home/u/.cache/pip', '/home/u/.cache/pip');
    const pinned = indexOf(args, '--bind', '/home/u/repo/.git', '/home/u/repo/.git');
    const config = indexOf(args, '--ro-bind', '/home/u/repo/.git/config', '/home/u/repo/.git/config');
    const hooks = indexOf(args, '--ro-bind', '/home/u/repo/.git/hooks', '/home/u/repo/.git/hooks');
    const ssh = indexOf(args, '--tmpfs', '/home/u/.ssh', '--remount-ro', '/home/u/.ssh');
    const npmrc = indexOf(args, '--ro-bind', '/e', '/home/u/.npmrc');
    expect([root, tmp, ws, extra, config, hooks, ssh, npmrc].every((i) => i >= 0)).toBe(true);
    expect(root).toBeLessThan(tmp);
    expect(tmp).toBeLessThan(ws);
    expect(ws).toBeLessThan(pinned);
    expect(pinned).toBeLessThan(config);
    expect(Math.max(ws, extra)).toBeLessThan(Math.min(config, hooks, ssh, npmrc));
    expect(args.slice(-2)).toEqual(['--chdir', '/home/u/repo/src']);
  });

  it('makes the parents of a workspace under /tmp read-only in the private /tmp, before binding into them', () => {
    expect(parentsInPrivateMounts(['/tmp/a/b/ws', '/tmp/a/c', '/home/u/x', '/tmp/top'])).toEqual(['/tmp/a', '/tmp/a/b']);
    const under = bwrapArgs({ ...base, workspace: '/tmp/a/b/ws' }, { cwd: '/', proxyDir: null, emptyFile: '/e' });
    const parent = indexOf(under, '--perms', '0555', '--dir', '/tmp/a/b');
    expect(indexOf(under, '--perms', '0555', '--dir', '/tmp/a')).toBeGreaterThan(indexOf(under, '--tmpfs', '/tmp'));
    expect(parent).toBeGreaterThan(0);
    expect(parent).toBeLessThan(indexOf(under, '--bind', '/tmp/a/b/ws', '/tmp/a/b/ws'));
    // bwrap before 0.8 (the fallback hardening) may not know --perms: nothing is asked of it.
    expect(bwrapArgs({ ...base, workspace: '/tmp/a/b/ws' }, { cwd: '/', proxyDir: null, emptyFile: '/e', hardening: ['--unshare-user', '--cap-drop', 'ALL'] })).not.toContain('--perms');
  });

  it('does the same under /dev/shm, which the private /dev replaces: a write beside the workspace fails there too', () => {
    expect(parentsInPrivateMounts(['/dev/shm/ci/job/ws', '/dev/shm/top', '/dev/null', '/devx/a/b'])).toEqual(['/dev/shm/ci', '/dev/shm/ci/job']);
    const under = bwrapArgs({ ...base, workspace: '/dev/shm/ci/job/ws', readable: ['/dev/shm/ci/recipes'] }, { cwd: '/', proxyDir: null, emptyFile: '/e' });
    const parent = indexOf(under, '--perms', '0555', '--dir', '/dev/shm/ci/job');
    expect(indexOf(under, '--perms', '0555', '--dir', '/dev/shm/ci')).toBeGreaterThan(indexOf(under, '--dev', '/dev'));
    expect(parent).toBeGreaterThan(0);
    expect(parent).toBeLessThan(indexOf(under, '--bind', '/dev/shm/ci/job/ws', '/dev/shm/ci/job/ws'));
    // A recipe's directory there is shown, as under /tmp: the private /dev would hide it.
    expect(indexOf(under, '--ro-bind', '/dev/shm/ci/recipes', '/dev/shm/ci/recipes')).toBeGreaterThan(indexOf(under, '--dev', '/dev'));
  });

  it("shows a recipe's directory under /tmp read-only in the private /tmp, before a workspace inside it is bound writable", () => {
    const args = bwrapArgs({ ...base, readable: ['/tmp/r', '/home/u/recipes'], workspace: '/tmp/r/ws' }, { cwd: '/tmp/r', proxyDir: null, emptyFile: '/e' });
    const shown = indexOf(args, '--ro-bind', '/tmp/r', '/tmp/r');
    expect(shown).toBeGreaterThan(indexOf(args, '--tmpfs', '/tmp'));
    expect(shown).toBeLessThan(indexOf(args, '--bind', '/tmp/r/ws', '/tmp/r/ws'));
    // Outside /tmp the read-only root shows it already: no mount of its own.
    expect(indexOf(args, '--ro-bind', '/home/u/recipes', '/home/u/recipes')).toBe(-1);
  });

  it('binds the proxy socket directory read-only only when the network goes through the proxy', () => {
    expect(bwrapArgs({ ...base, network: 'proxy' }, { cwd: '/', proxyDir: '/tmp/unattended-net-1', emptyFile: '/e' }).join(' ')).toContain(
      '--ro-bind /tmp/unattended-net-1 /tmp/.unattended-proxy',
    );
    expect(args.join(' ')).not.toContain('.unattended-proxy');
  });
});

describe('Seatbelt profile', () => {
  const profile = seatbeltProfile(base, { tempDirs: ['/private/tmp', '/private/var/folders/xy/T'], proxyPort: null });

  it('denies by default, reads the system, and writes only the workspace, the extra paths and the temp dirs', () => {
    expect(profile).toMatch(/^\(version 1\)\n\(deny default\)\n/);
    expect(profile).toContain('(allow file-read*)');
    expect(profile).toContain(
      '(allow file-write* (subpath "/home/u/repo") (subpath "/home/u/.cache/pip") (subpath "/private/tmp") (subpath "/private/var/folders/xy/T"))',
    );
  });

  it('hides credentials and keeps .git/config and hooks read-only, after the allowances (later rules win)', () => {
    const lines = profile.split('\n');
    const allowWrite = lines.findIndex((l) => l.startsWith('(allow file-write* (subpath'));
    const hide = lines.findIndex((l) => l === '(deny file-read* file-write* (subpath "/home/u/.ssh") (subpath "/home/u/.aws") (literal "/home/u/.npmrc"))');
    const readOnly = lines.findIndex((l) => l === '(deny file-write* (subpath "/home/u/repo/.git/config") (subpath "/home/u/repo/.git/hooks"))');
    expect(hide).toBeGreaterThan(allowWrite);
    expect(readOnly).toBeGreaterThan(allowWrite);
  });

  it('pins .git: the directory entry cannot be written (renamed, removed), only what is inside it', () => {
    expect(profile).toContain('(deny file-write* (literal "/home/u/repo/.git"))');
  });

  it('signals only its own processes', () => {
    expect(profile).toContain('(allow signal (target same-sandbox))');
    expect(profile).not.toMatch(/\(allow signal\)/);
  });

  it('network: none has no outbound rule, proxy allows exactly the proxy port, all allows everything', () => {
    expect(profile).not.toMatch(/network-outbound|\(allow network\*\)/);
    const proxied = seatbeltProfile({ ...base, network: 'proxy' }, { tempDirs: [], proxyPort: 41234 });
    expect(proxied).toContain('(allow network-outbound (remote ip "localhost:41234"))');
    expect(proxied.match(/network-outbound/g)).toHaveLength(1);
    expect(seatbeltProfile({ ...base, network: 'all' }, { tempDirs: [], proxyPort: null })).toContain('(allow network*)');
  });

  it('quotes paths so that a workspace name cannot end the string and add rules', () => {
    expect(sbString('/w/a"b\\c')).toBe('"/w/a\\"b\\\\c"');
    const evil = seatbeltProfile({ ...base, workspace: '/w/x") (allow default) ("' }, { tempDirs: [], proxyPort: null });
    expect(evil).not.toMatch(/^\(allow default\)/m);
    expect(evil).toContain('(subpath "/w/x\\") (allow default) (\\"")');
    expect(() => sbString('/w/a\nb')).toThrow(/control characters/);
  });
});

describe('network host rules', () => {
  const rules = new HostRules(['registry.npmjs.org', '*.github.com', '10.0.0.5', '[::1]']);

  it('matches names exactly and wildcards only below their domain', () => {
    expect(rules.allows('registry.npmjs.org')).toBe(true);
    expect(rules.allows('REGISTRY.npmjs.org.')).toBe(true);
    expect(rules.allows('evil-registry.npmjs.org')).toBe(false);
    expect(rules.allows('registry.npmjs.org.evil.com')).toBe(false);
    expect(rules.allows('api.github.com')).toBe(true);
    expect(rules.allows('a.b.github.com')).toBe(true);
    expect(rules.allows('github.com')).toBe(false);
    expect(rules.allows('evilgithub.com')).toBe(false);
    expect(rules.allows('10.0.0.5')).toBe(true);
    expect(rules.allows('10.0.0.6')).toBe(false);
    expect(rules.allows('::1')).toBe(true);
    expect(rules.allows('')).toBe(false);
  });

  it('reads CONNECT authorities, IPv6 included, and refuses malformed ones', () => {
    expect(splitAuthority('api.github.com:443')).toEqual({ host: 'api.github.com', port: 443 });
    expect(splitAuthority('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(splitAuthority('api.github.com')).toBeNull();
    expect(splitAuthority('a:99999')).toBeNull();
    expect(splitAuthority('a:b:443')).toBeNull();
  });
});

describe('probe failures', () => {
  it('names the AppArmor restriction and its fix for the Ubuntu 24.04 error', () => {
    const why = explainProbeFailure('bwrap: setting up uid map: Permission denied\n', 1);
    expect(why).toContain('setting up uid map: Permission denied');
    expect(why).toContain('kernel.apparmor_restrict_unprivileged_userns=0');
  });

  it('passes other errors on as they are', () => {
    expect(explainProbeFailure('bwrap: Can\'t mount proc on /newroot/proc: Operation not supported', 1)).toMatch(/^bwrap cannot create a sandbox here \(bwrap: Can't mount proc/);
    expect(explainProbeFailure('', 1)).toBe('bwrap cannot create a sandbox here (exit status 1)');
  });
});
