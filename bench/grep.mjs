// The grep tool over a big tree (issue 13): builds ~28,700 files / ~616 MB in memory (/dev/shm
// when there is one), then times, round by round, the tool through ripgrep, the tool with its
// JavaScript walk, plain `rg` and GNU `grep -r`, on a pattern found nowhere (every byte read) and
// on a common word (the 200-match cap stops it early). Prints min, median and max of each.
// Usage: node bench/grep.mjs [ROUNDS=5] [FILES=28700] [MEGABYTES=616]. Removes the tree after.
// The tool is bundled from src/ with esbuild on the fly, so no build is needed.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { makeGrepTree } from './grep-tree.mjs';

const rounds = Number(process.argv[2] ?? 5);
const files = Number(process.argv[3] ?? 28_700);
const megabytes = Number(process.argv[4] ?? 616);
const repo = path.resolve(import.meta.dirname, '..');
const scratch = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
const dir = fs.mkdtempSync(path.join(scratch, 'unattended-grep-bench-'));

function which(name) {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  return found || null;
}

async function loadTool() {
  // Bundled beside the project's node_modules: the tool requires its libraries (ignore, picomatch)
  // on first use, from dist/assets/ when built, else from the installed packages (src/util/assets.ts).
  const bundleDir = fs.mkdtempSync(path.join(repo, 'node_modules', '.grep-bench-'));
  process.on('exit', () => fs.rmSync(bundleDir, { recursive: true, force: true }));
  const entry = path.join(bundleDir, 'entry.ts');
  fs.writeFileSync(entry, `export { GrepTool } from ${JSON.stringify(path.join(repo, 'src/tools/builtin/grep.ts'))};\nexport { Workspace } from ${JSON.stringify(path.join(repo, 'src/util/workspace.ts'))};\n`);
  const out = path.join(bundleDir, 'tool.mjs');
  await build({ entryPoints: [entry], outfile: out, bundle: true, format: 'esm', platform: 'node', target: 'node20.19', logLevel: 'warning',
    banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" } });
  return import(out);
}

function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const f = (x) => `${(x / 1000).toFixed(2)}`;
  return `${f(sorted[0])} / ${f(sorted[Math.floor(sorted.length / 2)])} / ${f(sorted.at(-1))} s`;
}

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

/** CPU time of this process (worker threads included) and of its finished children, in ms. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // cutime and cstime: fields 16 and 17 of /proc/PID/stat, counted from the state (field 3).
  const children = (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  return (user + system) / 1000 + children;
}

try {
  const tree = path.join(dir, 'tree');
  fs.mkdirSync(tree);
  const made = makeGrepTree(tree, { files, megabytes });
  console.log(`tree: ${made.files} files, ${(made.bytes / 1e6).toFixed(0)} MB in ${tree}; ${os.availableParallelism()} cores; rounds: ${rounds}`);
  const { GrepTool, Workspace } = await loadTool();
  const rg = which('rg');
  const grep = which('grep');
  const ctx = (engine) => ({ workspace: Workspace.open(tree), env: { PATH: process.env.PATH ?? '' }, maxTimeoutMs: 60_000, grepEngine: engine });
  const tool = (engine) => async (pattern) => {
    const result = await new GrepTool(ctx(engine)).execute({ pattern }, new AbortController().signal);
    if (result.error) throw new Error(result.error.message);
    return result.llmContent;
  };
  const command = (file, args) => async () => {
    const r = spawnSync(file, args, { cwd: tree, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0 && r.status !== 1) throw new Error(`${file} exited with ${r.status}`);
  };
  const contenders = [
    ['grep tool, ripgrep', rg ? tool(undefined) : null],
    ['grep tool, JavaScript', tool('javascript')],
    ['rg -n', rg ? (p) => command(rg, ['-n', p])() : null],
    ['GNU grep -rIn', grep ? (p) => command(grep, ['-rIn', '--exclude-dir=.git', '--exclude-dir=node_modules', p, '.'])() : null],
  ].filter(([, run]) => run);
  for (const [label, pattern] of [['no match', 'NOT_ANYWHERE_AT_ALL'], ['common word (cap)', 'function']]) {
    const times = new Map(contenders.map(([name]) => [name, { wall: [], cpu: [] }]));
    for (let r = 0; r < rounds; r++) {
      for (const [name, run] of contenders) {
        const [started, cpu] = [performance.now(), cpuMs()];
        await run(pattern);
        times.get(name).wall.push(performance.now() - started);
        times.get(name).cpu.push(cpuMs() - cpu);
      }
    }
    console.log(`\n/${pattern}/ (${label}): min / median / max over ${rounds} rounds, wall and CPU (all threads and children)`);
    for (const [name, { wall, cpu }] of times) console.log(`  ${name.padEnd(24)} wall ${stats(wall)}   CPU ${stats(cpu)}`);
  }
  // The two engines must agree, or the figures compare different work.
  for (const pattern of ['NOT_ANYWHERE_AT_ALL', 'function', '(?i)RESULT = 12\\d']) {
    const [a, b] = [await tool(undefined)(pattern), await tool('javascript')(pattern)];
    if (rg && a !== b) throw new Error(`the engines disagree on /${pattern}/:\n${a.slice(0, 500)}\n---\n${b.slice(0, 500)}`);
  }
  console.log('\nboth engines gave identical answers');
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
