// A flag that takes one value, given twice, is an input error naming the flag, in every command;
// a repeatable flag (declared `array`, "(repeatable)" in the help) given twice still works. The
// flags are read from the grammar itself (parser.ts), so a flag added later is covered too. Most
// cases run in process (runCli); the first ones on the built CLI, which is what ships.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-names.js';
import { commandLine } from '../../src/cli/parser.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

/** Each command, with the words its required positionals and flags need to parse. */
const COMMAND_LINES: string[][] = [
  ['run', 'missing.yaml'],
  ['validate', 'missing.yaml'],
  ['tools', 'missing.yaml'],
  ['policy', 'check', 'missing.yaml', '--tool', 'shell'],
  ['convert', 'missing.yaml'],
  ['report', 'missing-run'],
  ['batch', 'missing.yaml'],
  ['batch', 'matrix', '--targets', 'missing.txt', '--shards', '2'],
  ['batch', 'merge', 'missing-dir'],
  ['batch', 'status', 'missing-dir'],
];

interface Flag {
  name: string;
  kind: 'string' | 'number' | 'boolean' | 'choices' | 'array';
  choices: string[];
}

/** The flags yargs holds for the command `line` selects, captured as its own middleware sees them. */
async function flagsOf(line: string[]): Promise<Flag[]> {
  let seen: any;
  const { parser } = commandLine([...line, '--help'], () => {});
  const capture = (_argv: unknown, instance: any) => void (seen = instance.getOptions());
  parser.middleware(capture as never, true);
  parser.help(false).version(false);
  await parser.parseAsync(line).catch(() => {});
  const flags: Flag[] = [];
  // A long alias (`--jobs` of `--concurrency`) is the flag it names, and is refused by that name.
  const aliases = new Set(Object.values(seen.alias as Record<string, string[]>).flat());
  for (const name of Object.keys(seen.key)) {
    // -p, -m, -c: the long names they stand for are checked.
    if (name === 'help' || name === 'version' || name.length === 1 || aliases.has(name)) continue;
    const kind = seen.array.includes(name) ? 'array' : seen.boolean.includes(name) ? 'boolean' : seen.choices[name] ? 'choices' : seen.number.includes(name) ? 'number' : 'string';
    flags.push({ name, kind, choices: seen.choices[name] ?? [] });
  }
  return flags;
}

/** Every command line of COMMAND_LINES with each of its flags that `keep` takes. */
async function flagCases(keep: (flag: Flag) => boolean): Promise<Array<{ line: string[]; flag: Flag }>> {
  const cases: Array<{ line: string[]; flag: Flag }> = [];
  for (const line of COMMAND_LINES) for (const flag of await flagsOf(line)) if (keep(flag)) cases.push({ line, flag });
  return cases;
}

function twice(flag: Flag): string[] {
  const name = `--${flag.name}`;
  if (flag.kind === 'boolean') return [name, `--no-${flag.name}`];
  if (flag.kind === 'number') return [name, '1', name, '2'];
  if (flag.kind === 'choices') return [name, flag.choices[0]!, name, flag.choices[0]!];
  return [name, 'x1', name, 'x2'];
}

let cwd: string;
beforeAll(() => {
  cwd = tempDir('unattended-repeated-');
  fs.writeFileSync(path.join(cwd, 'ok.yaml'), 'version: 1\nprompt: hi\nprovider: gemini\nconfirmation: {mode: deny}\n');
});
afterAll(() => removeTempDirs());

