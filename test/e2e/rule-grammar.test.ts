// The README's rule examples, run both ways through the CLI: every rule of the allow table
// passes `unattended validate` and `unattended policy check` approves its first call and refuses
// its second; every rule of the invalid table is refused by validate at the rule's own line with
// the reason the README gives. The README is the contract, so the table is read from it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

/** The rows of the table after `<!-- rule-examples:NAME -->`, cells with their code spans unwrapped. */
function readmeTable(name: string): string[][] {
  const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n');
  const start = lines.indexOf(`<!-- rule-examples:${name} -->`);
  if (start < 0) throw new Error(`README.md has no rule-examples:${name} table`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 3)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(' | ').map((cell) => cell.trim().replace(/^`(.*)`$/, '$1').replaceAll('\\|', '|')));
  }
  return rows;
}

/** `tool {json}` as the table writes a call. */
function parseCall(cell: string): { tool: string; args: string } {
  const at = cell.indexOf(' ');
  return { tool: cell.slice(0, at), args: cell.slice(at + 1) };
}

// Made at collection time: the recipes are written while the tests are being declared.
const dir = tempDir('rule-grammar-');
const workspace = path.join(dir, 'ws');

beforeAll(() => {
  for (const [file, content] of Object.entries({
    'src/app.ts': 'const a = 1;\n',
    'README.md': 'a\n',
    'docs/intro.md': 'x\n',
    'docs/api/ref.md': 'x\n',
    'guide.md': 'x\n',
  })) {
    fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
    fs.writeFileSync(path.join(workspace, file), content);
  }
});
afterAll(removeTempDirs);

let recipes = 0;

/** A recipe holding one rule, as a user would write it; returns its path and the rule's line. */
function recipeWith(rule: string, list: 'allow' | 'deny' = 'allow'): { file: string; line: number } {
  const server = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
  const lines = [
    'version: 1',
    'prompt: Check the rules.',
    `workspace: ${JSON.stringify(workspace)}`,
    'tools: [read_file, write_file, edit, shell, web_fetch, todo_write]',
    'mcp_servers:',
    '  docs:',
    '    command: node',
    `    args: [${JSON.stringify(server)}, ${JSON.stringify(workspace)}]`,
    '    include_tools: [read_text_file, write_file]',
    'confirmation:',
    `  mode: ${list === 'allow' ? 'allowlist' : 'auto-approve'}`,
    `  ${list}:`,
    `    ${rule}`,
  ];
  const file = path.join(dir, `recipe-${++recipes}.yaml`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, line: lines.length };
}

