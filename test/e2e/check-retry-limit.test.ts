// A success check failed with a retry left, and a limit then ended the run before the model
// answered again: the run ends `limit` (exit 53), as the limit did stop it, but its error names the
// failed check, or "limit reached: max_turns (1)" reads as unfinished work that had passed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

it('max_turns met while a failed check waits for its retry: exit 53, and the error says the check had failed', async () => {
  const dir = tempDir();
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(dir, 'turns.yaml'), 'turns:\n  - text: Fixed it.\n  - text: Fixed it again.\n');
  const out = path.join(dir, 'out');
  const check = 'echo boom; exit 3';
  const r = await cliInProcess(['run', '-p', 'fix it', '--provider', 'scripted', '--script', path.join(dir, 'turns.yaml'), '--workspace', ws, '--out', out, '--check', check, '--check-retries', '1', '--max-turns', '1']);
  expect(r.code, r.stderr).toBe(53);
  const { report, events } = readRun(out);
  expect(report.status).toBe('limit');
  expect(report.final_answer).toBeNull();
  expect(report.checks).toHaveLength(1);
  expect(report.error).toMatch(/^limit reached: max_turns \(1\), before the model answered again after its last answer was rejected \(success check failed: `echo boom; exit 3` exit 3\)$/);
  expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'limit', exit_code: 53, error: report.error });
  expect(r.stderr).toContain('success check failed');
});
