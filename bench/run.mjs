// npm run bench: the runner's performance figures, on work that costs the model nothing (a
// scripted endpoint on 127.0.0.1 answers every turn at once), so what is measured is the runner.
//
//   rename N=20 and N=100   grep, then read_file + edit on each of N files, then an answer
//                           (2N+2 model turns), through the built CLI and the gemini provider:
//                           wall, CPU (user+sys of the CLI), peak RSS, start-up to the first
//                           request, first request bytes, bytes sent, billed-equivalent bytes
//   per-turn CPU            the CPU the N=100 run spends beyond the N=20 run, per extra turn
//                           (start-up and the run's fixed costs cancel out)
//   the floor of a turn     bench/floor-client.mjs replays the N=100 run's request bodies with a
//                           bare Node.js loop (same HTTP exchange, file work and transcript lines,
//                           none of the runner's checks): what any Node runner pays per turn here
//   long run                2,000 model turns (read_file + edit, 50 files, 20 rounds each): RSS and
//                           (in a second run, with a full GC every half second) the heap it holds,
//                           request size sampled as it goes, their growth per 100 turns
//   --version               start-up of the smallest command
//   grep                    bench/grep.mjs, when it exists (the big-tree grep benchmark)
//
// Billed-equivalent bytes: what a provider with prefix caching bills, in bytes, with a cached byte
// at 0.25 of an uncached one, as `cache-cost.mjs --view=server` of the shared bench kit
// (../shared/bench, or BENCH_KIT=DIR) computes it; without the kit that figure is left out.
//
// Usage: node bench/run.mjs [--runs=3] [--provider=gemini|anthropic] [--only=rename,long,startup,grep]
//        [--long-turns=2000] [--keep-bodies=DIR]. --keep-bodies keeps the request bodies (gemini) of
//        the untimed rename run of each size in DIR/rename-N. BENCH_NODE_ARGS are node options for the CLI's process (e.g.
//        '--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the runs). The machine this is built on is shared: figures are medians of --runs
//        with the range beside them; compare builds by alternating runs, not across days.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startScriptedAnthropic } from './scripted-anthropic.mjs';
import { startScriptedGemini } from './scripted-gemini.mjs';

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    provider: { type: 'string', default: 'gemini' },
    only: { type: 'string', default: 'startup,rename,long,grep' },
    'long-turns': { type: 'string', default: '2000' },
    'keep-bodies': { type: 'string' },
  },
});
const runs = Number(opts.runs);
const only = new Set(opts.only.split(','));
const provider = opts.provider;
const PROVIDERS = {
  gemini: { start: startScriptedGemini, model: 'gemini-2.5-flash', env: (url) => ({ GEMINI_API_KEY: 'bench', GOOGLE_GEMINI_BASE_URL: url }) },
  anthropic: { start: startScriptedAnthropic, model: 'claude-sonnet-4-5', env: (url) => ({ ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: url }) },
};
if (!PROVIDERS[provider]) throw new Error(`--provider must be gemini or anthropic, got ${provider}`);
const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'dist/cli/unattended.cjs');
const kit = process.env.BENCH_KIT ?? path.resolve(root, '../shared/bench');
const cacheCost = path.join(kit, 'cache-cost.mjs');
const TIME = '/usr/bin/time';
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
// The runs after the first find the day's price answer (loading the table costs ~35 ms of the first
// turn) and the launcher's V8 code cache of this build beside the code (scripts/bin/code-cache.cjs:
// dist/cli/cache/, as this user owns the checkout), as a machine's runs after its first of the day
// do; they also share one cache home. One rename-100 run with neither says what a first run (a
// fresh CI job, or the first after an install) pays on top.
const sharedCache = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-bench-cache-'));
process.on('exit', () => fs.rmSync(sharedCache, { recursive: true, force: true }));

// ---------------------------------------------------------------- scenarios

function renameScenario(ws, n) {
  const script = [{ calls: [{ name: 'grep', args: { pattern: 'oldName' } }] }];
  for (let i = 0; i < n; i++) {
    const file = path.join(ws, 'src', `mod${i}.ts`);
    const filler = Array.from({ length: 40 }, (_, j) => `export const filler${j} = ${i * 100 + j};`);
    fs.writeFileSync(file, [`// module ${i}`, `export function oldName${i}(x: number): number {`, `  return x * ${i} + 1;`, '}', ...filler, ''].join('\n'));
    script.push({ calls: [{ name: 'read_file', args: { absolute_path: file } }] });
    script.push({ calls: [{ name: 'edit', args: { file_path: file, old_string: `function oldName${i}(`, new_string: `function newName${i}(` } }] });
  }
  script.push({ text: `Renamed oldName* to newName* in ${n} files.` });
  const check = () => {
    const edited = fs.readdirSync(path.join(ws, 'src')).filter((f) => fs.readFileSync(path.join(ws, 'src', f), 'utf8').includes('function newName')).length;
    return edited === n ? null : `${edited}/${n} files edited`;
  };
  return { script, check, prompt: 'Rename every oldName function to newName.' };
}

