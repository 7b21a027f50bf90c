// A real workspace on disk for the policy tests: files, a .git directory, symbolic links that
// lead out, a sibling directory whose name extends the workspace's (ws-evil), and calls shaped
// like the ones the loop passes to decide(). hooks-link is a relative link into .git/hooks, as a
// repository can ship one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { PolicyQuestion, PolicyContext } from '../../src/policy/decide.js';
import type { ConfirmationMode, PolicyRule } from '../../src/recipe/types.js';
import { Workspace } from '../../src/util/workspace.js';

export interface Fixture {
  tmp: string;
  root: string;
  outside: string;
  workspace: Workspace;
  recipeFile: string;
  outDir: string;
  context(mode: ConfirmationMode, allow?: string[], deny?: string[]): PolicyContext;
  cleanup(): void;
}

export function makeFixture(): Fixture {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'policy-')));
  const root = path.join(tmp, 'ws');
  const outside = path.join(tmp, 'outside');
  const write = (p: string, content = 'x\n') => {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  };
  write(path.join(root, 'src/a.ts'), 'export const a = 1;\n');
  write(path.join(root, 'docs/guide.md'));
  write(path.join(root, 'gradlew'), '#!/bin/sh\n');
  write(path.join(root, '.git/config'));
  write(path.join(root, '.git/hooks/pre-commit.sample'));
  write(path.join(root, '.github/workflows/ci.yml'));
  write(path.join(root, 'sub/.git/config'));
  write(path.join(root, 'secrets/key.pem'));
  write(path.join(root, 'recipes/fix.yaml'));
  fs.mkdirSync(path.join(root, 'out/runs'), { recursive: true });
  write(path.join(outside, 'secret.txt'));
  write(path.join(tmp, 'ws-evil/x'));
  fs.symlinkSync(outside, path.join(root, 'link-out'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link'));
  fs.symlinkSync(path.join(root, '.git'), path.join(root, 'git-link'));
  fs.symlinkSync('.git/hooks', path.join(root, 'hooks-link'));
  fs.symlinkSync(path.join(tmp, 'nowhere'), path.join(root, 'dangling'));
  fs.symlinkSync(path.join(root, 'secrets/key.pem'), path.join(root, 'notes.txt'));
  // Real archives for the extractor cases: x.tar and x.zip hold a harmless member; the others
  // write where no word of the line shows (a hook, through the workspace's outward link).
  archive(root, 'x.tar', ['pkg/readme.txt']);
  archive(root, 'hooks.tar', ['.git/hooks/pre-commit']);
  archive(root, 'through.tar', ['link-out/planted.txt']);
  fs.writeFileSync(path.join(root, 'x.zip'), storedZip(['pkg/readme.txt']));
  fs.writeFileSync(path.join(root, 'hooks.zip'), storedZip(['.git/hooks/pre-commit']));
  // Made on FAT (the format's host 0): unzip turns the backslashes into slashes as it writes.
  fs.writeFileSync(path.join(root, 'win.zip'), storedZip(['.git\\hooks\\pre-commit']));
  // A tar holding a link, and a member through it (real tar writes .git/hooks/x through g).
  archiveWithLink(root, 'links.tar');
  // Patches: x.diff changes src/a.ts; workflow.diff writes a workflow, and git.diff reaches out by '..'.
  write(path.join(root, 'x.diff'), '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-export const a = 1;\n+export const a = 2;\n');
  write(path.join(root, 'workflow.diff'), 'diff --git a/.github/workflows/x.yml b/.github/workflows/x.yml\nnew file mode 100644\n--- /dev/null\n+++ b/.github/workflows/x.yml\n@@ -0,0 +1 @@\n+on: push\n');
  // Two archives end to end: tar -i reads past the first one's end.
  fs.writeFileSync(path.join(root, 'cat.tar'), Buffer.concat([fs.readFileSync(path.join(root, 'x.tar')), fs.readFileSync(path.join(root, 'hooks.tar'))]));
  const workspace = Workspace.open(root);
  const recipeFile = path.join(root, 'recipes/fix.yaml');
  const outDir = path.join(root, 'out/runs');
  return {
    tmp,
    root,
    outside,
    workspace,
    recipeFile,
    outDir,
    context: (mode, allow = [], deny = []) => ({
      workspace,
      policy: { mode, allow: allow.map(parseRule), deny: deny.map(parseRule) },
      protectedPaths: [recipeFile, outDir],
    }),
    cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }),
  };
}