describe('a single-value flag given twice', () => {
  it('is refused by the built CLI, naming the flag, before anything runs', async () => {
    for (const args of [
      ['run', 'ok.yaml', '--out', 'a', '--out', 'b'],
      ['run', 'ok.yaml', '-m', 'x', '--model', 'y'],
      ['report', 'missing-run', '--out', 'x1', '--out', 'x2'],
    ]) {
      const r = await cli(args, { cwd });
      const flag = args.includes('--model') ? '--model' : '--out';
      expect({ args, code: r.code, stderr: r.stderr.split('\n')[0] }).toEqual({ args, code: 42, stderr: `unattended: ${flag} was given twice: give it once` });
    }
    expect(fs.readdirSync(cwd).sort()).toEqual(['ok.yaml']);
  });

  it('is refused in every command, for every flag the grammar declares to take one value', async () => {
    const commands = new Set(COMMAND_LINES.map((line) => line[0]));
    expect([...COMMANDS].filter((c) => c !== 'completion' && !commands.has(c))).toEqual([]);
    const wrong: unknown[] = [];
    const cases = await flagCases((flag) => flag.kind !== 'array');
    for (const { line, flag } of cases) {
      const args = [...line, ...twice(flag)];
      const r = await cliInProcess(args, { cwd });
      // A positional given as a flag too (`report RUN --source X --source Y`) is three values.
      const expected = new RegExp(`^unattended: --${flag.name} was given (twice|3 times): give it once$`);
      if (r.code !== 42 || !expected.test(r.stderr)) wrong.push({ args, code: r.code, stderr: r.stderr });
    }
    expect(wrong).toEqual([]);
    expect(cases.length).toBeGreaterThan(50);
    expect(fs.readdirSync(cwd).sort()).toEqual(['ok.yaml']);
  });

  it('three times is refused too; a bare prompt line as well', async () => {
    expect((await cliInProcess(['run', '--max-turns', '1', '--max-turns', '2', '--max-turns', '3'], { cwd })).stderr).toBe('unattended: --max-turns was given 3 times: give it once');
    expect((await cliInProcess(['-p', 'a', '--prompt', 'b'], { cwd })).stderr).toBe('unattended: --prompt was given twice: give it once');
  });
});

describe('a repeatable flag given twice', () => {
  it('is taken, in every command that has one', async () => {
    const wrong: unknown[] = [];
    const cases = await flagCases((flag) => flag.kind === 'array');
    for (const { line, flag } of cases) {
      const args = [...line, `--${flag.name}`, 'k=1', `--${flag.name}`, 'k2=2'];
      const r = await cliInProcess(args, { cwd });
      if (/given twice|unexpected error/.test(r.stderr) || r.code === 1) wrong.push({ args, code: r.code, stderr: r.stderr });
    }
    expect(wrong).toEqual([]);
    // --param (run, tools, policy check, batch), --allow, --deny, --check, --tools, --mcp-config, --topic.
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });
});

describe('--no- on a flag that takes a value', () => {
  it('is an input error naming the flag, in every command (yargs would hand the command `false` for a path or a name)', async () => {
    const wrong: string[] = [];
    const cases = await flagCases((flag) => flag.kind !== 'boolean');
    for (const { line, flag } of cases) {
      const r = await cliInProcess([...line, `--no-${flag.name}`], { cwd });
      const said = r.stderr.split('\n').filter((l) => l.startsWith('unattended: ')).join(' | ');
      if (r.code !== 42 || !said.includes(`--no-${flag.name}: --${flag.name} takes a value`)) wrong.push(`${line.join(' ')} --no-${flag.name}: exit ${r.code}, ${said}`);
    }
    expect(wrong).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });
});

describe('a command missing what it needs', () => {
  it.each([
    [['report'], 'Missing required argument: source', 'unattended report --help'],
    [['batch', 'status'], 'Missing required argument: dir', 'unattended batch status --help'],
    [['convert'], 'Missing required argument', 'unattended convert --help'],
    // yargs' own words here were 'Not enough non-option arguments: got 0, need at least 1'.
    [['validate'], 'validate needs the recipe file(s) to check: unattended validate RECIPE.yaml', 'unattended validate --help'],
    [['batch'], 'batch needs the recipe to run on every target: unattended batch RECIPE.yaml --targets FILE', 'unattended batch --help'],
    [['batch', 'merge'], 'batch merge needs the batch directories to combine', 'unattended batch merge --help'],
    [['batch', '--dry-run'], 'batch needs the recipe to run on every target', 'unattended batch --help'],
  ])('%j says so in one line, naming it, and points at its own --help', async (argv, message, help) => {
    const r = await cliInProcess(argv);
    expect(r.code).toBe(42);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('unattended: '))).toEqual([expect.stringContaining(message)]);
    expect(r.stderr).toContain(`Run '${help}' for usage.`);
  });
});
