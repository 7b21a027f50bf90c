// --record FILE writes the model turns of a live run; --provider scripted --script FILE replays
// them offline, in another directory, to the same result.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeGemini, type FakeGemini } from '../helpers/fake-gemini.js';

afterAll(removeTempDirs);

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('record and replay', () => {
  it.each(['turns.jsonl', 'turns.yaml'])('replays a recorded Gemini run offline on a fresh workspace (--record %s)', async (name) => {
    const live = await fixtureWorkspace('rename');
    fake = await startFakeGemini([
      { calls: [{ name: 'read_file', args: { absolute_path: path.join(live, 'src/math.js') } }], usage: { input: 500, output: 10 } },
      {
        calls: [{ name: 'edit', args: { file_path: path.join(live, 'src/math.js'), old_string: 'addNumbers', new_string: 'sum' } }],
        usage: { input: 600, output: 20 },
      },
      { text: 'Renamed addNumbers to sum.', usage: { input: 700, output: 8 } },
    ]);
    const record = path.join(tempDir(), name);
    const first = await cli(['run', '--prompt', 'Rename', '--approval', 'auto-approve', '--workspace', live, '--record', record, '--out', path.join(tempDir(), 'a')], {
      env: { GEMINI_API_KEY: 'test-key-123456', GOOGLE_GEMINI_BASE_URL: fake.url },
    });
    expect(first.code).toBe(0);
    const recorded = fs.readFileSync(record, 'utf8');
    expect(recorded.trim().split('\n')).toHaveLength(3);
    expect(recorded).toContain('{{workspace}}/src/math.js');
    expect(recorded).not.toContain(live);

    const replayWs = await fixtureWorkspace('rename');
    const out = path.join(tempDir(), 'b');
    const second = await cliInProcess(['run', '--prompt', 'Rename', '--approval', 'auto-approve', '--workspace', replayWs, '--provider', 'scripted', '--script', record, '--out', out]);
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe('Renamed addNumbers to sum.');
    expect(fs.readFileSync(path.join(replayWs, 'src/math.js'), 'utf8')).toContain('export function sum(a, b)');
    expect(readRun(out).report).toMatchObject({ status: 'success', turns: 3, usage: { input: 1800, output: 38 } });
  });

  it('refuses --record naming the recipe or its script, or a directory (exit 42), and leaves them whole', async () => {
    const dir = tempDir();
    const recipe = path.join(dir, 'r.yaml');
    const script = path.join(dir, 's.jsonl');
    const recipeText = 'version: 1\nprovider: scripted\nscript: s.jsonl\nprompt: hi\nconfirmation: {mode: deny}\n';
    fs.writeFileSync(recipe, recipeText);
    fs.writeFileSync(script, '{"text":"hi"}\n');
    fs.symlinkSync('r.yaml', path.join(dir, 'link.yaml'));
    fs.mkdirSync(path.join(dir, 'sub'));
    for (const [record, message] of [
      ['r.yaml', /--record r\.yaml is the recipe itself/],
      ['link.yaml', /--record link\.yaml is the recipe itself \(through a link/],
      ['s.jsonl', /--record s\.jsonl is the script itself/],
      ['sub', /--record sub is a directory/],
    ] as const) {
      const r = await cliInProcess(['run', 'r.yaml', '--record', record, '--out', path.join(tempDir(), 'o')], { cwd: dir });
      expect(r.code, record).toBe(42);
      expect(r.stderr, record).toMatch(message);
      expect(fs.readFileSync(recipe, 'utf8')).toBe(recipeText);
      expect(fs.readFileSync(script, 'utf8')).toBe('{"text":"hi"}\n');
      // Recording over the script is how one would refresh it: the refusal says how to do that
      // without losing it, not only to pick another name.
      if (record === 's.jsonl') expect(r.stderr).toContain(`to record it again, name a new file with --record FILE and move it over ${script} once the run has ended as it should`);
    }
  });

  it('refuses --record naming a FIFO or a device, or a link to one (exit 42), and leaves it as it was: run as root, /dev/full was replaced by a regular file', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 's.jsonl'), '{"text":"hi"}\n');
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    fs.symlinkSync('pipe', path.join(dir, 'to-pipe'));
    for (const record of ['pipe', 'to-pipe']) {
      const r = await cliInProcess(['run', '--provider', 'scripted', '--script', 's.jsonl', '--prompt', 'hi', '--record', record, '--out', path.join(tempDir(), 'o')], { cwd: dir });
      expect(r.code, record).toBe(42);
      expect(r.stderr, record).toMatch(new RegExp(`--record ${record} is a FIFO, not a regular file`));
      expect(fs.lstatSync(path.join(dir, 'pipe')).isFIFO()).toBe(true);
      expect(fs.lstatSync(path.join(dir, 'to-pipe')).isSymbolicLink()).toBe(true);
    }
  });

  it('a --record file that can no longer be written mid-run (disk full; here a directory in its place): exit 54 naming it, not a model failure', async () => {
    const dir = tempDir();
    const record = path.join(dir, 'rec.jsonl');
    const turns = [{ calls: [{ name: 'shell', args: { command: `rm ${record} && mkdir ${record}` } }] }, { text: 'done' }];
    fs.writeFileSync(path.join(dir, 's.jsonl'), turns.map((t) => JSON.stringify(t)).join('\n'));
    const out = path.join(tempDir(), 'o');
    const ws = tempDir();
    const r = await cliInProcess(['run', '--provider', 'scripted', '--script', 's.jsonl', '--prompt', 'go', '--approval', 'auto-approve', '--sandbox', 'off', '--workspace', ws, '--record', record, '--out', out], { cwd: dir });
    expect(r.code).toBe(54);
    expect(r.stderr).toContain(`cannot write --record ${record}`);
    expect(r.stderr).not.toContain('model call failed');
    expect(readRun(out).report).toMatchObject({ status: 'error', exit_code: 54, error_kind: 'io' });
  });

  it("refuses --record naming the run's own transcript or report, the transcript it continues, or a flag's file, and leaves them whole", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'r.yaml'), 'version: 1\nprovider: scripted\nscript: s.jsonl\nprompt: hi\nconfirmation: {mode: deny}\n');
    fs.writeFileSync(path.join(dir, 's.jsonl'), '{"text":"hi"}\n{"text":"again"}\n');
    const mcp = '{"mcpServers": {}}';
    fs.writeFileSync(path.join(dir, 'mcp.json'), mcp);
    const first = await cliInProcess(['run', 'r.yaml', '--out', 'first'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const earlier = fs.readFileSync(path.join(dir, 'first/transcript.jsonl'), 'utf8');
    for (const [args, message] of [
      [['run', 'r.yaml', '--out', 'own', '--record', 'own/transcript.jsonl'], /--record own\/transcript\.jsonl is the run's own transcript itself/],
      [['run', 'r.yaml', '--out', 'own2', '--record', 'own2/report.md'], /--record own2\/report\.md is the run's own report itself/],
      [['run', '--continue', 'first', '-p', 'more', '--out', 'next', '--record', 'first/transcript.jsonl'], /--record first\/transcript\.jsonl is the earlier run's transcript itself/],
      [['run', 'r.yaml', '--mcp-config', 'mcp.json', '--out', 'm', '--record', 'mcp.json'], /--record mcp\.json is the --mcp-config file itself/],
    ] as const) {
      const r = await cliInProcess([...args], { cwd: dir });
      expect([r.code, r.stderr], args.join(' ')).toEqual([42, expect.stringMatching(message)]);
    }
    expect(fs.readFileSync(path.join(dir, 'first/transcript.jsonl'), 'utf8')).toBe(earlier);
    expect(fs.readFileSync(path.join(dir, 'mcp.json'), 'utf8')).toBe(mcp);
  });

  it('refuses --record in a directory it cannot create (exit 42, a user error), and returns on /proc', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'r.yaml'), 'version: 1\nprovider: scripted\nscript: s.jsonl\nprompt: hi\nconfirmation: {mode: deny}\n');
    fs.writeFileSync(path.join(dir, 's.jsonl'), '{"text":"hi"}\n');
    fs.writeFileSync(path.join(dir, 'afile'), '');
    // Under a file: was 'unexpected error: ENOTDIR' (exit 1). Under /proc: mkdir's recursive mode
    // never returned, and the run spun a core until killed.
    const cases: Array<[string, RegExp]> = [[path.join('afile', 'sub', 't.jsonl'), /--record afile\/sub\/t\.jsonl: cannot create its directory .*afile\/sub \(ENOTDIR\)/]];
    if (fs.existsSync('/proc/self')) cases.push(['/proc/no-such-dir/t.jsonl', /--record \/proc\/no-such-dir\/t\.jsonl: cannot create its directory \/proc\/no-such-dir \(ENOENT\)/]);
    for (const [record, message] of cases) {
      const r = await cli(['run', 'r.yaml', '--record', record, '--out', path.join(tempDir(), 'o')], { cwd: dir, timeoutMs: 15_000 });
      expect(r.code, record).toBe(42);
      expect(r.stderr, record).toMatch(message);
      expect(r.stderr).not.toMatch(/unexpected error/);
    }
  }, 40_000);
});
