// Issue 13 §3: grep gives the same answer through ripgrep as through the JavaScript walk, on
// seeded random trees and calls (deterministic: the same seeds, trees and calls on every run).
// Each tree mixes what the two could read differently: .gitignore files of every shape (plain,
// braces, classes, escapes, trailing tabs, CRLF, a byte-order mark), .rgignore and .ignore
// files, a nested repository, hidden files, binary files, CRLF and Latin-1 text, characters
// beyond U+FFFF, names that are not UTF-8, links to files and directories, a link loop and a
// .gitignore that is a link. Each call draws a pattern (plain words, classes, shorthands,
// anchors, look-arounds, backreferences, (?i), Unicode), sometimes an include glob (braces, `**`)
// and a directory. The whole answer must be equal: the matches, the notes and counts, the error.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import { random, randomGitignore, randomPaths, type Random } from '../helpers/random-tree.js';
import { compileSearchPattern } from '../../src/tools/builtin/grep-pattern.js';
import { toRustRegex } from '../../src/tools/builtin/grep-regex.js';
import { call, cleanupAll, makeWorkspace, type TempWorkspace } from './helpers.js';

const realRg = findRipgrep(process.env.PATH);
const linesBase = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-grep-lines-'));
afterAll(() => {
  cleanupAll();
  fs.rmSync(linesBase, { recursive: true, force: true });
});

// A regular expression is matched in a worker thread (~40 ms of CPU to start), plain text on this
// thread: most calls are plain text, so the file runs in seconds; the regex translation itself is
// checked on 300 patterns below, against ripgrep directly.
const TREES = 16;
const CALLS_PER_TREE = 8;

/** Line pieces: words the patterns look for, Unicode corners, a CR before the line feed. */
const TEXT = ['TODO', 'todo', 'fix me', 'foo', 'bar', 'a', 'b', '42', ' ', '\t', 'é', 'É', 'ß', 'ſ', 'K', 'Σ', 'ς', '日本', '😀', '\u00a0', '\ufeff', '\ufffd', '-', '/', '.', '$', '(', '[', '\\', 'ƛ', 'Ƛ'];
const PLAIN_IGNORE = ['*.log', 'build/', '/dist', '!keep.log', '*.py[co]', 'tmp*', '**/cache', 'a/**/b', 'x', '.h', 'é*', '?.md'];

function line(r: Random): Buffer {
  const parts: Buffer[] = [];
  for (let n = 1 + r.below(6); n > 0; n--) parts.push(r.chance(0.05) ? Buffer.from([0xe9]) : Buffer.from(r.pick(TEXT)));
  if (r.chance(0.1)) parts.push(Buffer.from('\r'));
  return Buffer.concat(parts);
}

function content(r: Random): Buffer {
  const lines = Array.from({ length: r.below(8) }, () => line(r));
  if (r.chance(0.04)) lines.splice(r.below(lines.length + 1), 0, Buffer.from([0, 1, 2])); // binary
  return Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
}

function tree(r: Random): TempWorkspace {
  const ws = makeWorkspace();
  const files = [...randomPaths(r, 14), ...(r.chance(0.3) ? ['vendor/lib/.git/HEAD', 'vendor/lib/x.log'] : [])];
  for (const file of files) {
    try {
      ws.write(file, content(r));
    } catch {
      // a name taken by a file and a directory
    }
  }
  const dirs = ['', ...new Set(files.map((file) => path.dirname(file)).filter((dir) => dir !== '.'))];
  for (const dir of dirs) {
    if (dir !== '' && !r.chance(0.3)) continue;
    const plain = () => Array.from({ length: 1 + r.below(3) }, () => r.pick(PLAIN_IGNORE)).join('\n') + '\n';
    const name = r.chance(0.1) ? '.rgignore' : r.chance(0.05) ? '.ignore' : '.gitignore';
    try {
      if (fs.statSync(path.join(ws.root, dir)).isDirectory()) fs.writeFileSync(path.join(ws.root, dir, name), r.chance(0.6) ? plain() : randomGitignore(r));
    } catch {
      // the directory is a file
    }
  }
  const byBytes = (name: string) => Buffer.concat([Buffer.from(ws.root), Buffer.from('/'), Buffer.from(name, 'latin1')]);
  try {
    if (r.chance(0.3)) fs.writeFileSync(byBytes('caf\xe9.txt'), content(r));
    if (r.chance(0.3)) fs.symlinkSync('..', path.join(ws.root, 'loop'));
    if (r.chance(0.3)) fs.symlinkSync(path.join(ws.root, '..', 'outside'), path.join(ws.root, 'out'));
    if (r.chance(0.3) && fs.existsSync(path.join(ws.root, files[0]!))) fs.symlinkSync(path.join(ws.root, files[0]!), path.join(ws.root, 'link.txt'));
    if (r.chance(0.15)) {
      // A .gitignore that is a link: git reads none such; ripgrep does.
      ws.write('rules.txt', `${r.pick(PLAIN_IGNORE)}\n!${r.pick(PLAIN_IGNORE)}\n`);
      ws.write('linked/a.txt', content(r));
      ws.write('linked/keep.log', content(r));
      fs.symlinkSync('../rules.txt', path.join(ws.root, 'linked/.gitignore'));
    }
  } catch {
    // a file system that takes no such name or link
  }
  return ws;
}

