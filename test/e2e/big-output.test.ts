// A command that prints megabytes: the model gets a head and tail with a note, tool-outputs/ keeps
// the whole of it (up to 1 MiB of head and of tail a stream, and says what it dropped past that),
// and the transcript holds what the model got, not megabytes per line.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

const print = (bytes: number) => `printf HEAD; head -c ${bytes} /dev/zero | tr '\\\\0' x; printf TAIL`;

describe('a shell command with a big output', () => {
  it('is saved whole for the person, cut for the model and the transcript', { timeout: 60_000 }, async () => {
    const ws = tempDir();
    const out = path.join(tempDir(), 'run');
    const script = path.join(tempDir(), 'turns.yaml');
    fs.writeFileSync(
      script,
      `turns:\n  - calls: [{ name: shell, args: { command: "${print(1_500_000)}" } }]\n  - calls: [{ name: shell, args: { command: "${print(5_000_000)}" } }]\n  - text: done\n`,
    );
    const r = await cliInProcess(['run', '--provider', 'scripted', '--script', script, '--workspace', ws, '--out', out, '--prompt', 'go', '--approval', 'auto-approve', '--sandbox', 'off']);
    expect(r.code).toBe(0);
    const { events } = readRun(out);
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results).toHaveLength(2);
    expect(results[0]!.llm_content).toMatch(/characters cut; the full output is saved at /);
    expect(results[1]!.llm_content).toMatch(/characters cut; all the tool kept of its output \(it says inside what it dropped\) is saved at /);
    for (const result of results) {
      expect(String(result.llm_content).length).toBeLessThan(41_000);
      expect(String(result.return_display).length).toBeLessThan(41_000);
    }
    // 1.5 MB: all of it, its middle too.
    const whole = fs.readFileSync(results[0]!.saved_output as string, 'utf8');
    expect(whole).toContain(`HEAD${'x'.repeat(1_500_000)}TAIL`);
    // 5 MB: the first and last MiB, and a line that says what is missing between them.
    const cut = fs.readFileSync(results[1]!.saved_output as string, 'utf8');
    expect(cut).toContain(`[… ${5_000_008 - 2 * 1024 * 1024} bytes cut: only the first 1 MiB and the last 1 MiB are kept …]`);
    expect(cut.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(cut).toMatch(/^Exit code: 0\nStdout:\nHEADx/);
    expect(cut).toMatch(/xTAIL$/);
  });

  it('binary output is described to the model and saved whole for the person', { timeout: 60_000 }, async () => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0, 5, 6, 7, 0, 0x80, 0x81, 0, 4]));
    const out = path.join(tempDir(), 'run');
    const script = path.join(tempDir(), 'turns.yaml');
    fs.writeFileSync(script, `turns:\n  - calls: [{ name: shell, args: { command: "echo before; cat blob.bin; echo; echo after" } }]\n  - text: done\n`);
    const r = await cliInProcess(['run', '--provider', 'scripted', '--script', script, '--workspace', ws, '--out', out, '--prompt', 'go', '--approval', 'auto-approve', '--sandbox', 'off']);
    expect(r.code).toBe(0);
    const result = readRun(out).events.find((e) => e.type === 'tool_result')!;
    const saved = result.saved_output as string;
    expect(path.dirname(saved)).toBe(path.join(out, 'tool-outputs'));
    expect(result.llm_content).toBe(`Exit code: 0\nStdout:\nbefore\n[binary output from line 2 on (30 bytes in all): not shown]\n[the whole output is saved at ${saved}]`);
    expect(fs.readFileSync(saved, 'utf8')).toMatch(/^Exit code: 0\nStdout:\nbefore\n\u0000\u0001\u0002\u0003[^]*\nafter$/);
  });
});

