// The sandbox's cost: start-up of one sandboxed `true` (bwrap with the arguments a run uses, against
// a plain `true`), and a scripted run of N shell calls with the sandbox on and off (per-call cost).
// Usage: node bench/sandbox.mjs [N_CALLS=100] [RUNS=5]. Needs the build (dist/) and bwrap.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const calls = Number(process.argv[2] ?? 100);
const runs = Number(process.argv[3] ?? 5);
const cli = path.resolve(import.meta.dirname, '../dist/cli/unattended.cjs');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-sbx-bench-'));
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  execFileSync('git', ['init', '-q', '.'], { cwd: ws });
  return { dir, ws };
}

/** The bwrap arguments a run really uses here: read back from inside a sandbox (its pid 1). */
function realArgs() {
  const { dir, ws } = workspace();
  const turns = { turns: [{ calls: [{ name: 'shell', args: { command: "tr '\\0' '\\n' < /proc/1/cmdline" } }] }, { text: 'ok' }] };
  fs.writeFileSync(path.join(dir, 'turns.json'), JSON.stringify(turns));
  execFileSync(process.execPath, [cli, 'run', '--provider', 'scripted', '--script', path.join(dir, 'turns.json'), '--prompt', 'x', '--approval', 'auto-approve', '--workspace', ws, '--out', path.join(dir, 'out')], { stdio: 'ignore' });
  const result = fs.readFileSync(path.join(dir, 'out', 'transcript.jsonl'), 'utf8').split('\n').filter(Boolean).map(JSON.parse).find((e) => e.type === 'tool_result');
  const lines = String(result.llm_content).split('\n');
  const argv = lines.slice(lines.indexOf('Stdout:') + 1);
  const end = argv.indexOf('--');
  return { program: argv[0], args: argv.slice(1, end) };
}

function startup() {
  const { program, args } = realArgs();
  const time = (file, argv) => {
    const samples = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      spawnSync(file, argv, { stdio: 'ignore' });
      samples.push(performance.now() - t);
    }
    return median(samples);
  };
  const plain = time('true', []);
  const sandboxed = time(program, [...args, '--', 'true']);
  console.log(`sandboxed true: ${sandboxed.toFixed(1)} ms (plain true ${plain.toFixed(1)} ms; median of 200 spawns)`);
}

function shellRun(mode) {
  const { dir, ws } = workspace();
  const turns = { turns: [...Array.from({ length: calls }, (_, i) => ({ calls: [{ name: 'shell', args: { command: `true ${i}` } }] })), { text: 'done' }] };
  fs.writeFileSync(path.join(dir, 'turns.json'), JSON.stringify(turns));
  const t = performance.now();
  execFileSync(process.execPath, [cli, 'run', '--provider', 'scripted', '--script', path.join(dir, 'turns.json'), '--prompt', 'x', '--approval', 'auto-approve', '--workspace', ws, '--out', path.join(dir, 'out'), '--sandbox', mode], { stdio: 'ignore' });
  const ms = performance.now() - t;
  fs.rmSync(dir, { recursive: true, force: true });
  return ms;
}

startup();
const on = [];
const off = [];
for (let i = 0; i < runs; i++) {
  off.push(shellRun('off'));
  on.push(shellRun('auto'));
}
const [a, b] = [median(off), median(on)];
console.log(`${calls} shell calls: sandbox off ${(a / 1000).toFixed(2)} s, on ${(b / 1000).toFixed(2)} s (+${(((b - a) / calls)).toFixed(1)} ms a call, +${(((b - a) / a) * 100).toFixed(0)}%; medians of ${runs})`);
