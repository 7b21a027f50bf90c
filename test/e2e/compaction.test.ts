// Compaction through the CLI: `limits.context_tokens` from the recipe, the compaction events in the
// transcript, the count in report.json and report.md (rebuilt identically by `unattended report`),
// and the summary side request recorded by --record and replayed by the scripted provider. The
// recorded run is the built CLI's; the report and the replay go through its entry in process.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

const NAMES = 'abcdefghijklmnop'.split('');
let dir: string;
let out: string;
let recorded: string;
let stderr: string;

beforeAll(async () => {
  dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  for (const n of NAMES) fs.writeFileSync(path.join(ws, `${n}.txt`), Array.from({ length: 28 }, (_, i) => `${n} line ${i} ${'z'.repeat(40)}`).join('\n'));
  // A summary is on offer after every turn: the scripted provider gives it only to a summary request.
  const turns = NAMES.flatMap((n) => [
    { calls: [{ name: 'read_file', args: { absolute_path: `{{workspace}}/${n}.txt` } }] },
    { text: `SUMMARY after ${n}: the files up to ${n} were read.`, purpose: 'compaction_summary' },
  ]);
  turns.push({ calls: [{ name: 'read_file', args: { absolute_path: '{{workspace}}/a.txt' } }] }, { text: 'Read all sixteen files.' } as never);
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
  fs.writeFileSync(
    path.join(dir, 'recipe.yaml'),
    'version: 1\nname: long-read\nprompt: read every file\nprovider: scripted\nscript: turns.yaml\nworkspace: ws\ntools: [read_file]\nconfirmation: { mode: auto-approve }\nlimits: { context_tokens: 6000 }\n',
  );
  out = path.join(dir, 'run');
  recorded = path.join(dir, 'recorded.jsonl');
  const r = await cli(['run', path.join(dir, 'recipe.yaml'), '--out', out, '--record', recorded]);
  expect(r.code, r.stderr).toBe(0);
  stderr = r.stderr;
});

describe('compaction through the CLI', () => {
  it('records compactions in the transcript and counts them in both reports, which `unattended report` rebuilds as written', async () => {
    const { report, reportMd, events } = readRun(out);
    const compactions = events.filter((e) => e.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ reason: 'threshold', window: 6000, summary: 'written' });
    expect(report).toMatchObject({ status: 'success', final_answer: 'Read all sixteen files.' });
    expect(report.compactions).toEqual({ total: compactions.length, summarized: compactions.length, after_context_error: 0 });
    expect(stderr).toMatch(/… context compacted \(the request neared the context window\): ~\d+ → ~\d+ tokens, older turns summarized/);
    expect(reportMd).toMatch(new RegExp(`\\| context compactions \\| ${compactions.length} \\(${compactions.length} summarized\\) \\|`));
    const rebuilt = tempDir();
    const json = await cliInProcess(['report', out, '--format', 'json', '--out', path.join(rebuilt, 'report.json')]);
    const md = await cliInProcess(['report', out, '--format', 'md', '--out', path.join(rebuilt, 'report.md')]);
    expect([json.code, md.code]).toEqual([0, 0]);
    expect(fs.readFileSync(path.join(rebuilt, 'report.json'), 'utf8')).toBe(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(fs.readFileSync(path.join(rebuilt, 'report.md'), 'utf8')).toBe(reportMd);
  });

  it('records the summary side requests, and a replay of the recording compacts alike', async () => {
    const lines = fs.readFileSync(recorded, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const summaries = lines.filter((l) => l.purpose === 'compaction_summary');
    expect(summaries.length).toBe(readRun(out).report.compactions.summarized);
    expect(summaries[0].text).toMatch(/^SUMMARY after /);
    const replay = path.join(tempDir(), 'replay');
    const r = await cliInProcess(['run', path.join(dir, 'recipe.yaml'), '--script', recorded, '--out', replay]);
    expect(r.code, r.stderr).toBe(0);
    const again = readRun(replay);
    expect(again.report.final_answer).toBe('Read all sixteen files.');
    expect(again.report.compactions).toEqual(readRun(out).report.compactions);
  });
});
