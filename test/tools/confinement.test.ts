// Every path-taking tool, against every way out of the workspace: refused, nothing touched.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, cleanupAll, makeWorkspace, type TempWorkspace } from './helpers.js';

// Built at collection time: the tables below name its paths.
const ws: TempWorkspace = makeWorkspace({ 'src/a.ts': 'export const a = 1;\n' });
const outside = path.join(path.dirname(ws.root), 'outside');
// A sibling whose name starts with the workspace's: a prefix compare would let it in.
const sibling = `${ws.root}-evil`;
fs.mkdirSync(sibling);
fs.writeFileSync(path.join(sibling, 'x.txt'), 'evil\n');
fs.symlinkSync(outside, path.join(ws.root, 'link-out'));
fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws.root, 'secret-link.txt'));
fs.symlinkSync(path.join(outside, 'not-yet'), path.join(ws.root, 'dangling'));
afterAll(() => {
  fs.rmSync(sibling, { recursive: true, force: true });
  cleanupAll();
});

/** Each escape, as a relative and an absolute spelling where both make sense. */
const escapes = () => [
  { name: 'dot-dot', rel: '../outside/secret.txt' },
  { name: 'absolute outside', rel: path.join(outside, 'secret.txt') },
  { name: 'symlinked dir pointing outside', rel: 'link-out/secret.txt' },
  { name: 'symlinked file pointing outside', rel: 'secret-link.txt' },
  { name: 'new file under a symlinked parent', rel: 'link-out/new.txt' },
  { name: 'dangling symlink', rel: 'dangling' },
  { name: 'sibling prefix /ws-evil', rel: path.join(sibling, 'x.txt') },
  { name: 'NUL byte', rel: 'src/a.ts\0.txt' },
];

const calls: Array<[string, (p: string) => object]> = [
  ['ls', (p) => ({ path: p })],
  ['read_file', (p) => ({ absolute_path: path.isAbsolute(p) ? p : path.join(ws.root, p) })],
  ['write_file', (p) => ({ file_path: p, content: 'pwned\n' })],
  ['edit', (p) => ({ file_path: p, old_string: '', new_string: 'pwned\n' })],
  ['grep', (p) => ({ pattern: 'SECRET', path: p })],
  ['glob', (p) => ({ pattern: '**/*', path: p })],
  ['read_many_files', (p) => ({ paths: [p] })],
  ['shell', (p) => ({ command: 'echo pwned > pwned.txt', directory: p })],
];

describe.each(calls)('%s refuses paths outside the workspace', (toolName, params) => {
  it.each(escapes())('$name', async ({ rel }) => {
    const before = snapshot(outside) + snapshot(sibling);
    const result = await call(ws.tool(toolName), params(rel));
    expect(result.error?.type).toBe('invalid_params');
    expect(JSON.stringify(result.llmContent)).not.toContain('TOP SECRET');
    expect(snapshot(outside) + snapshot(sibling)).toBe(before);
  });
});

describe('execute re-checks confinement (the tree may change after validation)', () => {
  it.each(calls)('%s', async (toolName, params) => {
    const p = params('../outside/secret.txt');
    const result = await ws.tool(toolName).execute(p, new AbortController().signal);
    expect(result.error?.type).toBe('path_outside_workspace');
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
  });
});

describe('walks do not follow symbolic links out of the workspace', () => {
  it.each([
    ['grep', { pattern: 'SECRET|evil' }],
    ['glob', { pattern: '**/*' }],
    ['read_many_files', { paths: ['**/*'] }],
    ['read_many_files', { paths: ['.'] }],
  ] as const)('%s %j', async (toolName, params) => {
    const result = await call(ws.tool(toolName), params);
    expect(result.error).toBeUndefined();
    expect(JSON.stringify(result.llmContent)).not.toMatch(/TOP SECRET|secret\.txt|link-out/);
  });

  it('ls shows the links as links, without their targets', async () => {
    const result = await call(ws.tool('ls'), {});
    expect(result.llmContent).toBe('dangling@\nlink-out@\nsecret-link.txt@\nsrc/');
  });
});

describe('read_file requires an absolute path and says so', () => {
  it('names the absolute form of a relative path', async () => {
    const result = await call(ws.tool('read_file'), { absolute_path: 'src/a.ts' });
    expect(result.error?.type).toBe('invalid_params');
    expect(result.error?.message).toContain(`must be absolute, e.g. '${path.join(ws.root, 'src/a.ts')}'`);
  });
});

function snapshot(dir: string): string {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: false })
    .map((name) => `${name}:${fs.readFileSync(path.join(dir, String(name)), 'utf8')}`)
    .sort()
    .join('|');
}

describe('a glob whose start leads outside', () => {
  it('glob says the pattern leads outside the workspace, not that nothing matches', async () => {
    const ws = makeWorkspace({ 'src/a.ts': 'a\n' });
    fs.symlinkSync(path.join(ws.root, '..', 'outside'), path.join(ws.root, 'outlink'));
    const result = await call(ws.tool('glob'), { pattern: 'outlink/*' });
    expect(result.error?.type).toBe('path_outside_workspace');
    expect(result.error?.message).toBe(`pattern 'outlink/*' cannot be searched: 'outlink' resolves to '${path.join(ws.root, '..', 'outside')}', outside the workspace ${ws.root}; only the workspace is`);
    const many = await call(ws.tool('read_many_files'), { paths: ['outlink/**', 'src/*.ts'] });
    expect(many.llmContent).toBe(`--- src/a.ts ---\na\n\n[not searched: ${result.error?.message.replace('outlink/*', 'outlink/**')}]`);
  });
});

describe('a loop of symbolic links', () => {
  // 'cannot resolve /abs/ws/loop1: ELOOP' read as a fault of the tool, with a path the model never gave.
  it.each([
    ['read_file', (root: string) => ({ absolute_path: path.join(root, 'loop1') }), (root: string) => path.join(root, 'loop1')],
    ['write_file', () => ({ file_path: 'loop1', content: 'x\n' }), () => 'loop1'],
    ['edit', () => ({ file_path: 'loop1/a.txt', old_string: 'a', new_string: 'b' }), () => 'loop1/a.txt'],
  ] as const)('%s says the path goes through one and names nothing', async (toolName, params, shown) => {
    const loops = makeWorkspace();
    fs.symlinkSync('loop2', path.join(loops.root, 'loop1'));
    fs.symlinkSync('loop1', path.join(loops.root, 'loop2'));
    const result = await call(loops.tool(toolName), params(loops.root));
    expect(result.error?.message).toBe(`'${shown(loops.root)}' goes through a loop of symbolic links (ELOOP): it names nothing`);
    expect(fs.readlinkSync(path.join(loops.root, 'loop1'))).toBe('loop2');
  });
});