/** `shell: git diff *` -> {tool: 'shell', pattern: 'git diff *'}; `read_file` -> bare. */
export function parseRule(source: string): PolicyRule {
  const colon = source.indexOf(': ');
  if (colon < 0) return { tool: source, pattern: null, source };
  return { tool: source.slice(0, colon), pattern: source.slice(colon + 2), source };
}

export type CallMaker = (f: Fixture) => PolicyQuestion;

export function shell(command: string, directory?: string): CallMaker {
  return (f) => {
    const dir = directory === undefined ? f.root : path.resolve(f.root, directory);
    return {
      tool: 'shell',
      args: { command, ...(directory === undefined ? {} : { directory: dir }) },
      confirmation: { kind: 'exec', title: command, command, directory: dir },
      paths: directory === undefined ? [] : [dir],
    };
  };
}

/** `edit`/`write_file` on a path as the model gave it (relative ones made absolute the way the tools do). */
export function writes(tool: 'edit' | 'write_file', p: string): CallMaker {
  return (f) => {
    const absolute = path.isAbsolute(p) ? p : path.join(f.root, p);
    const param = 'file_path';
    return { tool, args: { [param]: absolute }, confirmation: { kind: 'edit', title: `${tool} ${p}`, paths: [absolute] }, paths: [absolute] };
  };
}

export function reads(tool: 'read_file' | 'grep' | 'ls' | 'glob' | 'read_many_files', p?: string): CallMaker {
  return (f) => {
    const absolute = p === undefined ? undefined : path.isAbsolute(p) ? p : path.join(f.root, p);
    return { tool, args: absolute ? { path: absolute } : {}, confirmation: false, paths: absolute ? [absolute] : [] };
  };
}

export function fetches(url: string): CallMaker {
  return () => ({ tool: 'web_fetch', args: { url }, confirmation: { kind: 'fetch', title: url, urls: [url] }, paths: [] });
}

/** A tool that asks `other` confirmation; named `alias__tool`, it is that MCP server's (unless `mcpServer` says otherwise). */
export function other(tool: string, confirm = true, mcpServer: string | null = tool.includes('__') ? tool.split('__')[0]! : null): CallMaker {
  return () => ({ tool, args: {}, mcpServer, confirmation: confirm ? { kind: 'other', title: tool } : false, paths: [] });
}

/** A tar in `root` named `name` holding `members` (each a one-line file), made by the system's tar from a scratch tree. */
function archive(root: string, name: string, members: readonly string[]): void {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-archive-'));
  try {
    for (const member of members) {
      fs.mkdirSync(path.dirname(path.join(scratch, member)), { recursive: true });
      fs.writeFileSync(path.join(scratch, member), 'x\n');
    }
    execFileSync('tar', ['-cf', path.join(root, name), '-C', scratch, ...members]);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** A zip holding `names` (each a stored one-line file): the format's three records, nothing compressed. */
function storedZip(names: readonly string[]): Buffer {
  const data = Buffer.from('x\n');
  const crc = zlib.crc32(data);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const name of names) {
    const file = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(file.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(10, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(file.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, file, data);
    centrals.push(central, file);
    offset += local.length + file.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** links.tar: `g -> .git`, then `g/hooks/x`. */
function archiveWithLink(root: string, name: string): void {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-archive-'));
  try {
    fs.symlinkSync('.git', path.join(scratch, 'g'));
    execFileSync('tar', ['-cf', path.join(root, name), '-C', scratch, 'g']);
    fs.rmSync(path.join(scratch, 'g'));
    fs.mkdirSync(path.join(scratch, 'g', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(scratch, 'g', 'hooks', 'x'), 'x\n');
    execFileSync('tar', ['-rf', path.join(root, name), '-C', scratch, 'g/hooks/x']);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
