// grep finds an accented letter written in the other Unicode form (é composed, or e + U+0301 as
// macOS writes it), through ripgrep and through the JavaScript walk alike (the cases are in
// grep-engines.test.ts). Here: ripgrep, which only picks the files, must name every file with a
// line that matches only once brought into the pattern's form, on seeded random patterns and
// lines built from letters with several spellings (one accent, two in either order, Hangul
// syllables and their jamo, a singleton like the Ångström sign).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import { compileSearchPattern } from '../../src/tools/builtin/grep-pattern.js';
import { toRustRegex } from '../../src/tools/builtin/grep-regex.js';
import { lineForms, withChangeableLines } from '../../src/tools/builtin/grep-unicode-forms.js';
import { random, type Random } from '../helpers/random-tree.js';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';

const realRg = findRipgrep(process.env.PATH);
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-grep-forms-'));
afterAll(() => {
  cleanupAll();
  fs.rmSync(base, { recursive: true, force: true });
});

/** Spellings of the same letters, and their neighbours. */
const LETTERS = ['e', 'é', 'e\u0301', 'E\u0301', 'ê', 'ệ', 'ẹ\u0302', 'ê\u0323', 'e\u0323\u0302', 'e\u0302\u0323', 'Å', '\u212b', 'A\u030a', '각', '가\u11a8', '\u1100\u1161\u11a8', 'ñ', 'n\u0303', 'x', ' ', '\u0301', 'ö', 'o\u0308'];
const PIECES = [...LETTERS, '.', '..', '[éè]', '[^x]', '^', '$', '\\w', 'x*', '(?:é|ñ)', 'e?'];

function draw(r: Random, from: readonly string[], max: number): string {
  let out = '';
  for (let n = 1 + r.below(max); n > 0; n--) out += r.pick(from);
  return out;
}

describe.skipIf(!realRg)("ripgrep's form of an accented pattern finds every line the pattern reads in its form", () => {
  it('on 300 seeded patterns', () => {
    const missed: string[] = [];
    let withForms = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed * 7727);
      const compiled = compileSearchPattern((r.chance(0.2) ? '(?i)' : '') + draw(r, PIECES, 3));
      if (typeof compiled === 'string' || !compiled.forms) continue;
      const rust = toRustRegex(compiled.source, compiled.flags === 'i');
      if (rust === null) continue;
      withForms++;
      const re = new RegExp(compiled.source, compiled.flags);
      const dir = fs.mkdtempSync(path.join(base, 'p'));
      const hits: string[] = [];
      for (let i = 0; i < 200; i++) {
        const line = draw(r, LETTERS, 5);
        // Only the lines that match once brought into the form: the others are the translation's own test.
        if (re.test(line) || !compiled.forms.some((form) => re.test(line.normalize(form)))) continue;
        fs.writeFileSync(path.join(dir, String(hits.length)), `${line}\n`);
        hits.push(line);
      }
      if (hits.length === 0) continue;
      const regex = withChangeableLines(rust, compiled.forms);
      const found = spawnSync(realRg!, ['--no-config', '--encoding=none', '--files-with-matches', `--regexp=${regex}`, '.'], { cwd: dir, encoding: 'utf8' });
      const named = new Set(found.stdout.split('\n').map((name) => name.replace(/^\.\//, '')));
      hits.forEach((line, i) => {
        if (!named.has(String(i))) missed.push(`/${compiled.source}/${compiled.flags} misses ${JSON.stringify(line)}`);
      });
    }
    expect(missed).toEqual([]);
    expect(withForms).toBeGreaterThan(150);
  });
});

describe('which patterns are matched in another form', () => {
  it.each([
    ['café', ['NFC']],
    ['cafe\u0301', ['NFD']],
    ['café|cafe\u0301', ['NFC', 'NFD']],
    ['cafe', []],
    ['caf\\u00e9', []], // an escape is matched as written
    ['日本|Σ', []], // no letter with another spelling
  ])('%s', (source, forms) => {
    expect(lineForms(source)).toEqual(forms);
  });

  it('leaves a pattern without such a letter to ripgrep as it was', () => {
    expect(withChangeableLines('caf', [])).toBe('caf');
  });
});

describe('grep finds a letter written in the other form, with the line as the file writes it', () => {
  it.each(['javascript', undefined] as const)('engine %s', async (engine) => {
    const ws = makeWorkspace({ 'menu.md': 'cafe\u0301 au lait\n', 'other.md': 'café noir\n', 'plain.md': 'cafe\n' });
    const grep = createBuiltinTools({ ...ws.ctx, grepEngine: engine }, ['grep'])[0]!;
    expect(text(await call(grep, { pattern: 'café' }))).toBe('menu.md:1: cafe\u0301 au lait\nother.md:1: café noir');
  });
});
