// `unattended convert`: a goose recipe becomes a file in our format that `validate` accepts and
// that loads as the goose file does; what was ignored is on stderr and in the file's header. Not a
// goose recipe: exit 52 with the reason. The conversion every case reads runs the built CLI; the
// other commands go through the CLI's entry in process (the same code, no process start each).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecipe } from '../../src/recipe/index.js';
import { cli, removeTempDirs, ROOT, tempDir, type CliResult } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

const GOOSE = path.join(ROOT, 'test/fixtures/goose/code-review.yaml');
const PARAMS = { language: 'Go', checklist: 'c.md', reviewer: 'Ada' };

describe('unattended convert', () => {
  let out: string;
  let converted: CliResult;
  beforeAll(async () => {
    out = path.join(tempDir(), 'code-review.yaml');
    converted = await cli(['convert', GOOSE, '--out', out]);
  });

  it('writes our format, which validate accepts and which loads as the goose recipe does', async () => {
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stderr).toContain(`unattended: wrote ${out}`);
    const validated = await cliInProcess(['validate', out]);
    expect(validated.code, validated.stderr).toBe(0);
    const fromGoose = loadRecipe(GOOSE, { params: PARAMS, cwd: ROOT });
    const fromFile = loadRecipe(out, { params: PARAMS, cwd: ROOT });
    for (const field of ['name', 'prompt', 'instructions', 'parameters', 'tools', 'mcpServers', 'confirmation', 'limits', 'output', 'checks', 'provider', 'model', 'env'] as const) {
      expect(fromFile[field], field).toEqual(fromGoose[field]);
    }
    expect(fromFile.conversion).toBeUndefined();
  });

  it('says what it ignored, on stderr and in the header of the file', () => {
    const header = fs.readFileSync(out, 'utf8').split('\n').filter((line) => line.startsWith('#'));
    const warned = converted.stderr.split('\n').filter((line) => line.startsWith('unattended: warning: goose recipe: '));
    expect(warned.length).toBe(14);
    expect(header[0]).toBe('# Converted from the goose recipe code-review.yaml by `unattended convert`.');
    for (const line of warned) expect(header).toContain(`#   - ${line.replace('unattended: warning: goose recipe: ', '')}`);
    expect(warned).toContain("unattended: warning: goose recipe: settings.temperature: ignored: runs use the provider's default temperature");
  });

  it('prints to stdout without --out, and refuses a recipe that is already ours (exit 52)', async () => {
    const printed = await cliInProcess(['convert', path.join(ROOT, 'test/fixtures/goose/release-notes.json')]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^# Converted from the goose recipe release-notes.json/);
    expect(printed.stdout).toMatch(/\nconfirmation:\n {2}mode: deny(\n|$)/);
    // validate takes the goose file as it is, and lists the same warnings.
    const validated = await cliInProcess(['validate', GOOSE]);
    expect(validated.code).toBe(0);
    expect(validated.stderr).toContain(`${GOOSE}: warning: goose recipe: settings.temperature: ignored`);
    const ours = await cliInProcess(['convert', path.join(ROOT, 'recipes/demo.yaml')]);
    expect(ours.code).toBe(52);
    expect(ours.stderr).toContain("not a goose recipe (it has no title): this file is already in unattended's format");
  });

  it('never writes the goose recipe through a link, and refuses an --out that cannot be a file (exit 42)', async () => {
    const dir = tempDir();
    const goose = path.join(dir, 'g.yaml');
    const original = 'version: 1.0.0\ntitle: T\ndescription: d\nprompt: hi\n';
    fs.writeFileSync(goose, original);
    fs.symlinkSync('g.yaml', path.join(dir, 'soft.yaml'));
    fs.linkSync(goose, path.join(dir, 'hard.yaml'));
    fs.mkdirSync(path.join(dir, 'sub'));
    for (const [out, message] of [
      ['soft.yaml', '--out soft.yaml is the goose recipe itself (through a link'],
      ['hard.yaml', '--out hard.yaml is the goose recipe itself (through a link'],
      ['./g.yaml', '--out ./g.yaml is the goose recipe itself'],
      ['sub', '--out sub is a directory, not a file'],
      ['nodir/x.yaml', 'cannot write nodir/x.yaml: its directory nodir does not exist'],
    ] as const) {
      const r = await cliInProcess(['convert', 'g.yaml', '--out', out], { cwd: dir });
      expect(r.code, out).toBe(42);
      expect(r.stderr, out).toContain(message);
      expect(r.stderr, out).not.toContain('unexpected error');
      expect(fs.readFileSync(goose, 'utf8')).toBe(original);
    }
    expect(fs.existsSync(path.join(dir, 'nodir'))).toBe(false);
    // A link to another file is replaced by the converted file, not followed.
    fs.writeFileSync(path.join(dir, 'other.yaml'), 'keep me\n');
    fs.symlinkSync('other.yaml', path.join(dir, 'to-other.yaml'));
    const r = await cliInProcess(['convert', 'g.yaml', '--out', 'to-other.yaml'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'other.yaml'), 'utf8')).toBe('keep me\n');
    expect(fs.lstatSync(path.join(dir, 'to-other.yaml')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'to-other.yaml'), 'utf8')).toMatch(/^# Converted from the goose recipe g.yaml/);
  });
});
