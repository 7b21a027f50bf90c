// After a run's end the record is closed: an event that comes later (a tool call abandoned at a
// limit that finishes anyway) changes neither the transcript nor the report, and never reaches the
// file that took over the transcript's descriptor number. Seen in the suite, where runs share a
// worker process: a run that ended before its --timeout met the limit later, and its `limit` line
// became line 1 of the next run's transcript.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/report/redact.js';
import { TranscriptWriter } from '../../src/report/transcript.js';
import { RunOutputs } from '../../src/runner/run-outputs.js';
import type { RunEvent } from '../../src/types/events.js';
import { readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

const start: RunEvent = {
  type: 'run_start',
  run_id: 'r1',
  started_at: '2026-01-02T03:04:05.000Z',
  transcript: 'transcript.jsonl',
  recipe: null,
  recipe_name: 'x',
  provider: 'scripted',
  model: 'm',
  workspace: '/ws',
  prompt: 'go',
  tools: [],
  policy: { mode: 'deny', allow: [], deny: [] },
  limits: {},
} as unknown as RunEvent;
const end: RunEvent = {
  type: 'run_end',
  status: 'success',
  exit_code: 0,
  final_answer: 'done',
  error: null,
  error_kind: null,
  turns: 1,
  tool_calls: 0,
  usage: { input: 0, output: 0, total: 0 },
  duration_ms: 5,
};
const late: RunEvent = { type: 'warning', message: 'finished after the run' };

describe('after the end of a run', () => {
  it('a late event is not recorded, and the file that reuses the descriptor is left alone', () => {
    const dir = tempDir();
    const outputs = new RunOutputs(path.join(dir, 'out'), 'r1', new Redactor([]), 'json', { stdout: () => {}, stderr: () => {} }, () => {
      throw new Error('no write failure expected');
    });
    outputs.emit(start);
    outputs.emit(end);
    const report = outputs.finish();
    const transcript = fs.readFileSync(path.join(dir, 'out', 'transcript.jsonl'), 'utf8');
    // The lowest free numbers: those the run's directory and its transcript had, now closed.
    const others = [path.join(dir, 'other.txt'), path.join(dir, 'other2.txt')];
    const fds = others.map((file) => fs.openSync(file, 'w'));
    try {
      outputs.emit(late);
    } finally {
      fds.forEach((fd) => fs.closeSync(fd));
    }
    for (const other of others) expect(fs.readFileSync(other, 'utf8')).toBe('');
    expect(fs.readFileSync(path.join(dir, 'out', 'transcript.jsonl'), 'utf8')).toBe(transcript);
    expect(transcript.trim().split('\n').map((line) => JSON.parse(line).type)).toEqual(['run_start', 'run_end']);
    expect(outputs.finish()).toEqual(report);
    expect(outputs.transcriptFailure).toBeNull();
  });

  it('a closed transcript refuses to write rather than write to whatever has its old number', () => {
    const dir = tempDir();
    const writer = new TranscriptWriter(path.join(dir, 't.jsonl'), 'r1', new Redactor([]));
    writer.write(start);
    writer.close();
    const other = path.join(dir, 'other.txt');
    const fd = fs.openSync(other, 'w');
    try {
      expect(() => writer.write(late)).toThrow(/the transcript is closed \(a warning event came after the run's end\)/);
    } finally {
      fs.closeSync(fd);
    }
    expect(fs.readFileSync(other, 'utf8')).toBe('');
    writer.close();
  });

  it('a run that ends before its --timeout does not meet it later, in the files opened since', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'turns.json'), JSON.stringify({ turns: [{ text: 'done' }] }));
    const out = path.join(dir, 'out');
    const r = await cliInProcess(['run', '--provider', 'scripted', '--script', path.join(dir, 'turns.json'), '--prompt', 'hi', '--workspace', dir, '--out', out, '--timeout', '1s']);
    expect(r.code, r.stderr).toBe(0);
    // Files opened after the run take the lowest free numbers, the closed transcript's among them.
    const others = Array.from({ length: 16 }, (_, i) => path.join(dir, `other-${i}.txt`));
    const fds = others.map((file) => fs.openSync(file, 'w'));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_300));
    } finally {
      for (const fd of fds) fs.closeSync(fd);
    }
    for (const file of others) expect(fs.readFileSync(file, 'utf8'), file).toBe('');
    expect(readRun(out).events.map((e) => e.type).at(-1)).toBe('run_end');
  });
});