/** turns/2 read_file + edit pairs over 50 files, each edit bumping a counter: a long run of real work. */
function longScenario(ws, turns) {
  const files = 50;
  const pairs = Math.floor(turns / 2);
  for (let j = 0; j < files; j++) {
    const filler = Array.from({ length: 30 }, (_, k) => `export const filler${k} = ${j * 100 + k};`);
    fs.writeFileSync(path.join(ws, 'src', `mod${j}.ts`), [`// module ${j}`, `export const counter${j} = 0;`, ...filler, ''].join('\n'));
  }
  const script = [];
  for (let k = 0; k < pairs; k++) {
    const j = k % files;
    const round = Math.floor(k / files);
    const file = path.join(ws, 'src', `mod${j}.ts`);
    script.push({ calls: [{ name: 'read_file', args: { absolute_path: file } }] });
    script.push({ calls: [{ name: 'edit', args: { file_path: file, old_string: `counter${j} = ${round};`, new_string: `counter${j} = ${round + 1};` } }] });
  }
  script.push({ text: `Bumped the counters ${pairs} times.` });
  const check = () => {
    let total = 0;
    for (let j = 0; j < files; j++) total += Number(/counter\d+ = (\d+);/.exec(fs.readFileSync(path.join(ws, 'src', `mod${j}.ts`), 'utf8'))[1]);
    return total === pairs ? null : `counters sum to ${total}, expected ${pairs}`;
  };
  return { script, check, prompt: 'Bump every counter, one file at a time, until the script ends.', maxTurns: turns + 10 };
}

// ---------------------------------------------------------------- one run

/**
 * Runs the CLI through one scenario. Returns wall, cpu (s), peak RSS (MB), the time to the first
 * request (ms), request sizes, and RSS samples [{turn, mb}] (every `sampleEvery` requests).
 */