const PATTERN_PIECES = ['TODO', 'todo', 'foo', 'bar', 'fix me', '\\d+', '\\w+', '\\s', '\\S', '\\W\\W', '\\bfoo\\b', '.', '..', '^', '$', '[a-z]', '[^a]', '[\\u0000-\\uffff]', '[é-ü]', 'é', 'ß', 'ſ', 'Σ', 'ƛ', '😀', '\\ufffd', '(?=a)', '(?<!b)', '(foo)\\1', 'a|b', '(?:foo|bar)', '\\.', '\\$', '\\(', '\\\\', '\\t', '\\r', 'x*', '.{2}', '[^\\w]', '\\x41'];

const WORDS = ['TODO', 'todo', 'foo', 'bar', 'fix me', 'é', 'ß', 'Σ', 'ƛ', '😀', '\ufffd', '42', 'a', '日本', '-', '/'];

function pattern(r: Random, regex: boolean): string {
  let p = r.chance(0.2) ? '(?i)' : '';
  for (let n = 1 + r.below(3); n > 0; n--) p += regex ? r.pick(PATTERN_PIECES) + (r.chance(0.2) ? r.pick(['*', '+', '?', '{1,2}']) : '') : r.pick(WORDS);
  return p;
}

const INCLUDES = ['*.txt', '*.{txt,md}', '**/*.log', 'a/**', '*', '.*', '*.ts', 'é*', '[ab]*'];

describe.skipIf(!realRg)('grep through ripgrep and through the JavaScript walk, on random trees', () => {
  it(`gives the same answer on ${TREES * CALLS_PER_TREE} calls over ${TREES} trees`, async () => {
    const differ: string[] = [];
    for (let seed = 1; seed <= TREES; seed++) {
      const r = random(seed * 7919);
      const ws = tree(r);
      const tool = (engine: 'javascript' | undefined) => createBuiltinTools({ ...ws.ctx, grepEngine: engine }, ['grep'])[0]!;
      const dirs = fs.readdirSync(ws.root).filter((name) => !name.startsWith('.') && fs.statSync(path.join(ws.root, name), { throwIfNoEntry: false })?.isDirectory());
      for (let c = 0; c < CALLS_PER_TREE; c++) {
        const params: { pattern: string; include?: string; path?: string } = { pattern: pattern(r, r.chance(0.3)) };
        if (r.chance(0.3)) params.include = r.pick(INCLUDES);
        if (r.chance(0.2) && dirs.length > 0) params.path = r.pick(dirs);
        const [viaRg, viaJs] = [await call(tool(undefined), params), await call(tool('javascript'), params)];
        const answer = (result: typeof viaRg) => ({ text: result.llmContent, error: result.error, linesOf: result.linesOf });
        if (JSON.stringify(answer(viaRg)) !== JSON.stringify(answer(viaJs))) {
          differ.push(`seed ${seed * 7919}, call ${c}: ${JSON.stringify(params)}\n  ripgrep: ${JSON.stringify(viaRg.llmContent)}\n  JavaScript: ${JSON.stringify(viaJs.llmContent)}`);
        }
      }
      ws.cleanup();
    }
    expect(differ).toEqual([]);
  }, 120_000);
});

// ripgrep only picks the files; the lines are matched in JavaScript. So ripgrep's form of the
// pattern (grep-regex.ts) must find every line the JavaScript pattern finds: on each seeded
// pattern, every random line JavaScript matches (written to a file of its own, bytes as they are)
// is in a file ripgrep names.
describe.skipIf(!realRg)("ripgrep's form of a pattern finds every line JavaScript's does", () => {
  it('on 300 seeded patterns', () => {
    const missed: string[] = [];
    let translated = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed * 104729);
      const compiled = compileSearchPattern(pattern(r, true));
      if (typeof compiled === 'string') continue;
      const rust = toRustRegex(compiled.source, compiled.flags === 'i');
      if (rust === null) continue;
      translated++;
      const re = new RegExp(compiled.source, compiled.flags);
      const dir = fs.mkdtempSync(path.join(linesBase, 'p'));
      const hits: Buffer[] = [];
      for (let i = 0; i < 200; i++) {
        const bytes = line(r);
        const text = bytes.toString('utf8');
        if (!re.test(text.endsWith('\r') ? text.slice(0, -1) : text)) continue;
        fs.writeFileSync(path.join(dir, String(hits.length)), Buffer.concat([bytes, Buffer.from('\n')]));
        hits.push(bytes);
      }
      if (hits.length === 0) continue;
      const found = spawnSync(realRg!, ['--no-config', '--encoding=none', '--text', '--files-with-matches', `--regexp=${rust}`, '.'], { cwd: dir, encoding: 'utf8' });
      const named = new Set(found.stdout.split('\n').map((name) => name.replace(/^\.\//, '')));
      hits.forEach((bytes, i) => {
        if (!named.has(String(i))) missed.push(`/${compiled.source}/${compiled.flags} as ${rust} misses ${JSON.stringify(bytes.toString('utf8'))}`);
      });
    }
    expect(missed).toEqual([]);
    expect(translated).toBeGreaterThan(200);
  });
});
