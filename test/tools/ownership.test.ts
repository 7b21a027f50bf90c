// edit and write_file keep a file's owner and group: the atomic rename puts a new inode in place,
// made by the runner's user. As root the new one is given the old owner; as a user who cannot give
// files away, the file is written in place (or the write refused when that cannot be done either).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, cleanupAll, makeWorkspace } from './helpers.js';
import { canLockOut, lockedOutWorkspace, removeLockedOut, runLockedOut } from '../helpers/unprivileged-tools.js';

afterAll(() => {
  cleanupAll();
  removeLockedOut();
});

const asRoot = process.getuid?.() === 0;
const owner = (file: string) => {
  const stat = fs.statSync(file);
  return { uid: stat.uid, gid: stat.gid, mode: stat.mode & 0o7777 };
};

describe.runIf(asRoot)('as root', () => {
  it.each([
    { tool: 'edit', params: { file_path: 'owned.txt', old_string: 'old', new_string: 'new' } },
    { tool: 'write_file', params: { file_path: 'owned.txt', content: 'new\n' } },
  ])('$tool keeps the owner, group and mode of a file someone else owns', async ({ tool, params }) => {
    const ws = makeWorkspace({ 'owned.txt': 'old\n' });
    const file = path.join(ws.root, 'owned.txt');
    fs.chownSync(file, 1234, 2345);
    fs.chmodSync(file, 0o640);
    const inode = fs.statSync(file).ino;
    const result = await call(ws.tool(tool), params);
    expect(result.error).toBeUndefined();
    expect(ws.read('owned.txt')).toBe('new\n');
    expect(owner(file)).toEqual({ uid: 1234, gid: 2345, mode: 0o640 });
    // Still replaced atomically: root may give the new file away.
    expect(fs.statSync(file).ino).not.toBe(inode);
    expect(fs.readdirSync(ws.root)).toEqual(['owned.txt']);
  });
});

// As an ordinary user (nobody, uid and gid 65534), in a directory that user may write.
describe.runIf(asRoot && canLockOut)('as a user who cannot give files away', () => {
  const workspace = (uid: number, gid: number, mode: number) => {
    const ws = lockedOutWorkspace({ 'shared.txt': 'shared\n' }, []);
    fs.chmodSync(ws.root, 0o777);
    const file = path.join(ws.root, 'shared.txt');
    fs.chownSync(file, uid, gid);
    fs.chmodSync(file, mode);
    return { root: ws.root, file };
  };

  it('edits a file another user owns and the group may write, in place: its owner stays', () => {
    const { root, file } = workspace(1234, 65534, 0o664);
    expect(runLockedOut(root, 'norg', 'edit', { file_path: 'shared.txt', old_string: 'shared', new_string: 'edited' }).error).toBeNull();
    expect(fs.readFileSync(file, 'utf8')).toBe('edited\n');
    expect(owner(file)).toEqual({ uid: 1234, gid: 65534, mode: 0o664 });
    expect(fs.readdirSync(root)).toEqual(['shared.txt']);
  });

  it("keeps the group of the user's own file when the user is not in that group", () => {
    const { root, file } = workspace(65534, 2345, 0o664);
    expect(runLockedOut(root, 'norg', 'write_file', { file_path: 'shared.txt', content: 'written\n' }).error).toBeNull();
    expect(fs.readFileSync(file, 'utf8')).toBe('written\n');
    expect(owner(file)).toEqual({ uid: 65534, gid: 2345, mode: 0o664 });
  });

  it('refuses, and changes nothing, when the file could only be replaced by one of another owner', () => {
    const { root, file } = workspace(1234, 1234, 0o644);
    const result = runLockedOut(root, 'norg', 'edit', { file_path: 'shared.txt', old_string: 'shared', new_string: 'edited' });
    expect(result.error).toMatchObject({ type: 'io_error' });
    expect(result.text).toMatch(/^Error: cannot edit 'shared\.txt': replacing it would change its owner 1234, group 1234, which this user cannot give a file, and it cannot be written in place \(EACCES\)/);
    expect(fs.readFileSync(file, 'utf8')).toBe('shared\n');
    expect(owner(file)).toEqual({ uid: 1234, gid: 1234, mode: 0o644 });
    expect(fs.readdirSync(root)).toEqual(['shared.txt']);
  });
});
