// Files and directories the runner cannot read are said, never dropped: grep said "No matches
// (searched 0 files)", glob left a locked directory out without a word, read_many_files failed the
// whole call on one EACCES. Now each names them in a note, grep the same through ripgrep and
// through the JavaScript walk. The tools run as a user mode 000 locks out (see unprivileged-tools.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import { canLockOut, lockedOutWorkspace, removeLockedOut, runLockedOut } from '../helpers/unprivileged-tools.js';

const realRg = findRipgrep(process.env.PATH);
let ws: ReturnType<typeof lockedOutWorkspace>;

beforeAll(() => {
  const files = {
    'a.txt': 'NEEDLE open\n',
    'b.txt': 'NEEDLE secret\n',
    'locked/c.txt': 'NEEDLE locked away\n',
    'sub/ok.txt': 'NEEDLE ok\n',
    'sub/deeper/d.txt': 'NEEDLE deeper\n',
  };
  if (canLockOut) ws = lockedOutWorkspace(files, ['b.txt', 'locked', 'sub/deeper']);
});

afterAll(() => {
  ws?.unlock();
  removeLockedOut();
});

const note = '[3 paths could not be read: permission denied: b.txt, locked/, sub/deeper/]';

describe.skipIf(!canLockOut)('paths that cannot be read', () => {
  it.each(realRg ? (['rg', 'norg'] as const) : (['norg'] as const))('grep names them (%s)', (engine) => {
    expect(runLockedOut(ws.root, engine, 'grep', { pattern: 'NEEDLE' })).toEqual({ text: `a.txt:1: NEEDLE open\nsub/ok.txt:1: NEEDLE ok\n${note}`, error: null });
    expect(runLockedOut(ws.root, engine, 'grep', { pattern: 'NOT_THERE' }).text).toBe(
      `No matches for /NOT_THERE/ in . (searched 2 files; gitignored paths, .git, node_modules and .unattended are not searched).\n${note}`,
    );
    expect(runLockedOut(ws.root, engine, 'grep', { pattern: 'NEEDLE', path: 'b.txt' }).text).toMatch(/\n\[1 path could not be read: permission denied: b\.txt\]$/);
    expect(runLockedOut(ws.root, engine, 'grep', { pattern: 'NEEDLE', path: 'locked' }).text).toMatch(/\n\[1 path could not be read: permission denied: locked\/\]$/);
  });

  it.skipIf(!realRg)('grep answers the same through ripgrep and the JavaScript walk', () => {
    for (const params of [{ pattern: 'NEEDLE', path: 'sub' }, { pattern: 'open|ok' }, { pattern: 'NEEDLE', include: '*.txt' }]) {
      expect(runLockedOut(ws.root, 'rg', 'grep', params)).toEqual(runLockedOut(ws.root, 'norg', 'grep', params));
    }
  });

  it('glob says which directories it could not list', () => {
    expect(runLockedOut(ws.root, 'norg', 'glob', { pattern: '**' }).text).toBe(
      'a.txt\nb.txt\nsub/ok.txt\n[2 paths could not be read: permission denied: locked/, sub/deeper/]',
    );
  });

  it('read_many_files reads the rest and names what it could not read', () => {
    const result = runLockedOut(ws.root, 'norg', 'read_many_files', { paths: ['.'] });
    expect(result.error).toBeNull();
    expect(result.text).toBe(`--- a.txt ---\nNEEDLE open\n\n--- sub/ok.txt ---\nNEEDLE ok\n\n${note}`);
  });
});
