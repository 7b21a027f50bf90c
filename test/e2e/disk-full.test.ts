// Issue 10 §6: the run's own files on a full disk. A real full file system (a small tmpfs mounted
// for the test; skipped, visibly, where mounting is not permitted) and /dev/full. Whatever fills
// up, the transcript holds only whole lines, no tool runs unrecorded, the run stops with exit 54
// naming the path, and report.json is either whole or absent (never 0 bytes). The real full file
// system is filled by the built CLI; /dev/full is given to the CLI's entry in process (the same
// code without a process start; test/project/exit-codes.test.ts gives it to the built CLI).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { smallDisk, unmountSmallDisks } from '../helpers/small-disk.js';

afterAll(removeTempDirs);

afterAll(unmountSmallDisks);

const canMount = (() => {
  const probe = smallDisk('16k');
  return probe !== null;
})();

interface Turn {
  calls?: Array<{ name: string; args: Record<string, unknown> }>;
  text?: string;
}

async function runScript(turns: Turn[], out: string, ws: string, flags: string[] = [], { builtCli = true } = {}) {
  const script = path.join(tempDir('unattended-script-'), 'turns.json');
  fs.writeFileSync(script, JSON.stringify({ turns }));
  // Unsandboxed: the commands fill a disk outside the workspace, which the sandbox would not let them write.
  return (builtCli ? cli : cliInProcess)(['run', '--provider', 'scripted', '--script', script, '--prompt', 'go', '--approval', 'auto-approve', '--workspace', ws, '--out', out, '--sandbox', 'off', ...flags]);
}

