// A one-letter flag right before `--` (`-c -- "-add a test"`, `-m -- …`): yargs took `--` as the
// short flag's value (the long form takes none), so `-m --` sent a run to the model named "--" and
// `-c -- "-x"` read the words after `--` as flags. `--` ends the options after -c/-m/-p as after
// --continue/--model/--prompt.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { messageTexts, runInProcess } from './in-process.js';

afterAll(() => removeTempDirs());

describe('a one-letter flag before --', () => {
  it('-m -- is a missing model, refused before any model call, as --model -- is', async () => {
    const ws = tempDir('unattended-short-dashes-');
    for (const flag of ['-m', '--model']) {
      const r = await runInProcess(`unattended ${flag} -- "fix it" --out ${path.join(ws, `out${flag}`)}`, { cwd: ws });
      expect({ flag, code: r.code, requests: r.requests.length }).toEqual({ flag, code: 42, requests: 0 });
      expect(r.stderr).toContain('--model');
    }
  });

  it('-c -- "-add a test" continues the latest run with that prompt, as --continue -- does', async () => {
    const ws = tempDir('unattended-short-dashes-continue-');
    const env = { XDG_STATE_HOME: path.join(ws, '.state') };
    const first = await runInProcess('unattended -p "Write the code" --no-context', { cwd: ws, env });
    expect(first.code).toBe(0);
    const [firstRun] = fs.readdirSync(path.join(ws, '.unattended/runs'));
    const out = path.join(ws, 'second');
    const r = await runInProcess(`unattended --out ${out} -c -- "-add a test"`, { cwd: ws, env, replies: [{ text: 'Added.' }] });
    expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining('Unknown argument')]);
    const sent = messageTexts(r.requests[0]!.body);
    expect(sent[0]).toEqual({ role: 'user', text: 'Write the code' });
    expect(sent.at(-1)).toEqual({ role: 'user', text: '-add a test' });
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.continued_from.run_id).toBe(firstRun);
  });
});
