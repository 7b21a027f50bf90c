// Credentials inside the workspace (google-github-actions/auth's gha-creds-*.json, which
// GOOGLE_APPLICATION_CREDENTIALS names; a gcloud config directory; a workspace that is a home
// directory) are kept from the file tools, which run outside the sandbox: no tool reads, searches
// or changes them, and each says why instead of "nothing found".
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { openToolsWorkspace } from '../../src/sandbox/credentials-inside.js';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import type { ToolContext } from '../../src/tools/context.js';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

const CREDS = 'gha-creds-1a2b3c.json';

function setup(env: (root: string) => NodeJS.ProcessEnv, hide: (root: string) => string[] = () => []) {
  const ws = makeWorkspace({
    [CREDS]: '{"type": "external_account", "private_key": "KEY-SECRET-123"}\n',
    'gcloud/credentials.db': 'private_key KEY-SECRET-456\n',
    'src/app.ts': 'const field = "private_key";\n',
    'notes.json': '{"private_key": null}\n',
  });
  const ctx: ToolContext = { ...ws.ctx, workspace: openToolsWorkspace(ws.root, env(ws.root), hide(ws.root)) };
  const tool = (name: string, extra: Partial<ToolContext> = {}) => createBuiltinTools({ ...ctx, ...extra }, [name])[0]!;
  return { ws, tool };
}

const gcloud = (root: string) => ({ GOOGLE_APPLICATION_CREDENTIALS: path.join(root, CREDS), CLOUDSDK_CONFIG: path.join(root, 'gcloud') });

describe('credentials inside the workspace', () => {
  it('read_file refuses the file and what a link to it leads to, naming the variable', async () => {
    const { ws, tool } = setup(gcloud);
    fs.symlinkSync(CREDS, path.join(ws.root, 'innocent.json'));
    for (const file of [CREDS, 'innocent.json', 'gcloud/credentials.db', path.join(ws.root, CREDS)]) {
      const result = await call(tool('read_file'), { absolute_path: path.isAbsolute(file) ? file : path.join(ws.root, file) });
      expect(result.error?.message, file).toContain('credentials');
      expect(text(result)).not.toContain('KEY-SECRET');
    }
    const direct = await call(tool('read_file'), { absolute_path: path.join(ws.root, CREDS) });
    expect(direct.error?.message).toContain(`'${CREDS}' holds credentials (GOOGLE_APPLICATION_CREDENTIALS names it)`);
    const inDir = await call(tool('read_file'), { absolute_path: path.join(ws.root, 'gcloud/credentials.db') });
    expect(inDir.error?.message).toContain("is in 'gcloud', which holds credentials (CLOUDSDK_CONFIG names it)");
    // Everything else reads as before.
    expect(text(await call(tool('read_file'), { absolute_path: path.join(ws.root, 'src/app.ts') }))).toContain('private_key');
  });

  it.each(['javascript', 'ripgrep'] as const)('grep (%s) never shows them and says they were not searched', async (engine) => {
    if (engine === 'ripgrep' && !findRipgrep(process.env.PATH)) return;
    const { tool } = setup(gcloud);
    const result = text(await call(tool('grep', { grepEngine: engine === 'javascript' ? 'javascript' : undefined }), { pattern: 'private_key' }));
    expect(result).not.toContain('KEY-SECRET');
    expect(result).toContain('src/app.ts');
    expect(result).toContain('notes.json');
    expect(result).toContain(`[2 paths could not be read: credentials, kept from the tools: gcloud/credentials.db, ${CREDS}]`);
    // Searching for the secret itself finds nothing, and does not say there is nothing.
    const secret = text(await call(tool('grep', { grepEngine: engine === 'javascript' ? 'javascript' : undefined }), { pattern: 'KEY-SECRET' }));
    expect(secret).toMatch(/^No matches/);
    expect(secret).toContain('credentials, kept from the tools');
    // Named as the path, grep refuses like read_file.
    expect((await call(tool('grep'), { pattern: 'KEY', path: 'gcloud' })).error?.message).toContain('holds credentials');
  });

  it('read_many_files leaves them out of a glob with a note', async () => {
    const { tool } = setup(gcloud);
    const result = text(await call(tool('read_many_files'), { paths: ['**/*'] }));
    expect(result).not.toContain('KEY-SECRET');
    expect(result).toContain('const field');
    expect(result).toContain('credentials, kept from the tools');
    expect((await call(tool('read_many_files'), { paths: ['src/app.ts', CREDS] })).error?.message).toContain('holds credentials');
  });

  it('edit and write_file leave them as they are', async () => {
    const { ws, tool } = setup(gcloud);
    const before = ws.read(CREDS);
    expect((await call(tool('write_file'), { file_path: path.join(ws.root, CREDS), content: '{}' })).error?.message).toContain('holds credentials');
    expect((await call(tool('edit'), { file_path: path.join(ws.root, CREDS), old_string: 'external_account', new_string: 'x' })).error?.message).toContain('holds credentials');
    expect((await call(tool('write_file'), { file_path: path.join(ws.root, 'gcloud/new.json'), content: '{}' })).error?.message).toContain('holds credentials');
    expect(ws.read(CREDS)).toBe(before);
    expect(fs.existsSync(path.join(ws.root, 'gcloud/new.json'))).toBe(false);
  });

  it("keeps the home directory's credential paths when the workspace is the home, and sandbox.hide's", async () => {
    const { ws, tool } = setup((root) => ({ HOME: root }), (root) => [path.join(root, 'notes.json')]);
    ws.write('.aws/credentials', 'aws_secret_access_key = KEY-SECRET-789\n');
    const aws = await call(tool('read_file'), { absolute_path: path.join(ws.root, '.aws/credentials') });
    expect(aws.error?.message).toContain("'~/.aws' is where credentials are kept");
    expect((await call(tool('read_file'), { absolute_path: path.join(ws.root, 'notes.json') })).error?.message).toContain("sandbox.hide names it");
    expect(text(await call(tool('grep', { grepEngine: 'javascript' }), { pattern: 'KEY-SECRET' }))).toContain('.aws/credentials');
    // Only what the list names: the gha file is no credential here.
    expect(text(await call(tool('read_file'), { absolute_path: path.join(ws.root, CREDS) }))).toContain('KEY-SECRET-123');
  });

  it('a variable naming the workspace itself, or a path outside it, keeps nothing from the tools', async () => {
    const { ws, tool } = setup((root) => ({ CLOUDSDK_CONFIG: root, GOOGLE_APPLICATION_CREDENTIALS: path.join(path.dirname(root), 'outside', 'secret.txt') }));
    expect(text(await call(tool('read_file'), { absolute_path: path.join(ws.root, CREDS) }))).toContain('KEY-SECRET-123');
    expect(text(await call(tool('grep'), { pattern: 'KEY-SECRET' }))).toContain(CREDS);
    expect(ws.root).toBeTruthy();
  });
});