/** Every line of the transcript is a whole JSON event, numbered from 1 without a gap. */
function wholeLines(file: string): Array<Record<string, any>> {
  const text = fs.readFileSync(file, 'utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  const events = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, any>);
  events.forEach((e, i) => expect(e.seq).toBe(i + 1));
  return events;
}

function shell(command: string, description = 'step') {
  return { name: 'shell', args: { command, description } };
}

describe('the run outputs on a full disk', () => {
  it.skipIf(!canMount)('a tool call whose record does not fit never runs; whole lines, exit 54, a whole report', async () => {
    const disk = smallDisk('1m')!;
    const out = path.join(disk, 'run');
    const ws = tempDir('unattended-ws-');
    // Turn 1 fills the disk up to 5 pages; turn 2's call carries a description so long that its
    // record (args and description: twice the text) cannot fit in what is left, while the model's
    // turn that asks for it (the text once) can. Had it run, `ran-2` would exist.
    const fill = `avail=$(stat -f -c %a ${disk}); head -c $(( (avail - 5) * 4096 )) /dev/zero > ${disk}/filler; echo filled`;
    const padding = 'x'.repeat(9000);
    const run = await runScript([{ calls: [shell(fill)] }, { calls: [shell('touch ran-2', padding)] }, { calls: [shell('touch ran-3')] }, { text: 'done' }], out, ws);

    expect(run.code).toBe(54);
    expect(fs.existsSync(path.join(ws, 'ran-2'))).toBe(false);
    expect(fs.existsSync(path.join(ws, 'ran-3'))).toBe(false);
    expect(run.stderr).toContain(`cannot write the transcript ${path.join(out, 'transcript.jsonl')}`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const events = wholeLines(path.join(out, 'transcript.jsonl'));
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.args.command)).toEqual([fill]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', exit_code: 54, status: 'error' });
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'error', exit_code: 54 });
    expect(report.error).toContain('transcript.jsonl');
    expect(report.error).toMatch(/no space left/i);
  });

  it.skipIf(!canMount)('wherever the disk fills up: only whole lines, only recorded commands ran, report whole or absent', async () => {
    // Big results and small marker commands, turn after turn, on a disk too small for all of
    // them: wherever it fills up, a marker exists only if its call was recorded before it ran.
    const disk = smallDisk('64k')!;
    const out = path.join(disk, 'run');
    const ws = tempDir('unattended-ws-');
    const big = shell("head -c 12000 /dev/zero | tr '\\0' a; echo");
    const turns: Turn[] = [];
    for (let i = 0; i < 8; i++) turns.push({ calls: [big] }, { calls: [shell(`touch marker-${i}`)] });
    const run = await runScript([...turns, { text: 'done' }], out, ws);

    expect(run.code).toBe(54);
    const events = wholeLines(path.join(out, 'transcript.jsonl'));
    const recorded = new Set(events.filter((e) => e.type === 'tool_call').map((e) => e.args.command));
    const ran = fs.readdirSync(ws).filter((f) => f.startsWith('marker-'));
    expect(ran.length).toBeLessThan(8);
    for (const marker of ran) expect(recorded).toContain(`touch ${marker}`);
    for (const name of ['report.json', 'report.md']) {
      const file = path.join(out, name);
      if (fs.existsSync(file)) expect(fs.statSync(file).size).toBeGreaterThan(0);
      else expect(run.stderr).toContain(`cannot write ${file}`);
    }
    if (fs.existsSync(path.join(out, 'report.json'))) {
      expect(JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')).exit_code).toBe(54);
    }
    expect(run.stderr).toContain(`cannot write the transcript ${path.join(out, 'transcript.jsonl')}`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it.skipIf(!canMount)('workspace_mode: copy onto a disk too small for the copy: exit 54 saying so, and a whole report', async () => {
    const disk = smallDisk('1m')!;
    const out = path.join(disk, 'run');
    const root = tempDir('unattended-copy-full-');
    const ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'small.txt'), 'small\n');
    fs.writeFileSync(path.join(ws, 'big.bin'), Buffer.alloc(2 * 1024 * 1024, 1));
    const script = path.join(root, 'turns.json');
    fs.writeFileSync(script, JSON.stringify({ turns: [{ text: 'done' }] }));
    const recipe = path.join(root, 'copy.yaml');
    fs.writeFileSync(recipe, `version: 1\nname: copy\nprompt: go\nprovider: scripted\nscript: ${script}\nworkspace: ${ws}\nworkspace_mode: copy\ntools: [read_file]\nconfirmation: { mode: deny }\n`);
    const run = await cli(['run', recipe, '--out', out]);

    expect(run.code).toBe(54);
    expect(run.stderr).toContain(`cannot copy the workspace ${ws} to ${path.join(out, 'workspace')} (workspace_mode: copy): ENOSPC`);
    expect(run.stderr).not.toMatch(/unexpected error|\n\s+at /);
    // The part copied is taken away, which leaves room for the report.
    expect(fs.existsSync(path.join(out, 'workspace'))).toBe(false);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'error', exit_code: 54, error_kind: 'io' });
    expect(wholeLines(path.join(out, 'transcript.jsonl')).at(-1)).toMatchObject({ type: 'run_end', exit_code: 54 });
  });

  it('a run that succeeded but whose report cannot be written exits 54, not 0; stderr says so, run_end keeps the run\'s own status', async () => {
    const out = path.join(tempDir('unattended-noreport-'), 'run');
    const ws = tempDir('unattended-ws-');
    // A directory where report.json goes: the report's rename onto it fails, as on a full disk
    // (which needs a mount) or a read-only directory (which root writes anyway).
    const run = await runScript([{ calls: [shell(`mkdir ${out}/report.json`)] }, { text: 'done' }], out, ws);

    expect(run.code).toBe(54);
    expect(run.stderr).toContain(`cannot write ${path.join(out, 'report.json')}`);
    expect(run.stderr).toContain('unattended: exit 54: the run ended success (exit 0), as its transcript\'s run_end says, but its report could not be written');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(fs.statSync(path.join(out, 'report.json')).isDirectory()).toBe(true);
    expect(wholeLines(path.join(out, 'transcript.jsonl')).at(-1)).toMatchObject({ type: 'run_end', status: 'success', exit_code: 0 });
  });

  it('with --output-format json or stream-json, what stdout says of a run whose report cannot be written agrees with its exit 54', async () => {
    for (const format of ['json', 'stream-json']) {
      const out = path.join(tempDir('unattended-noreport-'), 'run');
      const run = await runScript([{ calls: [shell(`mkdir ${out}/report.json`)] }, { text: 'done' }], out, tempDir('unattended-ws-'), ['--output-format', format], { builtCli: false });
      expect(run.code, format).toBe(54);
      const lines = run.stdout.trim().split('\n');
      const printed = JSON.parse(format === 'json' ? run.stdout : lines.at(-1)!) as Record<string, any>;
      if (format === 'stream-json') {
        expect(printed).toMatchObject({ type: 'result', is_error: true, subtype: 'error_during_execution' });
        // The stream's run_end, which a script may read instead of the result, says the same.
        const end = JSON.parse(lines.at(-2)!) as Record<string, any>;
        expect(end).toMatchObject({ type: 'run_end', status: 'error', exit_code: 54, error_kind: 'io' });
        expect(end.error).toContain(`cannot write ${path.join(out, 'report.json')}`);
        expect(end.seq).toBe(printed.seq - 1);
      }
      expect(printed, format).toMatchObject({ status: 'error', exit_code: 54 });
      // The error says what happened to the run and why its report is missing.
      const error = format === 'json' ? printed.error : printed.errors[0];
      expect(error).toContain('the run ended success (exit 0)');
      expect(error).toContain(`cannot write ${path.join(out, 'report.json')}`);
      // The run's own record keeps its own status: its transcript's run_end.
      expect(wholeLines(path.join(out, 'transcript.jsonl')).at(-1)).toMatchObject({ type: 'run_end', status: 'success', exit_code: 0 });
    }
  });

  it('a transcript a tool removed is a record lost, as on a full disk: no further call runs, exit 54', async () => {
    // Its directory removed (an rm -rf of --out, a git clean -x of a workspace holding it), or only the file.
    for (const remove of ['rm -rf OUT', 'rm OUT/transcript.jsonl']) {
      const out = path.join(tempDir('unattended-removed-'), 'run');
      const ws = tempDir('unattended-ws-');
      const run = await runScript([{ calls: [shell(remove.replace('OUT', out))] }, { calls: [shell('touch ran-unrecorded')] }, { text: 'done' }], out, ws);

      expect({ remove, code: run.code }).toEqual({ remove, code: 54 });
      expect(fs.existsSync(path.join(ws, 'ran-unrecorded'))).toBe(false);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      if (remove.startsWith('rm -rf')) {
        expect(run.stderr).toContain(`the run directory ${out} was moved, removed or replaced during the run`);
      } else {
        expect(run.stderr).toContain(`cannot write the transcript ${path.join(out, 'transcript.jsonl')}: it was removed during the run`);
        expect(JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'))).toMatchObject({ status: 'error', exit_code: 54, error_kind: 'io' });
      }
    }
  });

  it('stderr points at the report that was written, not at a report.md that could not be', async () => {
    const out = path.join(tempDir('unattended-nomd-'), 'run');
    const ws = tempDir('unattended-ws-');
    const run = await runScript([{ calls: [shell(`mkdir ${out}/report.md`)] }, { text: 'done' }], out, ws);

    expect(run.code).toBe(54);
    expect(run.stderr).toContain(`cannot write ${path.join(out, 'report.md')}`);
    expect(run.stderr).not.toContain(`unattended: report ${path.join(out, 'report.md')}`);
    expect(run.stderr).toContain(`unattended: report ${path.join(out, 'report.json')}`);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'))).toMatchObject({ status: 'success', exit_code: 0 });
  });

  it('a transcript that can never be written (/dev/full): nothing runs, exit 54, the report says why', async () => {
    const out = path.join(tempDir('unattended-devfull-'), 'run');
    fs.mkdirSync(out);
    fs.symlinkSync('/dev/full', path.join(out, 'transcript.jsonl'));
    const ws = tempDir('unattended-ws-');
    const run = await runScript([{ calls: [shell('touch ran')] }, { text: 'done' }], out, ws, [], { builtCli: false });

    expect(run.code).toBe(54);
    expect(fs.existsSync(path.join(ws, 'ran'))).toBe(false);
    expect(run.stderr).toContain(`cannot write the transcript ${path.join(out, 'transcript.jsonl')}`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'error', exit_code: 54, error_kind: 'io' });
    expect(report.tool_calls.total).toBe(0);
  });

  it('stream-json still prints every event when the transcript cannot take them, ending with run_end and the result', async () => {
    const out = path.join(tempDir('unattended-devfull-'), 'run');
    fs.mkdirSync(out);
    fs.symlinkSync('/dev/full', path.join(out, 'transcript.jsonl'));
    const run = await runScript([{ calls: [shell('touch ran')] }, { text: 'done' }], out, tempDir('unattended-ws-'), ['--output-format', 'stream-json'], { builtCli: false });
    expect(run.code).toBe(54);
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
    expect(events[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect(events[1]!.type).toBe('run_start');
    expect(events.at(-2)).toMatchObject({ type: 'run_end', exit_code: 54, status: 'error' });
    expect(events.at(-1)).toMatchObject({ type: 'result', is_error: true, exit_code: 54 });
  });

  it.skipIf(!canMount)('with no room left for a report, the earlier report.json is kept as it was and stderr says why', async () => {
    const disk = smallDisk('1m')!;
    const out = path.join(disk, 'run');
    fs.mkdirSync(out);
    const earlier = '{"earlier": true}\n';
    const ws = tempDir('unattended-ws-');
    // A report.json appears meanwhile (an --out holding one is refused at the start), then every
    // page is filled (head stops at ENOSPC), then a result that cannot fit is asked for.
    const fill = shell(`printf '%s\\n' '{"earlier": true}' > ${out}/report.json; head -c 4M /dev/zero > ${out}/filler; true`);
    const big = shell("head -c 30000 /dev/zero | tr '\\0' a; echo");
    const run = await runScript([{ calls: [fill] }, { calls: [big] }, { calls: [shell('touch never')] }, { text: 'done' }], out, ws);
    expect(run.code).toBe(54);
    expect(fs.existsSync(path.join(ws, 'never'))).toBe(false);
    expect(fs.readFileSync(path.join(out, 'report.json'), 'utf8')).toBe(earlier);
    expect(run.stderr).toContain(`cannot write ${path.join(out, 'report.json')}`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    wholeLines(path.join(out, 'transcript.jsonl'));
  });

  // The run's last events, where the disk fills up between them. A file-size limit (bash's ulimit -f,
  // in KiB; dash counts 512-byte blocks) stands for the full disk: it fails a write at an exact size (EFBIG), so the limit can fall
  // between two events of a run measured once without it.
  async function runWithFileLimit(turns: Turn[], kib: number | null, flags: string[] = []) {
    const out = path.join(tempDir('unattended-fsize-'), 'run');
    const script = path.join(tempDir('unattended-script-'), 'turns.json');
    fs.writeFileSync(script, JSON.stringify({ turns }));
    const args = ['run', '--provider', 'scripted', '--script', script, '--prompt', 'go', '--approval', 'auto-approve', '--workspace', tempDir('unattended-ws-'), '--out', out, '--sandbox', 'off', ...flags];
    const limit = kib === null ? 'unlimited' : String(kib);
    const r = await execa('bash', ['-c', `ulimit -f ${limit}; exec "$0" "$@"`, process.execPath, CLI, ...args], { env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
    const lines = fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8').split('\n').filter(Boolean);
    return { code: r.exitCode, stderr: String(r.stderr), out, lines };
  }

  it("a tool's output too big to keep whole in tool-outputs/: exit 54 naming the file, not an unexpected error; nothing runs after", async () => {
    // The transcript gets the head and tail (small); the whole output (3 MB) is what does not fit.
    const big = { name: 'shell', args: { command: "head -c 3000000 /dev/zero | tr '\\0' a", description: 'big' } };
    const run = await runWithFileLimit([{ calls: [big] }, { calls: [shell('touch ran')] }, { text: 'done' }], 1000);
    expect(run.code).toBe(54);
    expect(run.stderr).toContain(`cannot write ${path.join(run.out, 'tool-outputs')}`);
    expect(run.stderr).not.toMatch(/unexpected error|\n\s+at /);
    const events = run.lines.map((line) => JSON.parse(line) as Record<string, any>);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.args.command)).toEqual([big.args.command]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'error', exit_code: 54, error_kind: 'io' });
    const report = JSON.parse(fs.readFileSync(path.join(run.out, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'error', exit_code: 54, error_kind: 'io' });
  });

  it("the same in a sub-agent: its fatal error ends the whole run (exit 54), not a failed task call the run goes on from", async () => {
    const big = { name: 'shell', args: { command: "head -c 3000000 /dev/zero | tr '\\0' a", description: 'big' } };
    const task = { name: 'task', args: { description: 'big', prompt: 'print it', tools: ['shell'] } };
    const run = await runWithFileLimit([{ calls: [task] }, { calls: [big] }, { text: 'sub done' }, { calls: [shell('touch ran')] }, { text: 'done' }], 1000, ['--tools', 'shell,task']);
    expect(run.code).toBe(54);
    expect(run.stderr).toContain(`cannot write ${path.join(run.out, 'tool-outputs')}`);
    const events = run.lines.map((line) => JSON.parse(line) as Record<string, any>);
    expect(events.find((e) => e.type === 'tool_result' && e.name === 'task')).toMatchObject({ error_type: 'fatal' });
    // A fatal tool error: status failed, exit 54 (README's status table).
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'failed', exit_code: 54 });
  });

  it("a run_end that does not fit: exit 54, and stderr does not claim the transcript's run_end says how the run ended", async () => {
    // A long answer makes run_end (which repeats it) the largest line; the report is smaller.
    const turns: Turn[] = [{ text: 'B'.repeat(3000) }];
    const measured = await runWithFileLimit(turns, null);
    expect(measured.code).toBe(0);
    const beforeRunEnd = measured.lines.slice(0, -1).reduce((n, line) => n + Buffer.byteLength(line) + 1, 0);
    expect(Buffer.byteLength(measured.lines.at(-1)!)).toBeGreaterThan(2048);

    const run = await runWithFileLimit(turns, Math.ceil((beforeRunEnd + 1) / 1024));
    expect(run.code).toBe(54);
    expect(run.lines.map((line) => JSON.parse(line).type).at(-1)).toBe('files_changed');
    expect(run.stderr).toContain(`unattended: exit 54: the run ended success (exit 0), as its report says, but its transcript's run_end could not be written (cannot write the transcript ${path.join(run.out, 'transcript.jsonl')}: EFBIG`);
    expect(run.stderr).not.toContain("as its transcript's run_end says");
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('a files_changed that does not fit: the run_end after it says error 54, not success', async () => {
    // The written file's diff makes files_changed large; run_end after it is small.
    const turns: Turn[] = [{ calls: [{ name: 'write_file', args: { file_path: '{{workspace}}/big.txt', content: `${'c'.repeat(3000)}\n` } }] }, { text: 'done' }];
    const measured = await runWithFileLimit(turns, null);
    expect(measured.code).toBe(0);
    const types = measured.lines.map((line) => JSON.parse(line).type);
    expect(types.slice(-2)).toEqual(['files_changed', 'run_end']);
    const beforeFilesChanged = measured.lines.slice(0, -2).reduce((n, line) => n + Buffer.byteLength(line) + 1, 0);
    expect(Buffer.byteLength(measured.lines.at(-2)!)).toBeGreaterThan(2048);
    expect(Buffer.byteLength(measured.lines.at(-1)!)).toBeLessThan(600);

    const run = await runWithFileLimit(turns, Math.ceil((beforeFilesChanged + 700) / 1024));
    expect(run.code).toBe(54);
    const last = JSON.parse(run.lines.at(-1)!);
    expect(run.lines.map((line) => JSON.parse(line).type).slice(-2)).toEqual(['model_response', 'run_end']);
    expect(last).toMatchObject({ type: 'run_end', status: 'error', exit_code: 54, error_kind: 'io' });
    expect(last.error).toContain('cannot write the transcript');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
