// The published package is self-contained: `npm pack` of the build, unpacked into a directory with
// no node_modules anywhere above it, runs the demo (the bash grammar's .wasm loads from the
// package), and a run through a real provider SDK prices its turns from the price table (the
// package's copy) and exports its spans with the OpenTelemetry SDK: every
// dependency a run loads at run time is inside the tarball. One pack, shared by the tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS } from '../../src/util/assets.js';
import { baseEnv, ROOT, readRun } from '../helpers/cli.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';

const MAX_INSTALL_BYTES = 15 * 1024 * 1024;

let dir: string;
let pkg: string;
let packedFiles: string[];

beforeAll(async () => {
  // Not under os.tmpdir()'s usual parents' node_modules either: a fresh directory nothing resolves from.
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-pack-')));
  // The build is already there (`npm test` builds first); --ignore-scripts skips `prepare`'s second build.
  // A code cache beside the code, as any run of this build leaves (under a name no launcher reads): never packed.
  const planted = path.join(ROOT, 'dist/cli/cache', `main-planted-by-the-package-test-${process.pid}.bin`);
  fs.mkdirSync(path.dirname(planted), { recursive: true, mode: 0o700 });
  fs.writeFileSync(planted, 'not a cache', { mode: 0o600 });
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, env: { ...process.env, npm_config_loglevel: 'error' } }).finally(() => fs.rmSync(planted, { force: true }));
  const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: Array<{ path: string }> }];
  packedFiles = info.files.map((f) => f.path);
  await execa('tar', ['xzf', path.join(dir, info.filename), '-C', dir]);
  pkg = path.join(dir, 'package');
}, 60_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The unpacked package's command (its package.json "bin"), in a clean environment, from the temp directory. */
function packagedCli(args: string[], env: Record<string, string> = {}) {
  const bin = (JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { bin: { unattended: string } }).bin.unattended;
  return execa(process.execPath, [path.join(pkg, bin), ...args], {
    cwd: dir,
    env: { ...baseEnv(), ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
}

function sizeOf(p: string): number {
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.size;
  return fs.readdirSync(p).reduce((sum, name) => sum + sizeOf(path.join(p, name)), 0);
}

describe('the published package', () => {
  it('declares no runtime dependency, carries its assets, and installs in at most 15 MB', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies']) {
      expect(Object.keys(manifest[field] ?? {}), field).toEqual([]);
    }
    for (const asset of Object.keys(ASSETS)) expect(packedFiles).toContain(`dist/assets/${asset}`);
    expect(packedFiles.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);
    // Runs of this build leave their V8 code cache in dist/cli/cache/ (one is planted above): never shipped.
    expect(packedFiles.filter((f) => f.startsWith('dist/cli/cache/'))).toEqual([]);
    expect(sizeOf(pkg)).toBeLessThanOrEqual(MAX_INSTALL_BYTES);
  });

  it('its command answers --version before loading the CLI, and exits with the run’s own code', async () => {
    const version = await packagedCli(['--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version);
    expect((await packagedCli(['validate', path.join(dir, 'missing.yaml')])).exitCode).toBe(52);
  });

  it('runs the demo from the unpacked tarball: the shell policy parses with the packaged grammar', async () => {
    const out = path.join(dir, 'demo-run');
    const r = await packagedCli(['run', path.join(pkg, 'recipes/demo.yaml'), '--out', out]);
    expect(r.stderr).not.toMatch(/Cannot find (module|package)|could not be loaded/);
    expect(r.exitCode).toBe(0);
    const { events } = readRun(out);
    const decisions = events.filter((e: any) => e.type === 'tool_call' && e.name === 'shell').map((e: any) => [e.args.command.split(' ')[0], e.decision.decision]);
    // `wc -l` is allowed only when the parser loaded (a parser that cannot load denies every command).
    expect(decisions).toEqual([['wc', 'allow'], ['curl', 'deny']]);
    expect(fs.readFileSync(path.join(out, 'workspace/README.md'), 'utf8')).toContain('receive');
  });

  describe('a provider SDK, the price table and telemetry from the package', () => {
    let anthropic: FakeAnthropic;
    let receiver: OtlpReceiver;
    beforeAll(async () => {
      anthropic = await startFakeAnthropic([{ text: 'Done.', usage: { input_tokens: 1000, output_tokens: 100 } }]);
      receiver = await startOtlpReceiver();
    });
    afterAll(async () => {
      await anthropic?.close();
      await receiver?.close();
    });

    it('prices the run from the packaged table and exports its spans', async () => {
      const out = path.join(dir, 'anthropic-run');
      const r = await packagedCli(['run', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--prompt', 'Say done.', '--workspace', dir, '--out', out], {
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: anthropic.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      });
      expect(r.stderr).not.toMatch(/Cannot find (module|package)/);
      expect(r.exitCode).toBe(0);
      const { report } = readRun(out);
      // claude-sonnet-4-5: $3 / Mtok input, $15 output, as the table has it.
      expect(report.usage.cost_usd).toBeCloseTo((1000 * 3 + 100 * 15) / 1e6, 8);
      expect(report.warnings.filter((w: string) => /telemetry|export/i.test(w))).toEqual([]);
      expect(receiver.spans.map((s) => s.name)).toContain('chat claude-sonnet-4-5');
    });

    it('talks to gemini and openai endpoints with the packaged SDKs', async () => {
      const gemini = await startFakeGemini([{ text: 'From gemini.' }]);
      const openai = await startFakeOpenAI([{ text: 'From openai.' }]);
      try {
        const viaGemini = await packagedCli(['run', '--prompt', 'Hi', '--workspace', dir, '--out', path.join(dir, 'gemini-run')], { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url });
        expect([viaGemini.exitCode, viaGemini.stdout.trim()], viaGemini.stderr).toEqual([0, 'From gemini.']);
        const viaOpenAI = await packagedCli(['run', '--provider', 'openai', '--model', 'qwen3', '--prompt', 'Hi', '--workspace', dir, '--out', path.join(dir, 'openai-run')], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: openai.url });
        expect([viaOpenAI.exitCode, viaOpenAI.stdout.trim()], viaOpenAI.stderr).toEqual([0, 'From openai.']);
      } finally {
        await gemini.close();
        await openai.close();
      }
    });
  });
});
