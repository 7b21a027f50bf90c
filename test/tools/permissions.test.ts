// edit and write_file respect a file's permissions and links (issue 11 §5): a read-only file
// stays as it is even for root (the rename-into-place would otherwise replace it), a symbolic
// link never leads a write outside, and a hard-linked file is not replaced.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

const asRoot = process.getuid?.() === 0;

describe('file tools and permissions', () => {
  for (const [tool, params] of [
    ['write_file', { content: 'replaced\n' }],
    ['edit', { old_string: 'original', new_string: 'replaced' }],
  ] as const) {
    it(`${tool} refuses a file without write permission for its owner${asRoot ? ' (running as root)' : ''}`, async () => {
      const ws = makeWorkspace({ 'locked.txt': 'original\n' });
      const file = path.join(ws.root, 'locked.txt');
      fs.chmodSync(file, 0o444);
      const result = await call(ws.tool(tool), { file_path: 'locked.txt', ...params });
      expect(result.error?.type).toBe('permission_denied');
      expect(text(result)).toMatch(/'locked.txt' is read-only \(mode 0444/);
      expect(fs.readFileSync(file, 'utf8')).toBe('original\n');
      expect(fs.statSync(file).mode & 0o777).toBe(0o444);
    });

    it(`${tool} still writes a file its owner may write though others may not (0600)`, async () => {
      const ws = makeWorkspace({ 'mine.txt': 'original\n' });
      fs.chmodSync(path.join(ws.root, 'mine.txt'), 0o600);
      const result = await call(ws.tool(tool), { file_path: 'mine.txt', ...params });
      expect(result.error).toBeUndefined();
      expect(fs.readFileSync(path.join(ws.root, 'mine.txt'), 'utf8')).toBe('replaced\n');
    });

    it(`${tool} does not replace a file hard-linked from outside the workspace, nor change the outside one`, async () => {
      const ws = makeWorkspace();
      const outside = path.join(path.dirname(ws.root), 'outside', 'shared.txt');
      fs.writeFileSync(outside, 'original\n');
      fs.linkSync(outside, path.join(ws.root, 'linked.txt'));
      const result = await call(ws.tool(tool), { file_path: 'linked.txt', ...params });
      expect(result.error?.type).toBe('permission_denied');
      expect(text(result)).toMatch(/2 hard links/);
      expect(fs.readFileSync(outside, 'utf8')).toBe('original\n');
      expect(fs.statSync(outside).ino).toBe(fs.statSync(path.join(ws.root, 'linked.txt')).ino);
    });

    it(`${tool} never writes through a symbolic link that leads outside`, async () => {
      const ws = makeWorkspace();
      const outside = path.join(path.dirname(ws.root), 'outside', 'target.txt');
      fs.writeFileSync(outside, 'original\n');
      fs.symlinkSync(outside, path.join(ws.root, 'link.txt'));
      const result = await call(ws.tool(tool), { file_path: 'link.txt', ...params });
      expect(result.error).toBeDefined();
      expect(fs.readFileSync(outside, 'utf8')).toBe('original\n');
      expect(fs.lstatSync(path.join(ws.root, 'link.txt')).isSymbolicLink()).toBe(true);
    });
  }
});
