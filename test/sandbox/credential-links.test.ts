// A hard link to a credential file, made in the workspace (or a sandbox.writable directory) before
// the run: the sandbox hid ~/.aws/credentials by its path, so `cat notes.txt` through the other
// name printed the secret. Its other names are hidden as the credential is, and a warning names each.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { credentialLinks } from '../../src/sandbox/credential-links.js';
import { credentialFiles } from '../../src/sandbox/credentials-inside.js';
import { bwrapWorks, outsideDir, removeOutsideDirs, runCommands } from './harness.js';

afterAll(() => {
  removeTempDirs();
  removeOutsideDirs();
});

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** A home directory with credentials in the usual places and in one the recipe's sandbox.hide names. */
function homeWithCredentials(dir: string) {
  const home = path.join(dir, 'home');
  return {
    home,
    aws: write(path.join(home, '.aws/credentials'), '[default]\naws_secret_access_key = AWS-SECRET\n'),
    ssh: write(path.join(home, '.ssh/id_ed25519'), 'SSH-PRIVATE-KEY\n'),
    mine: write(path.join(home, 'private/token'), 'RECIPE-HIDDEN-SECRET\n'),
  };
}

describe.skipIf(!bwrapWorks)('a hard link to a credential file, there before the run', () => {
  it('reads as empty to sandboxed commands wherever they may write, with a warning naming it; other files stay readable', async () => {
    const dir = tempDir();
    const { home, aws, ssh, mine } = homeWithCredentials(dir);
    const ws = path.join(dir, 'ws');
    const cache = path.join(dir, 'cache');
    fs.mkdirSync(path.join(ws, 'deep/a/b/c'), { recursive: true });
    fs.mkdirSync(cache);
    fs.linkSync(aws, path.join(ws, 'notes.txt'));
    fs.linkSync(ssh, path.join(ws, 'deep/a/b/c/key.txt'));
    fs.linkSync(mine, path.join(cache, 'token.txt'));
    // A file with two names that holds no credentials is an ordinary file.
    write(path.join(ws, 'plain.txt'), 'visible\n');
    fs.linkSync(path.join(ws, 'plain.txt'), path.join(ws, 'plain-too.txt'));
    const run = await runCommands({
      workspace: ws,
      env: { HOME: home },
      sandbox: { mode: 'required', writable: [cache], hide: ['~/private'] },
      commands: [`cat notes.txt deep/a/b/c/key.txt ${cache}/token.txt; echo "exit $?"; cat plain-too.txt; echo x > notes.txt; echo "write exit $?"`],
    });
    expect(run.cli.code).toBe(0);
    const out = run.outputs[0]!;
    for (const secret of ['AWS-SECRET', 'SSH-PRIVATE-KEY', 'RECIPE-HIDDEN-SECRET']) expect(out).not.toContain(secret);
    expect(out).toContain('exit 0');
    expect(out).toContain('visible');
    expect(out).toMatch(/write exit [1-9]/);
    // Each other name is named, with the file it is another name of.
    const warnings = run.report.warnings as string[];
    expect(warnings.find((w) => w.includes("'notes.txt'"))).toMatch(/hard link.*\.aws\/credentials/);
    expect(warnings.find((w) => w.includes("'deep/a/b/c/key.txt'"))).toMatch(/hard link.*\.ssh\/id_ed25519/);
    expect(warnings.find((w) => w.includes(`'${cache}/token.txt'`))).toMatch(/hard link.*private\/token/);
    expect(warnings.some((w) => w.includes('plain'))).toBe(false);
    expect(run.events.some((e) => e.type === 'warning' && String(e.message).includes("'notes.txt'"))).toBe(true);
    // Outside the sandbox the files are as they were.
    expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toContain('AWS-SECRET');
  });
});

// A directory the sandbox hides on every machine where the runner may read it (root's): a key
// made there for the case, linked into the workspace, then removed.
const sslPrivate = '/etc/ssl/private';
const canUseSslPrivate = bwrapWorks && process.getuid?.() === 0 && fs.existsSync(sslPrivate);