async function runOnce(makeScenario, { bodies = false, sampleEvery = 0, label = 'run', heapAfterGc = false, coldCache = false, floorFrom = null, cpuFrom = null } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-bench-'));
  try {
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    const { script, check, prompt, maxTurns } = makeScenario(ws);
    execFileSync('git', ['init', '-q', '.'], { cwd: ws });
    const bodiesDir = bodies ? path.join(dir, 'bodies') : undefined;
    if (bodiesDir) fs.mkdirSync(bodiesDir);
    let nodePid = null;
    let timePid = null;
    const rss = [];
    // The CLI's CPU (all its threads, from /proc) as requests arrive, from request `cpuFrom` on: the
    // CPU of the turns in between, with no start-up or exit in it, as floor-client.mjs counts its own.
    let cpuAtFrom = null;
    let cpuLast = null;
    const onRequest = ({ index }) => {
      if (cpuFrom !== null && index >= cpuFrom) {
        nodePid ??= childOf(timePid);
        const ticks = nodePid ? cpuTicks(nodePid) : null;
        if (index === cpuFrom) cpuAtFrom = ticks;
        cpuLast = ticks === null ? null : { index, ticks };
      }
      if (!sampleEvery || index % sampleEvery !== 0) return;
      nodePid ??= childOf(timePid);
      const mb = nodePid ? rssMb(nodePid) : null;
      if (mb !== null) rss.push({ turn: index + 1, mb });
    };
    const model = await PROVIDERS[provider].start(script, provider === 'gemini' ? { bodiesDir, onRequest } : undefined);
    const timeFile = path.join(dir, 'time');
    const heapLog = path.join(dir, 'heap.json');
    const heapArgs = heapAfterGc ? ['--expose-gc', '--require', path.join(import.meta.dirname, 'heap-after-gc.cjs')] : [];
    const started = performance.now();
    const argv = ['run', '--prompt', prompt, '--provider', provider, '--model', PROVIDERS[provider].model, '--approval', 'auto-approve', '--out', path.join(dir, 'out')];
    if (maxTurns) argv.push('--max-turns', String(maxTurns));
    const run = await exec(TIME, ['-f', '%e %M %U %S', '-o', timeFile, process.execPath, ...nodeArgs, ...heapArgs, cli, ...argv], {
      cwd: ws,
      env: { PATH: process.env.PATH, HOME: dir, XDG_CACHE_HOME: coldCache ? path.join(dir, 'cache') : sharedCache, ...(heapAfterGc ? { BENCH_HEAP_LOG: heapLog } : {}), ...PROVIDERS[provider].env(model.url) },
      onSpawn: (pid) => (timePid = pid),
    });
    await model.close();
    const [wall, rssKb, user, sys] = fs.readFileSync(timeFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
    const failed = check();
    if (run.status !== 0 || failed) throw new Error(`run failed (exit ${run.status}${failed ? `, ${failed}` : ''})\n${run.stderr.slice(-2000)}`);
    const sizes = model.requests.map((r) => r.bytes);
    return {
      loopCpuPerTurnMs: cpuAtFrom !== null && cpuLast && cpuLast.index > cpuFrom ? ((cpuLast.ticks - cpuAtFrom) * 1000) / CLOCK_TICKS / (cpuLast.index - cpuFrom) : null,
      floor: floorFrom !== null && bodiesDir ? await floorRun(makeScenario, ws, bodiesDir, path.join(dir, 'floor.jsonl'), floorFrom) : null,
      wall,
      cpu: user + sys,
      rssMb: rssKb / 1024,
      firstRequestMs: model.requests[0].at - started,
      turns: sizes.length,
      sizes,
      totalBytes: sizes.reduce((a, b) => a + b, 0),
      billed: bodiesDir ? billedBytes(bodiesDir) : null,
      rss,
      // [turn, MB] after a full GC: the turn is the number of requests the endpoint had by then.
      heap: heapAfterGc ? JSON.parse(fs.readFileSync(heapLog, 'utf8')).map(([t, bytes]) => [model.requests.filter((q) => q.epoch <= t).length, bytes / 1e6]) : [],
    };
  } finally {
    const bodiesDir = path.join(dir, 'bodies');
    if (opts['keep-bodies'] && fs.existsSync(bodiesDir)) {
      const keep = path.join(opts['keep-bodies'], label);
      fs.rmSync(keep, { recursive: true, force: true });
      fs.cpSync(bodiesDir, keep, { recursive: true });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * bench/floor-client.mjs over the bodies the CLI just sent, on the scenario's files written afresh:
 * the CPU per turn of a bare Node.js loop doing a turn's unavoidable work (see that file).
 */
async function floorRun(makeScenario, ws, bodiesDir, transcript, fromTurn) {
  const perTurn = [];
  for (let r = 0; r < runs; r++) {
    const { script } = makeScenario(ws);
    const model = await PROVIDERS.gemini.start(script);
    try {
      // Not execFileSync: the endpoint answers from this process's event loop.
      const out = await execStdout(process.execPath, [path.join(import.meta.dirname, 'floor-client.mjs'), model.url, bodiesDir, transcript, String(fromTurn)]);
      const { turns, cpu_ms_from } = JSON.parse(out);
      perTurn.push(cpu_ms_from / (turns - fromTurn));
    } finally {
      await model.close();
    }
  }
  return perTurn;
}

function execStdout(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (status) => (status === 0 ? resolve(stdout) : reject(new Error(`${path.basename(args[0])} exited ${status}`))));
  });
}

function exec(cmd, args, { onSpawn, ...opts }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'ignore', 'pipe'] });
    onSpawn?.(child.pid);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

/** The node process /usr/bin/time started (Linux /proc), or null. */
function childOf(pid) {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]) || null;
  } catch {
    return null;
  }
}

// USER_HZ: /proc counts CPU time in these (100 on every Linux this runs on).
const CLOCK_TICKS = 100;

