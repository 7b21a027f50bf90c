// The run's own directory under a command that attacks it, with the real bubblewrap sandbox: a
// command that renames the directory's parent (the output directory itself is read-only, its
// parent was not) and makes a fake one with links in its place must neither lead the runner to
// write outside the workspace nor pass a record the command made as the run's. In the sandbox
// that parent cannot be renamed (sandbox/anchors.ts); without it, it can.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { makeRepo } from '../git/repos.js';
import { bwrapWorks, outsideDir, removeOutsideDirs } from './harness.js';

afterAll(removeTempDirs);

afterAll(removeOutsideDirs);

/** Lines enough for a tool output that is saved whole in tool-outputs/ (over 40,000 characters). */
const PADDING = "for i in $(seq 700); do echo '# padding padding padding padding padding padding padding'; done";

function turnsFile(dir: string, calls: Array<{ name: string; args: Record<string, unknown> }>): string {
  const file = path.join(dir, 'turns.yaml');
  fs.writeFileSync(file, YAML.stringify({ turns: [...calls.map((call) => ({ calls: [call] })), { text: 'done' }] }));
  return file;
}

describe.skipIf(!bwrapWorks)("the run's directory under attack", () => {
  it('cannot be swapped: .unattended is read-only and cannot be renamed, so no fake run directory or earlier run can be made', async () => {
    const dir = tempDir('unattended-sbx-');
    const ws = await makeRepo(path.join(dir, 'ws'), { a: 'hi\n' });
    const victim = outsideDir();
    const script = turnsFile(dir, [
      {
        name: 'shell',
        args: {
          command: `id=$(ls .unattended/runs) && mv .unattended .unattended.old && mkdir -p .unattended/runs/$id/tool-outputs && ln -s ${victim}/payload.sh .unattended/runs/$id/tool-outputs/call_3_0.txt && (echo 'echo RAN OUTSIDE THE SANDBOX'; ${PADDING}) > big.txt`,
        },
      },
      { name: 'shell', args: { command: `echo '{"type":"note"}' > .unattended.old/runs/*/transcript.jsonl; mkdir -p .unattended/runs/0-forged && echo '{"type":"run_start"}' > .unattended/runs/0-forged/transcript.jsonl; echo "forge exit $?"` } },
      // Output over the cap, saved under tool-outputs/ (read_file pages below the cap).
      { name: 'shell', args: { command: 'cat big.txt' } },
    ]);
    // The built CLI, as the probe ran it: the default output directory, under the workspace.
    const run = await cli(['run', '-p', 'x', '--provider', 'scripted', '--script', script, '--approval', 'auto-approve', '--sandbox', 'required', '--tools', 'shell,read_file'], { cwd: ws });
    expect(run.code, run.stderr).toBe(0);
    const ids = fs.readdirSync(path.join(ws, '.unattended/runs'));
    expect(ids).toHaveLength(1);
    const out = path.join(ws, '.unattended/runs', ids[0]!);
    const { events } = readRun(out);
    const outputs = events.filter((e) => e.type === 'tool_result').map((e) => String(e.llm_content));
    expect(outputs[0]).toMatch(/cannot move '\.unattended'.*Device or resource busy/);
    expect(outputs[1]).toMatch(/forge exit [1-9]/);
    expect(fs.existsSync(path.join(ws, '.unattended.old'))).toBe(false);
    expect(fs.readdirSync(victim)).toEqual([]);
    expect(run.stderr).toContain(`unattended: report ${out}/report.md`);
  });

  // Found by a probe: with --out elsewhere only that directory was held, and an earlier run's
  // transcript under the current directory's .unattended could be rewritten or deleted by a
  // command, though `--continue` takes its recipe, policy and sandbox from it.
  it("with --out elsewhere, the earlier runs under the current directory's .unattended stay read-only", async () => {
    const dir = tempDir('unattended-sbx-');
    const ws = await makeRepo(path.join(dir, 'ws'), { a: 'hi\n' });
    const first = await cli(['run', '-p', 'x', '--provider', 'scripted', '--script', turnsFile(dir, []), '--sandbox', 'required'], { cwd: ws });
    expect(first.code, first.stderr).toBe(0);
    const [id] = fs.readdirSync(path.join(ws, '.unattended/runs'));
    const transcript = path.join(ws, '.unattended/runs', id!, 'transcript.jsonl');
    const before = fs.readFileSync(transcript, 'utf8');
    const script = turnsFile(dir, [
      { name: 'shell', args: { command: `echo '{"type":"note"}' >> .unattended/runs/${id}/transcript.jsonl; echo "append exit $?"; rm -rf .unattended/runs/${id}; echo "rm exit $?"; mv .unattended gone; echo "mv exit $?"` } },
    ]);
    const out = path.join(dir, 'out');
    const run = await cli(['run', '-p', 'x', '--provider', 'scripted', '--script', script, '--approval', 'auto-approve', '--sandbox', 'required', '--tools', 'shell', '--out', out], { cwd: ws });
    expect(run.code, run.stderr).toBe(0);
    const output = String(readRun(out).events.find((e) => e.type === 'tool_result')?.llm_content);
    expect(output).toMatch(/append exit [1-9][\s\S]*rm exit [1-9][\s\S]*mv exit [1-9]/);
    expect(fs.readFileSync(transcript, 'utf8')).toBe(before);
  });

  // In the sandbox the parent of a custom --out cannot be renamed (sandbox/anchors.ts): see below.
  // Without it a command can, and the runner must still write only where it made the directory.
  it('moved with its parent (a custom --out in the workspace, no sandbox): files go to the directory the run made, never through links, and the run ends 54 saying so', async () => {
    const dir = tempDir('unattended-sbx-');
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    const out = path.join(ws, 'build/run');
    const real = path.join(ws, 'build.old/run');
    const victim = outsideDir();
    const script = turnsFile(dir, [
      {
        name: 'shell',
        args: {
          command: `mv build build.old && mkdir -p build/run/tool-outputs && ln -s ${victim}/payload.txt build/run/tool-outputs/call_3_0.txt && ln -s ${victim}/report.md build/run/report.md && (${PADDING}) > big.txt && echo moved`,
        },
      },
      // The directory the run made is writable where it now is: links there must not be followed either.
      { name: 'shell', args: { command: `ln -s ${victim}/report.json build.old/run/report.json && echo planted` } },
      // Output over the cap, saved under tool-outputs/ (read_file pages below the cap).
      { name: 'shell', args: { command: 'cat big.txt' } },
    ]);
    const recipe = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(recipe, YAML.stringify({ version: 1, prompt: 'x', provider: 'scripted', script, workspace: ws, tools: ['shell', 'read_file'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' } }));
    const run = await cliInProcess(['run', recipe, '--out', out]);

    expect(run.code, run.stderr).toBe(54);
    expect(fs.readdirSync(victim)).toEqual([]);
    const { report, events } = readRun(real);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => String(e.llm_content)).slice(0, 2).join('\n')).toMatch(/moved[\s\S]*planted/);
    expect(report).toMatchObject({ status: 'error', exit_code: 54, error_kind: 'io', final_answer: null });
    expect(report.error).toContain(`the run directory ${out} was moved during the run, to ${real}`);
    expect(report.warnings).toContain(report.error);
    expect(fs.lstatSync(path.join(real, 'report.json')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(real, 'tool-outputs/call_3_0.txt'), 'utf8')).toContain('# padding');
    // What the command made at the old path is left as it was, and named as not the run's.
    expect(fs.readdirSync(path.join(out)).sort()).toEqual(['report.md', 'tool-outputs']);
    expect(fs.readlinkSync(path.join(out, 'report.md'))).toBe(`${victim}/report.md`);
    expect(run.stderr).toContain(`unattended: report ${real}/report.md`);
    expect(run.stderr).toContain(`whatever is at ${out} now is not this run's`);
  });

  // A mount point cannot be renamed but its parent could: 'mv build build.old' carried the
  // read-only run directory away and left the path free for a fake one.
  it("in the sandbox, a custom --out's parent cannot be renamed: the run's directory stays where it was made", async () => {
    const dir = tempDir('unattended-sbx-');
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    const out = path.join(ws, 'build/run');
    const script = turnsFile(dir, [{ name: 'shell', args: { command: 'mv build build.old; echo "mv exit $?"; echo x > build/other.txt && echo wrote' } }]);
    const recipe = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(recipe, YAML.stringify({ version: 1, prompt: 'x', provider: 'scripted', script, workspace: ws, tools: ['shell'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'required' } }));
    const run = await cliInProcess(['run', recipe, '--out', out]);

    expect(run.code, run.stderr).toBe(0);
    const { report, events } = readRun(out);
    const output = String(events.find((e) => e.type === 'tool_result')?.llm_content);
    expect(output).toMatch(/mv exit [1-9]/);
    // The directory on the way stays writable.
    expect(output).toContain('wrote');
    expect(fs.existsSync(path.join(ws, 'build.old'))).toBe(false);
    expect(report).toMatchObject({ status: 'success' });
  });
});
