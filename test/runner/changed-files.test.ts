// The files_changed event's content: what file tools changed, diffed against the workspace as it is
// at the end (so a later change by anything else counts), merged with what git saw.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileChanges } from '../../src/runner/changed-files.js';
import type { RunEvent } from '../../src/types/events.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'changed-files-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function toolChanged(fileName: string, originalContent: string | null, newContent: string): RunEvent {
  return {
    type: 'tool_result',
    turn: 1,
    call_id: `c-${fileName}`,
    name: 'write_file',
    llm_content: 'ok',
    return_display: { fileName, fileDiff: '', originalContent, newContent },
    duration_ms: 1,
    error_type: null,
    saved_output: null,
  };
}

describe('FileChanges', () => {
  it('diffs each file against its content before the first change, read from disk at the end', () => {
    fs.writeFileSync(path.join(root, 'kept.txt'), 'same\n');
    fs.writeFileSync(path.join(root, 'edited.txt'), 'after the tool, and after a shell command\n');
    fs.writeFileSync(path.join(root, 'new.txt'), 'new\n');
    const changes = new FileChanges();
    changes.observe(toolChanged('edited.txt', 'before\n', 'after the tool\n'));
    changes.observe(toolChanged('edited.txt', 'after the tool\n', 'again\n')); // the first original stays
    changes.observe(toolChanged('new.txt', null, 'new\n'));
    changes.observe(toolChanged('kept.txt', 'same\n', 'other\n')); // changed back since: not a change
    changes.observe(toolChanged('gone.txt', 'was here\n', 'x\n')); // deleted since
    const files = changes.collect(root, {
      files: [
        { path: 'by-shell.txt', status: 'added', diff: 'from git' },
        { path: 'edited.txt', status: 'modified', diff: 'git view, not used' },
      ],
      replaces: new Set(),
    });
    expect(files.map((f) => [f.path, f.status])).toEqual([
      ['by-shell.txt', 'added'],
      ['edited.txt', 'modified'],
      ['gone.txt', 'deleted'],
      ['new.txt', 'added'],
    ]);
    const edited = files.find((f) => f.path === 'edited.txt')!;
    expect(edited.diff).toMatch(/^--- a\/edited\.txt\n\+\+\+ b\/edited\.txt\n/);
    expect(edited.diff).toContain('-before\n+after the tool, and after a shell command');
    expect(files.find((f) => f.path === 'new.txt')!.diff).toMatch(/^--- \/dev\/null\n\+\+\+ b\/new\.txt/);
  });

  it("takes git's view of a file a tool first changed after git's snapshot, and drops it when git saw no change", () => {
    fs.writeFileSync(path.join(root, 'undone.txt'), 'one\n');
    fs.writeFileSync(path.join(root, 'after.txt'), 'shell\ntool\n');
    const changes = new FileChanges();
    // A command changed both first; the tools' "before" holds the command's change.
    changes.observe(toolChanged('undone.txt', 'ONE\n', 'one\n'));
    changes.observe(toolChanged('after.txt', 'shell\n', 'shell\ntool\n'));
    const git = { files: [{ path: 'after.txt', status: 'added' as const, diff: '+shell\n+tool\n' }], replaces: new Set(['undone.txt', 'after.txt']) };
    expect(changes.collect(root, git)).toEqual([{ path: 'after.txt', status: 'added', diff: '+shell\n+tool\n' }]);
    expect(changes.paths(root, git)).toEqual(['after.txt']);
  });

  it('cuts a file tool\u2019s diff over 1 MB at a whole line, saying how large it was', () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `line ${i} of a generated file`).join('\n');
    fs.writeFileSync(path.join(root, 'generated.txt'), text);
    const changes = new FileChanges();
    changes.observe(toolChanged('generated.txt', null, text));
    const [file] = changes.collect(root, { files: [], replaces: new Set() });
    expect(file!.diff.length).toBeLessThan(1024 * 1024 + 200);
    expect(file!.diff).toMatch(/\n\+line \d+ of a generated file\n\[diff cut: \d+ bytes in all; git diff shows the rest\]\n$/);
  });
});
