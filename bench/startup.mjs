// Start-up to the first model request, per build: `node bench/startup.mjs [--runs=7] [CLI…]`
// (default: dist/cli/unattended.cjs). Each round runs every CLI given once, in turn, so a slow minute of a
// shared machine hits them all. To compare with another build, copy it with the package.json beside
// its dist/ (the CLI reads it from two levels above dist/cli/): `mkdir /tmp/b && cp -r dist
// package.json /tmp/b/`, then `node bench/startup.mjs dist/cli/unattended.cjs /tmp/b/dist/cli/unattended.cjs`.
//
// A run is `run --prompt hi --provider gemini --model gemini-2.5-flash --approval auto-approve`
// in a fresh git repository against bench/scripted-gemini.mjs, which answers at once. Figures at the
// first request, from bench/first-request-probe.cjs inside the CLI's process: CPU (user+sys, all
// threads) and wall since the process started, and the builtin modules loaded; and, as
// bench/run.mjs reports it, the wall from the spawn to the whole request at the endpoint. The CLI's
// environment is PATH, HOME, a shared XDG_CACHE_HOME and the provider's two variables only (no NODE_EXTRA_CA_CERTS, which
// costs every node start ~80 ms of CPU on a machine where it is set). `--list` prints the builtins
// of each CLI's last run.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startScriptedGemini } from './scripted-gemini.mjs';

const { values: opts, positionals } = parseArgs({ options: { runs: { type: 'string', default: '7' }, list: { type: 'boolean', default: false } }, allowPositionals: true });
const root = path.resolve(import.meta.dirname, '..');
const clis = positionals.length ? positionals.map((p) => path.resolve(p)) : [path.join(root, 'dist/cli/unattended.cjs')];
const probe = path.join(import.meta.dirname, 'first-request-probe.cjs');

async function runOnce(cli) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-startup-'));
  const model = await startScriptedGemini([{ text: 'Hello.' }]);
  try {
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    execFileSync('git', ['init', '-q', '.'], { cwd: ws });
    const out = path.join(dir, 'probe.json');
    const argv = ['run', '--prompt', 'hi', '--provider', 'gemini', '--model', 'gemini-2.5-flash', '--approval', 'auto-approve', '--out', path.join(dir, 'out')];
    const env = { PATH: process.env.PATH, HOME: dir, XDG_CACHE_HOME: cacheDir, GEMINI_API_KEY: 'bench', GOOGLE_GEMINI_BASE_URL: model.url, PROBE_OUT: out };
    const started = performance.now();
    const status = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--require', probe, cli, ...argv], { cwd: ws, env, stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (status !== 0) throw new Error(`${cli} exited ${status}`);
    // As bench/run.mjs measures it: from the spawn to the whole request at the endpoint.
    return { ...JSON.parse(fs.readFileSync(out, 'utf8')), fromSpawnMs: model.requests[0].at - started };
  } finally {
    await model.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// One cache directory for all runs (the launcher's code cache, the price table's), as a user's
// runs share ~/.cache; each CLI's first run, which fills it, is not counted.
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-startup-cache-'));
process.on('exit', () => fs.rmSync(cacheDir, { recursive: true, force: true }));
for (const cli of clis) await runOnce(cli);
const results = new Map(clis.map((cli) => [cli, []]));
for (let r = 0; r < Number(opts.runs); r++) for (const cli of clis) results.get(cli).push(await runOnce(cli));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const figure = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
for (const [cli, rs] of results) {
  console.log(
    `${cli}: ${rs.length} runs, to the first request: CPU ${figure(rs.map((r) => r.cpuMs))} ms, wall ${figure(rs.map((r) => r.wallMs))} ms ` +
      `(from the spawn to the request at the endpoint ${figure(rs.map((r) => r.fromSpawnMs))} ms), builtins ${figure(rs.map((r) => r.builtins.length))}`,
  );
  if (opts.list) console.log(`  ${rs.at(-1).builtins.join(' ')}`);
}