describe.skipIf(!canUseSslPrivate)("a hard link to a file in a directory the sandbox hides (root's /etc/ssl/private)", () => {
  it('reads as empty to commands and is refused to read_file, with a warning naming it', async () => {
    // On the root file system with /etc (a hard link cannot cross file systems; the temp dirs are in memory).
    const ws = path.join(outsideDir(), 'ws');
    fs.mkdirSync(ws);
    const key = path.join(sslPrivate, `unattended-test-${process.pid}-${Date.now()}.key`);
    fs.writeFileSync(key, 'SSL-PRIVATE-KEY\n');
    try {
      fs.linkSync(key, path.join(ws, 'notes.txt'));
      const run = await runCommands({
        workspace: ws,
        sandbox: { mode: 'required' },
        tools: ['shell', 'read_file'],
        commands: [],
        calls: [
          { name: 'shell', args: { command: 'cat notes.txt; echo "exit $?"' } },
          { name: 'read_file', args: { absolute_path: path.join(ws, 'notes.txt') } },
        ],
      });
      expect(run.cli.code).toBe(0);
      expect(run.outputs.join('\n')).not.toContain('SSL-PRIVATE-KEY');
      expect(run.outputs[0]).toContain('exit 0');
      expect(run.outputs[1]).toMatch(/another name \(a hard link\) of .*unattended-test.*holds credentials/);
      expect((run.report.warnings as string[]).some((w) => w.includes("'notes.txt'") && w.includes(key))).toBe(true);
    } finally {
      fs.rmSync(key, { force: true });
    }
  });
});

describe('looking for the other names of credential files', () => {
  it('walks nothing and says nothing when no credential file has another name', () => {
    const dir = tempDir();
    const { home } = homeWithCredentials(dir);
    const ws = path.join(dir, 'ws');
    write(path.join(ws, 'a.txt'), 'a\n');
    fs.linkSync(path.join(ws, 'a.txt'), path.join(ws, 'b.txt'));
    expect(credentialLinks({ workspace: ws, roots: [ws], env: { HOME: home }, hide: [], hidden: [] })).toEqual({ files: [], warnings: [] });
  });

  it("finds the other names of every file the sandbox hides by its path, not only the home's credentials (root's /etc/shadow, say)", () => {
    const dir = tempDir();
    const { home } = homeWithCredentials(dir);
    const secret = write(path.join(dir, 'system/shadow'), 'root:HASH\n');
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    fs.linkSync(secret, path.join(ws, 'copy'));
    const found = credentialLinks({ workspace: ws, roots: [ws], env: { HOME: home }, hide: [], hidden: [secret] });
    expect(found.files).toEqual([path.join(ws, 'copy')]);
    expect(found.warnings[0]).toContain(`'copy' in the workspace is another name (a hard link) of '${secret}'`);
  });

  it('finds the other names of the files in a directory the sandbox hides by its path (/run/secrets, /etc/ssl/private)', () => {
    const dir = tempDir();
    const { home } = homeWithCredentials(dir);
    const secrets = path.join(dir, 'run/secrets');
    const token = write(path.join(secrets, 'deploy/token'), 'DEPLOY-TOKEN\n');
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    fs.linkSync(token, path.join(ws, 'notes.txt'));
    const found = credentialLinks({ workspace: ws, roots: [ws], env: { HOME: home }, hide: [], hidden: [secrets] });
    expect(found.files).toEqual([path.join(ws, 'notes.txt')]);
    expect(found.warnings[0]).toContain(`'notes.txt' in the workspace is another name (a hard link) of '${token}'`);
    // The file tools know it by its identity too.
    const stat = fs.statSync(token, { bigint: true });
    expect(credentialFiles(ws, { HOME: home }, [], [secrets]).files.get(`${stat.dev}:${stat.ino}`)?.why).toBe('the sandbox hides it');
  });

  it('says so when its bound stops it before every other name is found', () => {
    const dir = tempDir();
    const { home, aws } = homeWithCredentials(dir);
    const ws = path.join(dir, 'ws');
    for (let i = 0; i < 20; i++) write(path.join(ws, `d${i}`, 'f.txt'), 'x\n');
    fs.linkSync(aws, path.join(ws, 'd19', 'g.txt'));
    const found = credentialLinks({ workspace: ws, roots: [ws], env: { HOME: home }, hide: [], hidden: [], maxEntries: 10 });
    expect(found.files).toEqual([]);
    expect(found.warnings).toHaveLength(1);
    expect(found.warnings[0]).toMatch(/\.aws\/credentials' has another name \(a hard link\) not found in the first 10 entries.*readable by sandboxed commands/);
  });

  it('stops once every other name is found, and skips what is hidden already', () => {
    const dir = tempDir();
    const { home, aws } = homeWithCredentials(dir);
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    fs.linkSync(aws, path.join(ws, 'top.txt'));
    for (let i = 0; i < 20; i++) write(path.join(ws, `d${i}`, 'f.txt'), 'x\n');
    const found = credentialLinks({ workspace: ws, roots: [ws], env: { HOME: home }, hide: [], hidden: [], maxEntries: 25 });
    expect(found.files).toEqual([path.join(ws, 'top.txt')]);
    expect(found.warnings.some((w) => w.includes('not found in the first'))).toBe(false);
  });
});