/** utime + stime of a process, all its threads, in clock ticks (Linux /proc), or null. */
function cpuTicks(pid) {
  try {
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

function rssMb(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** billed_eq_025 of cache-cost.mjs --view=server, or null without the kit. */
function billedBytes(dir) {
  if (!fs.existsSync(cacheCost)) return null;
  const out = execFileSync(process.execPath, [cacheCost, dir, '--view=server'], { encoding: 'utf8' });
  return Number(/billed_eq_025=(\d+)/.exec(out)?.[1] ?? NaN);
}

/** `unattended --version` as installed (the bin, a CommonJS launcher), in the runs' bare environment. */
function versionMs() {
  const samples = [];
  const bin = path.join(root, 'dist/cli/unattended.cjs');
  for (let i = 0; i < 11; i++) {
    const t = performance.now();
    execFileSync(process.execPath, [bin, '--version'], { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    samples.push(performance.now() - t);
  }
  return median(samples);
}

// ---------------------------------------------------------------- figures

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs, digits = 2) => (xs.length > 1 ? ` (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})` : '');
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return num / den;
}

const summary = { provider };
const print = (line) => console.log(line);

if (only.has('startup')) {
  summary.version_ms = Number(versionMs().toFixed(1));
  print(`--version: ${summary.version_ms} ms (median of 11)`);
}

if (only.has('rename')) {
  const rename = {};
  // Warms the shared cache (see sharedCache). The code cache beside the code is written by the first
  // run of a build that exits, and holds what that run compiled: one left by a run that stopped
  // early (the test suite's refusals, a start-up measurement) made every run here compile the loop,
  // the tools and the provider again (~50 ms of CPU a run). This warm-up writes it again.
  fs.rmSync(path.join(root, 'dist/cli/cache'), { recursive: true, force: true });
  await runOnce((ws) => renameScenario(ws, 1), { label: 'warm-up' });
  // Alternating sizes, so a slow minute of a shared machine hits both.
  for (let r = 0; r < runs; r++) {
    for (const n of [20, 100]) {
      const result = await runOnce((ws) => renameScenario(ws, n), { label: `rename-${n}-r${r + 1}`, cpuFrom: n === 100 ? 2 * 20 + 2 : null });
      (rename[n] ??= []).push(result);
    }
  }
  // The bytes are the same in every run: one more run of each size, untimed, keeps the bodies for
  // the billed-equivalent figure (the endpoint writing 8 MB of bodies would slow the timed runs).
  // The N=100 one also replays its bodies through bench/floor-client.mjs: the floor of a turn.
  const billed = {};
  let floor = null;
  if (provider === 'gemini') {
    for (const n of [20, 100]) {
      const kept = await runOnce((ws) => renameScenario(ws, n), { bodies: true, label: `rename-${n}`, floorFrom: n === 100 ? rename[20][0].turns : null });
      billed[n] = kept.billed;
      floor = kept.floor ?? floor;
    }
  }
  for (const n of [20, 100]) {
    const rs = rename[n];
    const line = {
      turns: rs[0].turns,
      wall_s: median(rs.map((r) => r.wall)),
      cpu_s: median(rs.map((r) => r.cpu)),
      peak_rss_mb: Number(median(rs.map((r) => r.rssMb)).toFixed(1)),
      first_request_ms: Math.round(median(rs.map((r) => r.firstRequestMs))),
      first_request_bytes: rs[0].sizes[0],
      total_bytes: rs[0].totalBytes,
      billed_eq_bytes: billed[n] ?? null,
    };
    summary[`rename_${n}`] = line;
    print(
      `rename N=${n}: ${line.turns} turns, wall ${line.wall_s} s${spread(rs.map((r) => r.wall))}, CPU ${line.cpu_s.toFixed(2)} s${spread(rs.map((r) => r.cpu))}, ` +
        `peak RSS ${line.peak_rss_mb} MB, start-up to first request ${line.first_request_ms} ms${spread(rs.map((r) => r.firstRequestMs), 0)}, ` +
        `first request ${kb(line.first_request_bytes)}, sent ${mb(line.total_bytes)}, billed-eq ${line.billed_eq_bytes !== null ? mb(line.billed_eq_bytes) : provider !== 'gemini' ? 'n/a (gemini bodies only)' : 'n/a (no cache-cost.mjs; set BENCH_KIT)'}`,
    );
  }
  // The marginal CPU of a turn: start-up and the fixed costs of a run are in both and cancel out.
  const perTurn = [];
  for (let r = 0; r < runs; r++) perTurn.push(((rename[100][r].cpu - rename[20][r].cpu) * 1000) / (rename[100][r].turns - rename[20][r].turns));
  summary.cpu_per_turn_ms = Number(median(perTurn).toFixed(2));
  summary.cpu_per_turn_all_in_ms = Number(((summary.rename_100.cpu_s * 1000) / summary.rename_100.turns).toFixed(2));
  print(`CPU per turn: ${summary.cpu_per_turn_ms} ms${spread(perTurn)} (N=100 minus N=20, per extra turn); ${summary.cpu_per_turn_all_in_ms} ms all in (N=100 CPU / turns)`);
  const inLoop = rename[100].map((r) => r.loopCpuPerTurnMs).filter((x) => x !== null);
  if (inLoop.length) {
    summary.cpu_per_turn_in_loop_ms = Number(median(inLoop).toFixed(2));
    print(`CPU per turn inside the run: ${summary.cpu_per_turn_in_loop_ms} ms${spread(inLoop)} (turns ${rename[20][0].turns + 1}-${rename[100][0].turns} of N=100, read from /proc as the requests arrive)`);
  }
  if (floor !== null) {
    summary.floor_cpu_per_turn_ms = Number(median(floor).toFixed(2));
    print(`the floor of a turn: ${summary.floor_cpu_per_turn_ms} ms${spread(floor)} of CPU for a bare Node.js loop sending the same bodies and doing the same file work (bench/floor-client.mjs, turns ${rename[20][0].turns + 1}-${rename[100][0].turns} of N=100)`);
  }
  // A first run of this installation too: the caches the runs above left beside the code go (the next run writes them again).
  fs.rmSync(path.join(root, 'dist/cli/cache'), { recursive: true, force: true });
  const cold = await runOnce((ws) => renameScenario(ws, 100), { coldCache: true, label: 'rename-100-cold' });
  summary.rename_100_cold_cache = { wall_s: cold.wall, cpu_s: Number(cold.cpu.toFixed(2)) };
  print(`rename N=100, a first run (no price lookup or code cache yet): wall ${cold.wall} s, CPU ${cold.cpu.toFixed(2)} s (the runs above share a warm cache)`);
}

if (only.has('long') && provider === 'gemini') {
  const turns = Number(opts['long-turns']);
  const r = await runOnce((ws) => longScenario(ws, turns), { sampleEvery: 50 });
  // Growth after the first 200 turns: start-up, lazy loading and the JIT's warm-up are done by then.
  const late = r.rss.filter((s) => s.turn > 200);
  const rssGrowth = slope(late.map((s) => ({ x: s.turn, y: s.mb }))) * 100;
  const sizeGrowth = slope(r.sizes.map((y, i) => ({ x: i + 1, y })).filter((p) => p.x > 200)) * 100;
  summary.long = {
    turns: r.turns,
    wall_s: r.wall,
    cpu_per_turn_ms: Number(((r.cpu * 1000) / r.turns).toFixed(2)),
    peak_rss_mb: Number(r.rssMb.toFixed(1)),
    rss_mb_at: Object.fromEntries(r.rss.filter((s) => [201, 501, 1001, 1501].includes(s.turn) || s === r.rss.at(-1)).map((s) => [s.turn, Number(s.mb.toFixed(1))])),
    rss_growth_mb_per_100_turns: Number(rssGrowth.toFixed(2)),
    last_request_bytes: r.sizes.at(-1),
    request_growth_bytes_per_100_turns: Math.round(sizeGrowth),
    total_bytes: r.totalBytes,
  };
  // Once more with a full GC every half second (it slows the run, so its wall and RSS are not
  // reported): how the heap the run actually holds grows.
  const g = await runOnce((ws) => longScenario(ws, turns), { heapAfterGc: true });
  const heapLate = g.heap.filter(([turn]) => turn > 200).map(([x, y]) => ({ x, y }));
  summary.long.heap_after_gc_mb = { first: Number(g.heap[0][1].toFixed(1)), last: Number(g.heap.at(-1)[1].toFixed(1)) };
  summary.long.heap_growth_mb_per_100_turns = Number((slope(heapLate) * 100).toFixed(2));
  const l = summary.long;
  print(
    `long run: ${l.turns} turns, wall ${l.wall_s} s, CPU ${l.cpu_per_turn_ms} ms/turn, peak RSS ${l.peak_rss_mb} MB, RSS ${JSON.stringify(l.rss_mb_at)} MB by turn, ` +
      `+${l.rss_growth_mb_per_100_turns} MB per 100 turns; heap after a full GC ${l.heap_after_gc_mb.first} -> ${l.heap_after_gc_mb.last} MB, +${l.heap_growth_mb_per_100_turns} MB per 100 turns; ` +
      `last request ${kb(l.last_request_bytes)} (+${kb(l.request_growth_bytes_per_100_turns)} per 100 turns), sent ${mb(l.total_bytes)}`,
  );
}

// The big-tree grep benchmark lives in its own file; run it when it is there.
const grepBench = path.join(import.meta.dirname, 'grep.mjs');
if (only.has('grep') && fs.existsSync(grepBench)) {
  print('grep: bench/grep.mjs');
  execFileSync(process.execPath, [grepBench], { stdio: 'inherit' });
}

console.log(JSON.stringify(summary));
