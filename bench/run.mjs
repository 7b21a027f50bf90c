// npm run bench: the rename scenario (grep, then read_file + edit on each of N files, then an
// answer: 2N+2 model turns) through the built CLI and the real @google/genai client, against a
// scripted endpoint that costs nothing, so what is measured is the runner: wall time, peak RSS,
// the bytes of the first request (fixed prompt + tool declarations), and `--version` start-up.
// Usage: node bench/run.mjs [N=100] [RUNS=3] [gemini|anthropic]. Targets (issue 2): wall <= 1.0 s,
// RSS <= 100 MB, first request <= 8 KB, --version <= 100 ms. `anthropic` drives the same scenario
// through the anthropic provider and the real @anthropic-ai/sdk against a scripted Messages API.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptedAnthropic } from './scripted-anthropic.mjs';
import { startScriptedGemini } from './scripted-gemini.mjs';

const n = Number(process.argv[2] ?? 100);
const runs = Number(process.argv[3] ?? 3);
const provider = process.argv[4] ?? 'gemini';
if (!['gemini', 'anthropic'].includes(provider)) throw new Error(`provider must be gemini or anthropic, got ${provider}`);
const PROVIDERS = {
  gemini: { start: startScriptedGemini, model: 'gemini-2.5-flash', env: (url) => ({ GEMINI_API_KEY: 'bench', GOOGLE_GEMINI_BASE_URL: url }) },
  anthropic: { start: startScriptedAnthropic, model: 'claude-sonnet-4-5', env: (url) => ({ ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: url }) },
};
const cli = path.resolve(import.meta.dirname, '../dist/cli/main.js');

function scenario(dir) {
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  const script = [{ calls: [{ name: 'grep', args: { pattern: 'oldName' } }] }];
  for (let i = 0; i < n; i++) {
    const file = path.join(ws, 'src', `mod${i}.ts`);
    const filler = Array.from({ length: 40 }, (_, j) => `export const filler${j} = ${i * 100 + j};`);
    fs.writeFileSync(file, [`// module ${i}`, `export function oldName${i}(x: number): number {`, `  return x * ${i} + 1;`, '}', ...filler, ''].join('\n'));
    script.push({ calls: [{ name: 'read_file', args: { absolute_path: file } }] });
    script.push({ calls: [{ name: 'edit', args: { file_path: file, old_string: `function oldName${i}(`, new_string: `function newName${i}(` } }] });
  }
  script.push({ text: `Renamed oldName* to newName* in ${n} files.` });
  execFileSync('git', ['init', '-q', '.'], { cwd: ws });
  return { ws, script };
}

async function once() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-bench-'));
  try {
    const { ws, script } = scenario(dir);
    const model = await PROVIDERS[provider].start(script);
    const timeFile = path.join(dir, 'time');
    // Asynchronous: the scripted model lives in this process and must keep answering.
    const run = await exec(
      '/usr/bin/time',
      ['-f', '%e %M', '-o', timeFile, process.execPath, cli, 'run', '--prompt', 'Rename every oldName function to newName.',
        '--provider', provider, '--model', PROVIDERS[provider].model, '--approval', 'auto-approve', '--out', path.join(dir, 'out')],
      { cwd: ws, env: { PATH: process.env.PATH, HOME: dir, ...PROVIDERS[provider].env(model.url) } },
    );
    await model.close();
    const [wall, rssKb] = fs.readFileSync(timeFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
    const edited = fs.readdirSync(path.join(ws, 'src')).filter((f) => fs.readFileSync(path.join(ws, 'src', f), 'utf8').includes('function newName')).length;
    if (run.status !== 0 || edited !== n) throw new Error(`run failed (exit ${run.status}, ${edited}/${n} edited)\n${run.stderr.slice(-2000)}`);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'));
    return { wall, rssMb: rssKb / 1024, firstRequest: model.requests[0].bytes, requests: model.requests.length, costUsd: report.usage.cost_usd ?? null };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function exec(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

function versionMs() {
  const samples = [];
  for (let i = 0; i < 10; i++) {
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, [cli, '--version']);
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return samples.sort((a, b) => a - b)[5];
}

const results = [];
for (let i = 0; i < runs; i++) results.push(await once());
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const line = {
  provider,
  files: n,
  turns: results[0].requests,
  wall_s: median(results.map((r) => r.wall)),
  peak_rss_mb: Number(median(results.map((r) => r.rssMb)).toFixed(1)),
  first_request_bytes: results[0].firstRequest,
  version_ms: Number(versionMs().toFixed(1)),
  cost_usd: results[0].costUsd,
};
console.log(`rename N=${line.files} (${provider}): ${line.turns} model turns, wall ${line.wall_s} s (median of ${runs}), peak RSS ${line.peak_rss_mb} MB, first request ${line.first_request_bytes} B, --version ${line.version_ms} ms, priced $${line.cost_usd}`);
console.log(JSON.stringify(line));