async function decision(recipe: string, call: string): Promise<{ decision: string; reason: string; rule: string | null }> {
  const { tool, args } = parseCall(call);
  // In process: the CLI's own entry without a process start per call (validate of the allow table
  // and the run case below, and test/sandbox/policy-check.test.ts, run the built CLI).
  const result = await cliInProcess(['policy', 'check', recipe, '--tool', tool, '--args', args], { cwd: dir });
  expect(result.stderr).not.toMatch(/at .*\.js:\d+/); // never a stack trace
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

describe('README rule examples', () => {
  const allowRows = readmeTable('allow');
  const invalidRows = readmeTable('invalid');

  it('has an example of every kind of rule', () => {
    const rules = allowRows.map(([rule]) => rule!);
    expect(rules.some((r) => /^- \w+$/.test(r))).toBe(true); // bare name
    expect(rules.some((r) => /__\w+$/.test(r))).toBe(true); // one MCP tool
    expect(rules.some((r) => r.endsWith('__*'))).toBe(true); // a server's tools
    expect(rules.some((r) => /edit|write_file: "/.test(r))).toBe(true); // path glob
    expect(rules.some((r) => /web_fetch: ".*:\d+"/.test(r))).toBe(true); // host with port
    expect(rules.some((r) => /web_fetch: "\*\./.test(r))).toBe(true); // subdomains
    expect(rules.some((r) => /shell: ".*'.*'/.test(r))).toBe(true); // quoted words
    expect(rules.some((r) => /shell: ".* \*"/.test(r))).toBe(true); // trailing *
    expect(invalidRows.length).toBeGreaterThanOrEqual(10);
  });

  // One validate process for every recipe of a table (validate takes many files), policy checks
  // side by side: each spawn costs half a second on a busy machine.
  const allowRecipes = allowRows.map(([rule]) => recipeWith(rule!));
  const invalidRecipes = invalidRows.map(([rule]) => recipeWith(rule!));

  it('validate accepts every rule of the allow table', async () => {
    const validated = await cli(['validate', ...allowRecipes.map((r) => r.file)], { cwd: dir });
    expect(validated.stderr).toBe('');
    expect(validated.code).toBe(0);
    expect(validated.stdout.trim().split('\n')).toHaveLength(allowRows.length);
  });

  const allowCases = allowRows.map(([rule, approved, refused], i): [string, string, string, number] => [rule!, approved!, refused!, i]);
  it.concurrent.each(allowCases)('%s: policy check approves %s and refuses %s', async (rule, approved, refused, i) => {
    const { file } = allowRecipes[i]!;
    const yes = await decision(file, approved);
    expect(yes, yes.reason).toMatchObject({ decision: 'allow' });
    expect(yes.rule).toContain(rule.replace(/^- /, '').replace(/: "(.*)"$/, ': $1'));
    const no = await decision(file, refused);
    expect(no.decision, no.reason).toBe('deny');
  }, 60_000);

  it('validate refuses every rule of the invalid table, at its line, with the reason the README gives', async () => {
    // In process, as the policy checks: the built CLI validates the allow table above.
    const validated = await cliInProcess(['validate', ...invalidRecipes.map((r) => r.file)], { cwd: dir });
    expect(validated.code).toBe(52);
    const problems = validated.stderr.trim().split('\n');
    expect(problems).toHaveLength(invalidRows.length);
    invalidRows.forEach(([rule, why], i) => {
      const { file, line } = invalidRecipes[i]!;
      const problem = problems.find((p) => p.startsWith(`${file}:`));
      expect(problem, rule).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${line}:\\d+: `));
      expect(problem, rule).toContain(why);
    });
  });

  const denyRows = readmeTable('deny');
  const denyCases = denyRows.map(([rule, refused, runs]): [string, string, string, string] => [rule!, refused!, runs!, recipeWith(rule!, 'deny').file]);
  it.concurrent.each(denyCases)('deny %s under auto-approve: policy check refuses %s and approves %s', async (rule, refused, runs, file) => {
    const no = await decision(file, `shell ${JSON.stringify({ command: refused })}`);
    expect(no, no.reason).toMatchObject({ decision: 'deny', rule: rule.replace(/^- /, '').replace(/: "(.*)"$/, ': $1') });
    expect(no.reason).toContain(`(at ${path.basename(file)}:13)`); // where the recipe writes the rule
    const yes = await decision(file, `shell ${JSON.stringify({ command: runs })}`);
    expect(yes.decision, yes.reason).toBe('allow');
  }, 60_000);

  it('a run refuses to start with a rule validate refuses (exit 52, before any model call)', async () => {
    const [rule, why] = invalidRows[0]!;
    // In process: the exit code is runCli's; the built CLI is exercised by the validate case above.
    const run = await cliInProcess(['run', invalidRecipes[0]!.file, '--provider', 'openai', '--model', 'm', '--base-url', 'http://127.0.0.1:9/v1'], { cwd: dir });
    expect(run.code, rule).toBe(52);
    expect(run.stderr).toContain(why);
  });

  it('policy check takes a run\'s --approval, --allow and --deny, merged with the recipe\'s rules as run merges them', async () => {
    const { file } = recipeWith('- edit: "src/**"');
    const check = async (...flags: string[]) => {
      const r = await cliInProcess(['policy', 'check', file, '--tool', 'shell', '--args', '{"command":"git diff --stat"}', ...flags], { cwd: dir });
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
      return { code: r.code, stderr: r.stderr, decision: r.code === 0 ? JSON.parse(r.stdout) : null };
    };
    expect((await check()).decision).toMatchObject({ decision: 'deny', rule: null });
    expect((await check('--allow', 'shell:git diff *')).decision).toMatchObject({ decision: 'allow', rule: 'shell: git diff *' });
    // A flag can add a denial and never remove one: deny wins over the flag's own allow.
    expect((await check('--allow', 'shell:git diff *', '--deny', 'shell:git diff *')).decision).toMatchObject({ decision: 'deny', rule: 'shell: git diff *' });
    expect((await check('--approval', 'auto-approve')).decision).toMatchObject({ decision: 'allow' });
    // What run refuses, policy check refuses with the same exit code and words.
    const inert = await check('--approval', 'deny', '--allow', 'shell:git diff *');
    expect(inert.code).toBe(42);
    expect(inert.stderr).toContain("--allow 'shell:git diff *': allow rules count only in allowlist mode");
    const bad = await check('--deny', 'edit:!src/**');
    expect(bad.code).toBe(42);
    expect(bad.stderr).toContain('is negated');
  });

  it('a run refuses a --deny rule no command could match (exit 42), which would otherwise refuse nothing', async () => {
    const run = await cliInProcess(['run', '-p', 'hi', '--provider', 'scripted', '--approval', 'auto-approve', '--deny', 'shell:"git push *"', '--out', path.join(dir, 'never')], { cwd: dir });
    expect(run.code).toBe(42);
    expect(run.stderr).toContain("the program 'git push *' holds a space inside quotes");
  });
});
