// The plain `run` parser (src/cli/run-argv.ts) against yargs with the CLI's own grammar: on every
// command line it accepts, it must give runCommand the same arguments yargs gives; everything else
// it must leave to yargs (null), including every line yargs rejects.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runOptions } from '../../src/cli/commands/run-options.js';
import { commandLine } from '../../src/cli/parser.js';
import { plainRunArgs } from '../../src/cli/run-argv.js';

/** The flags run-options.ts defines, as runCommand reads them (kebab-case). */
const FLAGS: string[] = [];
const recorder = {
  positional: () => recorder,
  option: (name: string) => (FLAGS.push(name), recorder),
};
runOptions(recorder as never);

/** What runCommand reads, or 'rejected' when yargs fails the line. */
async function viaYargs(argv: string[]): Promise<{ args: Record<string, unknown>; bare: boolean } | 'rejected'> {
  let failed = false;
  const { parser, bare } = commandLine(argv, () => (failed = true));
  const args = (await parser.parseAsync()) as Record<string, unknown>;
  if (failed || args._ === undefined || (args._ as unknown[]).join(' ') !== 'run') return 'rejected';
  return { args: pick(args), bare };
}

function pick(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { recipe: args.recipe, words: args.words ?? [] };
  for (const name of FLAGS) out[name] = args[name];
  return out;
}

const VALUES = ['a', 'two words', '', '5', '0', '12', '1.5', '-1', '1e3', '0x10', '07', 'true', 'false', 'gemini', 'openai', 'auto-approve', 'deny', 'json', 'off', 'k=v', 'a,b'];
const SPECIAL = ['--', '-', '--help', '-h', '--version', '-pX', '-p=x', '-pm', '--prompt=hi', '--param=a=1', '--maxTurns', '--tools=a,b', '--no-model', '--stream=false', '--no-stdin', '--no-context', '--context', '--bogus', 'recipe.yaml', 'fix the bug', 'run', 'validate'];

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomArgv(random: () => number): string[] {
  const pickOne = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const argv: string[] = random() < 0.6 ? ['run'] : [];
  const length = Math.floor(random() * 7);
  for (let i = 0; i < length; i++) {
    const r = random();
    if (r < 0.45) argv.push(`--${pickOne(FLAGS)}`, ...(random() < 0.8 ? [pickOne(VALUES)] : []));
    else if (r < 0.55) argv.push(pickOne(['-p', '-m']), pickOne(VALUES));
    else if (r < 0.7) argv.push(pickOne(VALUES));
    else if (r < 0.8) argv.push(`--${pickOne(FLAGS)}=${pickOne(VALUES)}`);
    else argv.push(pickOne(SPECIAL));
  }
  return argv;
}

describe('a plain run command line', () => {
  it.each([
    [['run', '--prompt', 'Rename', '--provider', 'gemini', '--model', 'gemini-2.5-flash', '--approval', 'auto-approve', '--out', '/tmp/o']],
    [['-p', 'fix the failing test', '--max-turns', '20', '--no-stream']],
    [['recipes/fix.yaml', '--param', 'issue=12', 'branch=main', '--allow', 'shell:npm test', '--check', 'npm test']],
    [['fix', 'the', 'bug', '--tools', 'read_file,grep,edit', '--sandbox', 'required']],
    [['run', '--prompt=hello', '--max-cost-usd', '0.5', '--output-format', 'json', '--fail-on-denial', '--no-context']],
    [[]],
  ])('is parsed without yargs, as yargs parses it: %j', async (argv) => {
    const plain = plainRunArgs(argv);
    expect(plain).not.toBeNull();
    expect({ args: pick(plain!.args as never), bare: plain!.bare }).toEqual(await viaYargs(argv));
  });

  it.each([
    [['run', '--prompt', 'a', '--prompt', 'b']],
    [['run', '--provider', 'bogus']],
    [['run', '--max-turns', '--prompt', 'x']],
    [['run', '--bogus']],
    [['-p']],
    [['run', '--help']],
    [['validate', 'x.yaml']],
    [['run', '--', '--prompt']],
  ])('is left to yargs when it is not plain: %j', (argv) => {
    expect(plainRunArgs(argv)).toBeNull();
  });

  it('agrees with yargs on 3,000 random command lines, and takes none that yargs rejects', async () => {
    const random = mulberry32(20261127);
    let taken = 0;
    const disagreements: unknown[] = [];
    for (let n = 0; n < 3000; n++) {
      const argv = randomArgv(random);
      const plain = plainRunArgs(argv);
      if (plain === null) continue;
      taken++;
      const yargs = await viaYargs(argv);
      const ours = { args: pick(plain.args as never), bare: plain.bare };
      if (!isDeepStrictEqual(ours, yargs)) disagreements.push({ argv, ours, yargs });
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
    // The generator leans to odd lines; a fair share must still be plain, or the check proves little.
    expect(taken).toBeGreaterThan(600);
    // ~6 s on a quiet machine; a loaded one has taken 40.
  }, 120_000);
});
