// `unattended report RUN_DIR|TRANSCRIPT`: the report from a transcript alone, through the built CLI.
// The happy path for every example recipe is in recipes.test.ts; here: runs that failed before
// their session opened, transcripts cut short, secrets, and bad input.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { reportJson } from '../../src/report/fold.js';
import { rebuildReportSync } from '../../src/report/read-transcript.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { UserFacingError } from '../../src/types/errors.js';

afterAll(removeTempDirs);

let demoRun: string;

beforeAll(async () => {
  demoRun = path.join(tempDir(), 'demo');
  const r = await cli(['run', 'recipes/demo.yaml', '--out', demoRun]);
  expect(r.code, r.stderr).toBe(0);
});

describe('unattended report', () => {
  it('rebuilds the report of a run that failed before it started (bad recipe, exit 52)', async () => {
    const dir = tempDir();
    const recipe = path.join(dir, 'broken.yaml');
    fs.writeFileSync(recipe, 'version: 1\nname: broken\nprompt: hi\nconfirmation: {mode: maybe}\n');
    const out = path.join(dir, 'run');
    const run = await cliInProcess(['run', recipe, '--out', out]);
    expect(run.code).toBe(52);
    const { report, events } = readRun(out);
    expect(events.map((e) => e.type)).toEqual(['run_start', 'files_changed', 'run_end']);
    expect(report).toMatchObject({ status: 'error', exit_code: 52, error_kind: 'recipe' });
    const rebuilt = await cliInProcess(['report', out, '--format', 'json']);
    expect(`${rebuilt.stdout}\n`).toBe(fs.readFileSync(path.join(out, 'report.json'), 'utf8')); // execa drops the last newline
  });

  it('rebuilds the report of a run stopped by a limit (exit 53), the limit named', async () => {
    const out = path.join(tempDir(), 'limited');
    const run = await cliInProcess(['run', 'recipes/demo.yaml', '--max-turns', '2', '--out', out]);
    expect(run.code).toBe(53);
    const rebuilt = path.join(tempDir(), 'report.json');
    expect((await cliInProcess(['report', path.join(out, 'transcript.jsonl'), '--format', 'json', '--out', rebuilt])).code).toBe(0);
    expect(fs.readFileSync(rebuilt, 'utf8')).toBe(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(JSON.parse(fs.readFileSync(rebuilt, 'utf8'))).toMatchObject({ status: 'limit', limit: 'max_turns', turns: 2 });
  });

  it('reports what a transcript cut short recorded, says the run_end is missing, and skips a torn line', async () => {
    const lines = fs.readFileSync(path.join(demoRun, 'transcript.jsonl'), 'utf8').trimEnd().split('\n');
    const kept = lines.filter((line) => !/^\{"type":"(run_end|files_changed)"/.test(line));
    const file = path.join(tempDir(), 'cut.jsonl');
    fs.writeFileSync(file, `${kept.join('\n')}\n{"type":"model_respo`);
    const r = await cliInProcess(['report', file, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/skipped 1 line\(s\) of .*cut\.jsonl that are not events/);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ status: 'error', exit_code: 1, final_answer: null, error: expect.stringMatching(/no run_end event/) });
    // What was recorded is all there: the denial, the calls, the turns.
    const original = readRun(demoRun).report;
    expect(report.denials).toEqual(original.denials);
    expect(report.tool_calls).toEqual(original.tool_calls);
    expect(report.turns).toBe(original.turns);
    // Without the runner's final list, the files are those the file tools reported, with their diffs.
    expect(report.files_changed).toEqual([{ path: 'README.md', status: 'modified', diff: expect.stringContaining('+A tiny library that greets people. Call `greet(name)` and you will receive') }]);
    expect(original.files_changed.map((f: { path: string }) => f.path)).toEqual(['README.md']);
  });

  it('skips a line whose fields have the wrong type, as it skips a torn one, and names the line', async () => {
    const events = readRun(demoRun).events;
    const startLine = events.findIndex((e) => e.type === 'run_start') + 1;
    const endLine = events.findIndex((e) => e.type === 'run_end') + 1;
    const broken = events.map((e) =>
      e.type === 'run_end' ? { ...e, duration_ms: 'abc' } : e.type === 'run_start' ? { ...e, context: { ...e.context, files: 5 } } : e,
    );
    const file = writeTemp('typed.jsonl', broken.map((e) => `${JSON.stringify(e)}\n`).join(''));
    for (const format of ['md', 'json']) {
      const r = await cli(['report', file, '--format', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(
        `unattended: skipped 2 line(s) of ${file} that are not events: line ${startLine} (run_start: context.files is not a list), line ${endLine} (run_end: duration_ms is not a number)`,
      );
    }
    const report = JSON.parse((await cliInProcess(['report', file, '--format', 'json'])).stdout);
    expect(report).toMatchObject({ status: 'error', error: expect.stringMatching(/no run_end event/), turns: readRun(demoRun).report.turns });
  });

  it('never fails unexpectedly on a field of any wrong type, anywhere in any event', () => {
    const events = readRun(demoRun).events;
    const wrongValues: unknown[] = ['abc', -5, 1.5, null, [], {}, true, [1], { a: 1 }];
    const failures: string[] = [];
    const dir = tempDir();
    let tried = 0;
    const attempt = (mutated: Array<Record<string, any>>, what: string) => {
      tried++;
      const file = path.join(dir, 't.jsonl');
      fs.writeFileSync(file, mutated.map((e) => `${JSON.stringify(e)}\n`).join(''));
      try {
        const { report } = rebuildReportSync(file);
        renderMarkdown(report);
        reportJson(report);
      } catch (error) {
        if (!(error instanceof UserFacingError)) failures.push(`${what}: ${(error as Error).message}`);
      }
    };
    events.forEach((event, i) => {
      for (const [key, value] of Object.entries(event)) {
        if (key === 'type') continue;
        for (const wrong of wrongValues) {
          attempt(events.map((e, j) => (j === i ? { ...e, [key]: wrong } : e)), `line ${i + 1} ${event.type}.${key} = ${JSON.stringify(wrong)}`);
        }
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          for (const inner of Object.keys(value)) {
            for (const wrong of wrongValues) {
              attempt(events.map((e, j) => (j === i ? { ...e, [key]: { ...value, [inner]: wrong } } : e)), `line ${i + 1} ${event.type}.${key}.${inner} = ${JSON.stringify(wrong)}`);
            }
          }
        }
      }
    });
    expect(failures.slice(0, 20)).toEqual([]);
    expect(tried).toBeGreaterThan(500);
  });

  it('redacts secrets of the environment it runs in, in Markdown and JSON', async () => {
    const secret = 'hunter2-very-secret-value';
    const events = readRun(demoRun).events.map((e) => (e.type === 'run_end' ? { ...e, final_answer: `the key is ${secret}` } : e));
    const file = writeTemp('secret.jsonl', events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    for (const format of ['md', 'json']) {
      const r = await cliInProcess(['report', file, '--format', format], { env: { DEPLOY_TOKEN: secret } });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('the key is [REDACTED]');
      expect(r.stdout).not.toContain(secret);
    }
  });

  it('writes --out FILE', async () => {
    const out = path.join(tempDir(), 'again.md');
    const r = await cliInProcess(['report', demoRun, '--out', out]);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(fs.readFileSync(out, 'utf8')).toBe(readRun(demoRun).reportMd);
  });

  it('never writes --out over the transcript it reads, whatever the link', async () => {
    const dir = tempDir();
    const transcript = path.join(dir, 'transcript.jsonl');
    fs.copyFileSync(path.join(demoRun, 'transcript.jsonl'), transcript);
    const before = fs.readFileSync(transcript, 'utf8');
    fs.symlinkSync(transcript, path.join(dir, 'soft.md'));
    fs.linkSync(transcript, path.join(dir, 'hard.md'));
    for (const out of ['soft.md', 'hard.md', transcript]) {
      const r = await cliInProcess(['report', transcript, '--out', path.join(dir, path.basename(out))]);
      expect(r.code, out).toBe(42);
      expect(r.stderr, out).toMatch(/is the transcript itself/);
      expect(fs.readFileSync(transcript, 'utf8')).toBe(before);
    }
  });

  it("never writes --out over the files the run read: its recipe, the recipe's script, a flag's file", async () => {
    const dir = tempDir();
    const recipeText = 'version: 1\nprovider: scripted\nscript: s.jsonl\nprompt: hi\nconfirmation: {mode: deny}\n';
    fs.writeFileSync(path.join(dir, 'r.yaml'), recipeText);
    fs.writeFileSync(path.join(dir, 's.jsonl'), '{"text":"hi"}\n');
    fs.writeFileSync(path.join(dir, 'schema.json'), '{"type": "string"}');
    fs.symlinkSync('r.yaml', path.join(dir, 'link.md'));
    // How the run ended does not matter (its answer is no JSON string): its transcript names what it read.
    await cliInProcess(['run', 'r.yaml', '--output-schema', 'schema.json', '--out', 'run'], { cwd: dir });
    expect(fs.existsSync(path.join(dir, 'run/transcript.jsonl'))).toBe(true);
    for (const [out, message] of [
      ['r.yaml', /--out r\.yaml is the run's recipe itself/],
      ['link.md', /--out link\.md is the run's recipe itself \(through a link/],
      ['s.jsonl', /--out s\.jsonl is the script itself/],
      ['schema.json', /--out schema\.json is the --output-schema file itself/],
    ] as const) {
      const r = await cliInProcess(['report', 'run', '--out', out], { cwd: dir });
      expect([r.code, r.stderr], out).toEqual([42, expect.stringMatching(message)]);
    }
    expect(fs.readFileSync(path.join(dir, 'r.yaml'), 'utf8')).toBe(recipeText);
    expect(fs.readFileSync(path.join(dir, 's.jsonl'), 'utf8')).toBe('{"text":"hi"}\n');
    expect(fs.readFileSync(path.join(dir, 'schema.json'), 'utf8')).toBe('{"type": "string"}');
  });

  it('knows the recipe of a run whose first line is megabytes long (a 5 MB prompt)', async () => {
    const dir = tempDir();
    const recipeText = `version: 1\nprovider: scripted\nscript: s.jsonl\nprompt: "${'x'.repeat(5 << 20)}"\nconfirmation: {mode: deny}\n`;
    fs.writeFileSync(path.join(dir, 'r.yaml'), recipeText);
    fs.writeFileSync(path.join(dir, 's.jsonl'), '{"text":"hi"}\n');
    await cliInProcess(['run', 'r.yaml', '--out', 'run'], { cwd: dir });
    const transcript = fs.readFileSync(path.join(dir, 'run/transcript.jsonl'), 'utf8');
    expect(transcript.indexOf('\n')).toBeGreaterThan(5 << 20);
    const r = await cliInProcess(['report', 'run', '--out', 'r.yaml'], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([42, expect.stringMatching(/--out r\.yaml is the run's recipe itself/)]);
    expect(fs.readFileSync(path.join(dir, 'r.yaml'), 'utf8')).toBe(recipeText);
  });

  it("never writes one format over the run's report in the other; the same format over its own file re-renders it", async () => {
    const dir = tempDir();
    fs.cpSync(demoRun, path.join(dir, 'run'), { recursive: true });
    const reportMd = fs.readFileSync(path.join(dir, 'run/report.md'), 'utf8');
    const reportJsonText = fs.readFileSync(path.join(dir, 'run/report.json'), 'utf8');
    for (const [format, out, message] of [
      ['md', 'run/report.json', /--out run\/report\.json is the run's report\.json, which a Markdown report would replace/],
      ['json', 'run/report.md', /--out run\/report\.md is the run's report\.md, which a JSON report would replace/],
    ] as const) {
      const r = await cliInProcess(['report', 'run', '--format', format, '--out', out], { cwd: dir });
      expect([r.code, r.stderr], out).toEqual([42, expect.stringMatching(message)]);
    }
    expect(fs.readFileSync(path.join(dir, 'run/report.md'), 'utf8')).toBe(reportMd);
    expect(fs.readFileSync(path.join(dir, 'run/report.json'), 'utf8')).toBe(reportJsonText);
    const again = await cliInProcess(['report', 'run', '--format', 'json', '--out', 'run/report.json'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'run/report.json'), 'utf8')).toBe(reportJsonText);
  });

  it('refuses an --out in a directory it may not write, naming the directory, not its own temporary file', async () => {
    // Root writes any mode: there, /sys (whose files cannot be created) stands in for a read-only directory.
    let dir = tempDir();
    if (process.getuid?.() === 0) dir = '/sys';
    else fs.chmodSync(dir, 0o555);
    if (!fs.existsSync(dir)) return;
    const r = await cliInProcess(['report', demoRun, '--out', path.join(dir, 'r.md')]);
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(new RegExp(`^unattended: cannot write ${dir}/r\\.md: (permission denied in|[^\\n]*read-only file system)`));
    expect(r.stderr).not.toMatch(/\.tmp/);
  });

  it.each([
    ['a path that does not exist', () => ['report', '/nonexistent/run'], /no run directory or transcript at \/nonexistent\/run/],
    ['a directory without a transcript', () => ['report', tempDir()], /holds no transcript\.jsonl/],
    ['a file with no events', () => ['report', writeTemp('notes.txt', 'hello\n')], /holds no run events/],
    // The report a user knows, named for the transcript beside it: pointed at its run directory.
    ['the run\'s own report.json', () => ['report', path.join(demoRun, 'report.json')], /\/demo\/report\.json is the run's report, rendered from its transcript\ngive the run directory \(unattended report \S+\/demo\) or its transcript\.jsonl/],
    ['an unwritable --out', () => ['report', demoRun, '--out', '/nonexistent/dir/r.md'], /cannot write \/nonexistent\/dir\/r\.md/],
    ['an unknown --format', () => ['report', demoRun, '--format', 'html'], /--format must be one of md, json \(got "html"\)/],
  ])('refuses %s with one line and exit 42', async (_, args, message) => {
    const r = await cliInProcess(args());
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });
});

function writeTemp(name: string, text: string): string {
  const file = path.join(tempDir(), name);
  fs.writeFileSync(file, text);
  return file;
}
