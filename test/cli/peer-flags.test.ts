// The command line a user of Claude Code, Gemini CLI, Codex, Qwen Code or goose guesses: each case
// failed on the main branch before issue 14 (unknown argument, a prompt read as a recipe path...).
// In process (runCli) against a fake Gemini endpoint; every assertion is on what the model was sent
// or what the user reads.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';
import { messageTexts, runInProcess, shellWords } from './in-process.js';

let cwd: string;
const runDirs = () => (fs.existsSync(path.join(cwd, '.unattended/runs')) ? fs.readdirSync(path.join(cwd, '.unattended/runs')) : []);
const run = (command: string, opts: Omit<Parameters<typeof runInProcess>[1], 'cwd'> = {}) => runInProcess(command, { cwd, ...opts });
const lastUserText = (body: any) => messageTexts(body).at(-1)!.text;

beforeAll(() => {
  cwd = tempDir('unattended-peer-flags-');
  fs.writeFileSync(path.join(cwd, 'README.md'), '# app\n\nTeh app.\n');
  fs.writeFileSync(path.join(cwd, 'CONVENTIONS.md'), 'Use tabs, never spaces.\n');
  fs.writeFileSync(path.join(cwd, 'answer.schema.json'), JSON.stringify({ type: 'object', required: ['typos'], properties: { typos: { type: 'integer' } } }));
  const server = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
  fs.writeFileSync(path.join(cwd, 'mcp.json'), JSON.stringify({ mcpServers: { docs: { command: 'node', args: [server, '.'], includeTools: ['read_text_file'] } } }));
});
afterAll(() => removeTempDirs());

describe('the prompt, as peers take it', () => {
  it('-p and --prompt at the top level, without `run`', async () => {
    const r = await run('unattended -p "Fix the typo in README.md"');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Done.');
    expect(lastUserText(r.requests[0]!.body)).toBe('Fix the typo in README.md');
  });

  it('a positional prompt, with and without `run`, quoted or not', async () => {
    for (const command of ['unattended "Fix the typo"', 'unattended run "Fix the typo"', 'unattended Fix the typo']) {
      const r = await run(command);
      expect({ command, code: r.code, prompt: lastUserText(r.requests[0]!.body) }).toEqual({ command, code: 0, prompt: 'Fix the typo' });
    }
  });

  it('a prompt that starts with a dash: -p "- fix…" (a Markdown list), or any words after --', async () => {
    const list = await run('unattended -p "- Fix the typo\n- Add a test" --append-system-prompt "- Answer in one line."');
    expect([list.code, list.stderr]).toEqual([0, expect.any(String)]);
    expect(lastUserText(list.requests[0]!.body)).toBe('- Fix the typo\n- Add a test');
    expect(list.requests[0]!.body.systemInstruction.parts[0].text).toMatch(/\n\n- Answer in one line\.$/);
    for (const command of ['unattended run -- "-fix the typo"', 'unattended -m gemini-2.5-pro -- -fix the typo', 'unattended -- "-fix the typo"']) {
      const r = await run(command);
      expect({ command, code: r.code, prompt: lastUserText(r.requests[0]!.body) }).toEqual({ command, code: 0, prompt: '-fix the typo' });
    }
    // One word shaped like flags stays flags (yargs reads -fix as -f -i -x): refused, with no peer's -i hint.
    const flags = await run('unattended -p -fix');
    expect([flags.code, flags.requests.length]).toEqual([42, 0]);
    expect(flags.stderr).toContain('Unknown arguments: f, i, x');
    expect(flags.stderr).not.toContain('-i: ');
  });

  it('-p - reads the prompt from stdin, as `unattended -` and `codex exec -` do', async () => {
    for (const command of ['unattended -p -', 'unattended run -']) {
      const r = await run(command, { stdin: 'Fix the typo in README.md\n' });
      expect({ command, code: r.code, prompt: lastUserText(r.requests[0]!.body) }).toEqual({ command, code: 0, prompt: 'Fix the typo in README.md\n' });
    }
    const none = await run('unattended -p -');
    expect([none.code, none.requests.length, none.stderr]).toEqual([42, 0, expect.stringContaining('-p -: no prompt was piped on standard input')]);
  });

  it('an existing file or a *.yaml name is a recipe, never a prompt', async () => {
    const r = await run('unattended run missing-recipe.yml');
    expect(r.code).toBe(52);
    expect(r.stderr).toContain('missing-recipe.yml:1:1: cannot read recipe: no such file');
    expect(r.requests).toHaveLength(0);
  });

  it('a pipe named as the recipe (`unattended run <(cat r.yaml)`) is read once, its relative paths from the current directory', async () => {
    const dir = tempDir('unattended-fifo-');
    fs.writeFileSync(path.join(dir, 'turns.jsonl'), '{"text":"from the pipe"}\n');
    const recipe = 'version: 1\nprompt: hi\nprovider: scripted\nscript: turns.jsonl\nconfirmation: {mode: deny}\n';
    for (const command of ['run', 'validate']) {
      const fifo = path.join(dir, `recipe-${command}.fifo`);
      await execa('mkfifo', [fifo]);
      const written = fs.promises.writeFile(fifo, recipe);
      const r = await cli([command, fifo, ...(command === 'run' ? ['--out', path.join(dir, 'out')] : [])], { cwd: dir });
      // A CLI that never opened the pipe leaves the writer waiting for a reader: be one.
      fs.closeSync(fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK));
      await written.catch(() => undefined);
      expect({ command, code: r.code, stderr: r.stderr }).toMatchObject({ command, code: 0 });
      expect(r.stdout).toContain(command === 'run' ? 'from the pipe' : `ok ${fifo}`);
    }
    // A batch reads the recipe once per target: a pipe is refused before it is read.
    const fifo = path.join(dir, 'recipe-batch.fifo');
    await execa('mkfifo', [fifo]);
    const batch = await cli(['batch', fifo, '--targets', path.join(dir, 'targets.txt')], { cwd: dir });
    expect(batch.code).toBe(42);
    expect(batch.stderr).toContain('is not a regular file: a batch reads its recipe once for every target');
  });

  it('a path-like word that names nothing gets a hint, and no run is started', async () => {
    const before = runDirs().length;
    const r = await run('unattended run recipes/fix-lint');
    expect(r.code).toBe(42);
    expect(r.stderr).toContain("'recipes/fix-lint' looks like a file, but there is none at");
    expect(r.stderr).toContain("pass it with -p 'recipes/fix-lint'");
    expect(runDirs()).toHaveLength(before);
  });

  it('a command typed a letter or two wrong is refused with the likely command, not sent as a paid prompt', async () => {
    const before = runDirs().length;
    fs.mkdirSync(path.join(cwd, 'a-run-dir'), { recursive: true });
    for (const [typed, meant] of [['unattended valdiate recipes/demo.yaml', 'validate'], ['unattended tols', 'tools'], ['unattended bacth recipes/demo.yaml', 'batch'], ['unattended reprot a-run-dir', 'report'], ['unattended polcy check recipes/demo.yaml', 'policy']] as const) {
      const r = await run(typed);
      expect({ typed, code: r.code, requests: r.requests.length }).toEqual({ typed, code: 42, requests: 0 });
      expect(r.stderr).toContain(`is not a command (did you mean '${meant}'?)`);
      expect(r.stderr).toContain("for a task: unattended -p '");
    }
    expect(runDirs()).toHaveLength(before);
    // A prompt that only starts like a command is a prompt; with `run` typed, or -p, it is one whatever its words.
    for (const command of ['unattended patch the parser', 'unattended run tols', "unattended -p 'tols'", 'unattended revert', 'unattended polish']) {
      expect((await run(command)).code).toBe(0);
    }
  });

  it("Codex's `exec` is refused with the run that does it here, not sent as the prompt 'exec …'", async () => {
    const before = runDirs().length;
    const r = await run('unattended exec "fix the bug"');
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain("'exec' is Codex's command");
    expect(r.stderr).toContain("here that is: unattended run 'fix the bug'");
    const resume = await run('unattended exec resume --last "Now fix them"');
    expect([resume.code, resume.requests.length]).toEqual([42, 0]);
    expect(resume.stderr).toContain("exec resume: Codex's command; here that is unattended run --continue");
    expect(resume.stderr).toContain('--last: here that is --continue alone');
    const bare = await run('unattended exec resume "Now fix them"');
    expect([bare.code, bare.stderr]).toEqual([42, expect.stringContaining("here that is: unattended run --continue 'Now fix them'")]);
    expect(runDirs()).toHaveLength(before);
    // Typed after `run`, or with -p, the word is the task's.
    expect((await run('unattended run exec the plan')).code).toBe(0);
  });

  it("another agent's management command (claude mcp list, claude doctor, goose session list) is refused, not sent as the prompt", async () => {
    for (const [command, said] of [
      ['unattended mcp list', "'mcp list' is another agent's (Claude Code, Gemini CLI, Codex, goose) command, not one of ours"],
      ['unattended mcp add docs -- npx server', "'mcp add' is another agent's (Claude Code, Gemini CLI, Codex, goose) command"],
      ['unattended doctor', "'doctor' is Claude Code's command"],
      ['unattended extensions list', "'extensions list' is Gemini CLI's command"],
      ['unattended session list', "'session list' is goose's command"],
      ['unattended resume', "'resume' is Codex's command"],
      ['unattended update', "'update' is another agent's (Claude Code, goose) command"],
    ] as const) {
      const r = await run(command);
      expect({ command, code: r.code, requests: r.requests.length }).toEqual({ command, code: 42, requests: 0 });
      expect(r.stderr).toContain(said);
    }
    const mcp = await run('unattended mcp list');
    expect(mcp.stderr).toContain('here MCP servers come with --mcp-config FILE');
    expect(mcp.stderr).toContain("a task that starts with the word: unattended -p 'mcp list'");
    // A task that starts with the word is still a task, and so is any line after run.
    for (const command of ['unattended config the linter to use tabs', 'unattended update the changelog', 'unattended run mcp list', "unattended -p 'mcp list'"]) {
      const r = await run(command);
      expect({ command, code: r.code, requests: r.requests.length }).toEqual({ command, code: 0, requests: 1 });
    }
  });

  it('two prompts, a directory, or words after a recipe are refused with what to do', async () => {
    expect((await run('unattended "Fix it" -p "Fix the other thing"')).stderr).toContain('two prompts');
    const dir = await run('unattended run .unattended');
    expect([dir.code, dir.stderr]).toEqual([42, expect.stringContaining('pass --workspace .unattended')]);
    const words = await run('unattended README.md please');
    expect([words.code, words.stderr]).toEqual([42, expect.stringContaining("'please' after the recipe README.md")]);
  });

  it('`unattended` alone on a terminal says what to do and starts no run; with piped stdin it runs', async () => {
    const before = runDirs().length;
    const bare = await run('unattended');
    expect([bare.code, bare.stderr]).toEqual([42, expect.stringContaining('give a task: unattended -p')]);
    expect(runDirs()).toHaveLength(before);
    const piped = await run('unattended', { stdin: 'Summarize this diff' });
    expect([piped.code, lastUserText(piped.requests[0]!.body)]).toEqual([0, 'Summarize this diff']);
  });
});

describe('the built CLI (what ships)', () => {
  it('runs a positional prompt without `run`, and --help shows the examples', async () => {
    const gemini = await startFakeGemini([{ text: 'Fixed.' }]);
    try {
      const r = await cli(['Fix the typo in README.md', '-m', 'gemini-2.5-pro'], { cwd, env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url } });
      expect([r.code, r.stdout]).toEqual([0, 'Fixed.']);
      expect(gemini.requests[0]!.model).toBe('gemini-2.5-pro');
      expect(lastUserText(gemini.requests[0]!.body)).toBe('Fix the typo in README.md');
    } finally {
      await gemini.close();
    }
    const help = await cli(['--help'], { cwd });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('unattended [PROMPT | RECIPE] [options]');
    expect(help.stdout).toMatch(/Examples:\n\s+unattended -p "Fix the typo in README.md"/);
  });
});

describe('flags for a one-shot run without a recipe', () => {
  it('-m names the model', async () => {
    const r = await run('unattended -p hi -m gemini-2.5-pro');
    expect(r.requests[0]!.model).toBe('gemini-2.5-pro');
  });

  it("-m claude-… or -m gpt-… alone (a Claude Code or Codex user's habit) goes to that model's provider, not to Gemini", async () => {
    const anthropic = await startFakeAnthropic([{ text: 'Fixed.' }]);
    try {
      const env = { ANTHROPIC_API_KEY: 'sk-ant-not-secret', ANTHROPIC_BASE_URL: anthropic.url };
      const r = await cliInProcess(shellWords('-p "Fix the typo" -m claude-sonnet-4-5 --out claude-run'), { cwd, env, stdin: null });
      expect([r.code, r.stdout]).toEqual([0, 'Fixed.']);
      expect(anthropic.requests[0]!.body.model).toBe('claude-sonnet-4-5');
    } finally {
      await anthropic.close();
    }
    // No key for it: the error names the provider's key, not GEMINI_API_KEY.
    for (const model of ['gpt-5', 'o3']) {
      const r = await cliInProcess(['-p', 'hi', '-m', model], { cwd, env: {}, stdin: null });
      expect({ model, code: r.code, stderr: r.stderr }).toEqual({ model, code: 41, stderr: expect.stringContaining('OPENAI_API_KEY is not set') });
    }
    // --provider still says which, and other names keep the default.
    const named = await run('unattended -p hi -m claude-sonnet-4-5 --provider gemini');
    expect(named.requests[0]!.model).toBe('claude-sonnet-4-5');
  });

  it('--tools offers exactly the named built-ins (comma-separated, repeatable), and names a typo', async () => {
    const r = await run('unattended -p hi --tools read_file,grep --tools ls');
    const names = r.requests[0]!.body.tools.flatMap((t: any) => t.functionDeclarations.map((d: any) => d.name));
    expect(names).toEqual(['read_file', 'grep', 'ls']);
    const bad = await run('unattended -p hi --tools read_fle');
    expect([bad.code, bad.stderr]).toEqual([42, expect.stringContaining("'read_fle' is not a built-in tool (did you mean 'read_file'?)")]);
    const none = await run("unattended -p hi --tools ''");
    expect(none.requests[0]!.body.tools ?? []).toEqual([]);
  });

  it("a peer's tool names and rule syntax (Claude Code's Bash(npm test:*), Read; Gemini CLI's run_shell_command(…)) are refused saying what to write here", async () => {
    const cases: Array<[string, string]> = [
      ["--approval allowlist --allow 'Bash(npm run test:*)'", "--allow 'Bash(npm run test:*)': that is Claude Code's rule syntax; here write 'shell:npm run test *'"],
      ["--approval allowlist --allow 'Edit(src/**)'", "here write 'edit:src/**'"],
      ["--deny 'run_shell_command(git push)'", "that is Gemini CLI's rule syntax; here write 'shell:git push *'"],
      ['--approval allowlist --allow Read', "--allow 'Read': unknown tool 'Read': that is Claude Code's name: here it is 'read_file'"],
      ['--tools Read,Bash', "--tools: 'Bash' is not a built-in tool: that is Claude Code's name: here it is 'shell'"],
      ['--tools default', "--tools: 'default' is not a built-in tool: leave --tools out for the default tools"],
    ];
    for (const [flags, hint] of cases) {
      const r = await run(`unattended -p hi ${flags}`);
      expect({ flags, code: r.code, requests: r.requests.length, stderr: r.stderr }).toEqual({ flags, code: 42, requests: 0, stderr: expect.stringContaining(hint) });
    }
    // The rule written as the hint says is taken.
    const ok = await run("unattended -p hi --approval allowlist --allow 'shell:npm run test *'");
    expect(ok.code).toBe(0);
  });

  it('--append-system-prompt adds text, or a file with @FILE', async () => {
    const text = await run('unattended -p hi --append-system-prompt "Answer in French."');
    expect(text.requests[0]!.body.systemInstruction.parts[0].text).toMatch(/unattended[\s\S]*\n\nAnswer in French\.$/);
    const file = await run('unattended -p hi --append-system-prompt @CONVENTIONS.md');
    expect(file.requests[0]!.body.systemInstruction.parts[0].text).toContain('Use tabs, never spaces.');
    const missing = await run('unattended -p hi --append-system-prompt @NOPE.md');
    expect([missing.code, missing.stderr]).toEqual([42, expect.stringContaining('--append-system-prompt NOPE.md: cannot read it (no such file')]);
  });

  it('--output-schema makes the answer structured output', async () => {
    const r = await run('unattended -p "Count the typos" --output-schema answer.schema.json --output-format json', { replies: [{ text: '{"typos": 1}' }] });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).structured_output).toEqual({ typos: 1 });
    fs.writeFileSync(path.join(cwd, 'bad.schema.json'), '{"type": "whatever"}');
    const bad = await run('unattended -p x --output-schema bad.schema.json');
    expect([bad.code, bad.stderr]).toEqual([42, expect.stringContaining('--output-schema bad.schema.json: not a valid JSON Schema')]);
  });

  it('--mcp-config starts the servers of an mcpServers file and offers their tools', async () => {
    const r = await run('unattended -p "Read the README" --mcp-config mcp.json --out mcp-run', {
      replies: [{ calls: [{ name: 'docs__read_text_file', args: { path: 'README.md' } }] }, { text: 'It has a typo.' }],
    });
    expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
    const names = r.requests[0]!.body.tools.flatMap((t: any) => t.functionDeclarations.map((d: any) => d.name));
    expect(names).toContain('docs__read_text_file');
    // Untrusted server, deny mode: the call asked and was refused, as a recipe's server would be.
    const report = JSON.parse(fs.readFileSync(path.join(cwd, 'mcp-run/report.json'), 'utf8'));
    expect(report.denials.map((d: any) => d.tool)).toEqual(['docs__read_text_file']);
  });

  it("--mcp-config and --output-schema take the JSON itself, as Claude Code's --mcp-config '{…}' and --json-schema '{…}' do", async () => {
    const server = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
    const servers = JSON.stringify({ mcpServers: { docs: { command: 'node', args: [server, '.'], includeTools: ['read_text_file'] } } });
    const schema = JSON.stringify({ type: 'object', required: ['typos'], properties: { typos: { type: 'integer' } } });
    const r = await run(`unattended -p "Count the typos" --mcp-config '${servers}' --output-schema '${schema}' --output-format json`, { replies: [{ text: '{"typos": 1}' }] });
    expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
    const names = r.requests[0]!.body.tools.flatMap((t: any) => t.functionDeclarations.map((d: any) => d.name));
    expect(names).toContain('docs__read_text_file');
    expect(JSON.parse(r.stdout).structured_output).toEqual({ typos: 1 });
    // A problem names the inline JSON as such, not by its whole text.
    const bad = await run(`unattended -p hi --mcp-config '{"mcpServers": {"x": {}}}'`);
    expect([bad.code, bad.stderr]).toEqual([42, expect.stringContaining(`--mcp-config (inline JSON): server 'x': needs either "command"`)]);
  });

  it('a server marked "disabled": true is not started; the run says so, and the rest of the file is used', async () => {
    const marker = path.join(cwd, 'disabled-server-ran');
    fs.writeFileSync(path.join(cwd, 'disabled-server.sh'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    const server = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
    fs.writeFileSync(
      path.join(cwd, 'some-disabled.json'),
      JSON.stringify({
        mcpServers: {
          off: { command: path.join(cwd, 'disabled-server.sh'), disabled: true },
          // A disabled entry is skipped whatever else it holds, as the peers skip it.
          oldsse: { url: 'https://example.org/sse', disabled: true },
          docs: { command: 'node', args: [server, '.'], includeTools: ['read_text_file'], disabled: false },
        },
      }),
    );
    const r = await run('unattended -p hi --mcp-config some-disabled.json --out disabled-run --output-format stream-json');
    expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
    expect(fs.existsSync(marker)).toBe(false);
    const events = fs.readFileSync(path.join(cwd, 'disabled-run/transcript.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === 'warning').map((e) => e.message)).toEqual([
      `MCP server 'off' is disabled in --mcp-config some-disabled.json: not started, its tools are not offered`,
      `MCP server 'oldsse' is disabled in --mcp-config some-disabled.json: not started, its tools are not offered`,
    ]);
    const init = JSON.parse(r.stdout.split('\n')[0]!);
    expect(init.mcp_servers).toEqual([
      { name: 'off', status: 'disabled' },
      { name: 'oldsse', status: 'disabled' },
      { name: 'docs', status: 'connected' },
    ]);
    const names = r.requests[0]!.body.tools.flatMap((t: any) => t.functionDeclarations.map((d: any) => d.name));
    expect(names.filter((n: string) => n.includes('__'))).toEqual(['docs__read_text_file']);
  });

  it('"disabled" that is not true or false is refused', async () => {
    fs.writeFileSync(path.join(cwd, 'odd-disabled.json'), JSON.stringify({ mcpServers: { off: { command: 'x', disabled: 'yes' } } }));
    const r = await run('unattended -p hi --mcp-config odd-disabled.json');
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(`server 'off': "disabled" must be true or false`);
  });

  it('an mcpServers file with a mistake is refused before any model call, naming the server', async () => {
    fs.writeFileSync(path.join(cwd, 'bad-mcp.json'), JSON.stringify({ mcpServers: { web: { url: 'https://example.org/sse' }, both: { command: 'x', httpUrl: 'https://example.org/mcp' } } }));
    const r = await run('unattended -p hi --mcp-config bad-mcp.json');
    expect(r.code).toBe(42);
    expect(r.stderr).toContain("server 'web': SSE servers are not supported");
    expect(r.stderr).toContain("server 'both': needs either \"command\" (stdio) or \"url\"/\"httpUrl\" (HTTP), not both");
    expect(r.requests).toHaveLength(0);
  });
});

describe('shell completion', () => {
  it('prints a completion script, and completes commands and flags', async () => {
    const script = await run('unattended completion');
    expect([script.code, script.stderr]).toEqual([0, '']);
    expect(script.stdout).toContain('--get-yargs-completions');
    const flags = await run('unattended --get-yargs-completions run --mc');
    expect(flags.stdout.split('\n')).toContain('--mcp-config');
    const commands = await run('unattended --get-yargs-completions va');
    expect(commands.stdout.split('\n')).toContain('validate');
    expect(runDirs().every((d) => !d.includes('completion'))).toBe(true);
  });

  it('as the installed command: completion --help says how to install it; no `$0`, and one-letter aliases with one dash', async () => {
    const help = await cli(['completion', '--help']);
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain('unattended completion >> ~/.bashrc');
    expect(help.stdout).not.toContain('###-begin');
    const batch = await cli(['--get-yargs-completions', 'unattended', 'batch', '']);
    expect(batch.stdout.split('\n').sort()).toEqual(['matrix', 'merge', 'status']);
    // Without `run`, as peers' users type it: run's flags and their values, not the command names.
    const formats = await cli(['--get-yargs-completions', 'unattended', '-p', 'fix it', '--output-format', '']);
    expect(formats.stdout.split('\n').sort()).toEqual(['json', 'stream-json', 'text']);
    expect((await cli(['--get-yargs-completions', 'unattended', '--mo'])).stdout.split('\n')).toContain('--model');
    expect((await cli(['--get-yargs-completions', 'unattended', ''])).stdout.split('\n')).toContain('validate');
    const flags = (await cli(['--get-yargs-completions', 'unattended', 'run', '--'])).stdout.split('\n');
    expect(flags).toEqual(expect.arrayContaining(['--prompt', '-p', '--model', '-m']));
    expect(flags.filter((f) => /^--.(?::|$)/.test(f))).toEqual([]);
  });

  it("completes batch's own flags after its recipe (yargs offered only --help and --version there), and still the subcommands and theirs", async () => {
    const complete = async (...words: string[]) => (await cli(['--get-yargs-completions', 'unattended', ...words])).stdout.split('\n');
    expect(await complete('batch', 'fleet.yaml', '--')).toEqual(expect.arrayContaining(['--targets', '--org', '--dry-run', '--concurrency', '--max-cost-usd']));
    expect(await complete('batch', '--')).toEqual(expect.arrayContaining(['--targets', '--search']));
    expect((await complete('batch', '')).sort()).toEqual(['matrix', 'merge', 'status']);
    const merge = await complete('batch', 'merge', 'shard-1', '--');
    expect(merge).toEqual(expect.arrayContaining(['--allow-partial']));
    expect(merge).not.toContain('--targets');
  });
});

describe('shellWords', () => {
  it('splits as a shell does for plain and quoted words', () => {
    expect(shellWords(`unattended -p "Fix it" --tools '' --allow edit:README.md x"y z"`)).toEqual(['unattended', '-p', 'Fix it', '--tools', '', '--allow', 'edit:README.md', 'xy z']);
  });
});

describe("another agent's flags", () => {
  it("are refused (exit 42) with what does the same here: Claude Code's --yolo, --allowedTools, --resume, and --verbose beside stream-json", async () => {
    const r = await run('unattended -p "Fix it" --yolo --allowedTools Edit --resume --output-format stream-json --verbose');
    expect(r.code).toBe(42);
    expect(r.stderr).toContain('--yolo: here that is --approval auto-approve');
    expect(r.stderr).toContain('--allowedTools: here that is --allow RULE');
    expect(r.stderr).toContain('--resume: here that is --continue RUN_DIR');
    expect(r.stderr).toContain('--verbose: not needed here');
    expect(r.requests).toEqual([]);
  });

  it("Claude Code's --permission-mode, Gemini CLI's --approval-mode and Codex's -a are answered by the mode typed", async () => {
    const r = await run('unattended -p "Plan the fix" --permission-mode plan');
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain("--permission-mode plan: here plan mode is a recipe's `mode: plan`");
    const edits = await run('unattended -p "Fix it" --approval-mode=auto_edit');
    expect(edits.stderr).toContain('--approval-mode auto_edit: here edits without asking are an allow rule: --approval allowlist --allow edit --allow write_file');
    const never = await run('unattended -p "Fix it" -a never');
    expect(never.stderr).toContain('-a never: Codex asks nobody and runs every call; here that is --approval auto-approve');
    // A value no peer gives: the flag's own line.
    const other = await run('unattended -p "Fix it" --permission-mode sometimes');
    expect(other.stderr).toContain('--permission-mode: here that is --approval auto-approve|deny|allowlist');
  });

  it("aider's --message, --yes-always, --auto-commits, --read and --test-cmd are answered with what does the same here", async () => {
    const r = await run('unattended --message "Fix the typo" --yes-always --no-auto-commits --read CONVENTIONS.md --test-cmd pytest');
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toContain('--message: here that is -p TEXT');
    expect(r.stderr).toContain('--yes-always: here that is --approval auto-approve');
    expect(r.stderr).toContain("--no-auto-commits: here a run commits nothing unless its recipe has a git block");
    expect(r.stderr).toContain('--read: here AGENTS.md is read as context');
    expect(r.stderr).toContain('--test-cmd: here that is --check CMD');
    const file = await run('unattended --message-file TODO.md --yes');
    expect(file.code).toBe(42);
    expect(file.stderr).toContain('--message-file: here the prompt comes from a file as -p "$(cat FILE)"');
    expect(file.stderr).toContain('--yes: here that is --approval auto-approve');
  });

  it("Codex's -c key=value is refused before anything runs, not taken for a follow-up prompt of the latest run", async () => {
    // A run to go on from: without the refusal, -c model=o3 alone continued it on the prompt "model=o3".
    expect((await run('unattended -p "Fix it"')).code).toBe(0);
    for (const command of ['unattended -c model=o3', 'unattended -c model_reasoning_effort=high -p "Fix it"']) {
      const r = await run(command);
      expect({ command, code: r.code, requests: r.requests.length }).toEqual({ command, code: 42, requests: 0 });
      expect(r.stderr).toMatch(/--continue \(-c\) '[a-z_]+=[a-z0-9]+': here -c is --continue, as in Claude Code \(go on from an earlier run\), not Codex's -c key=value/);
      expect(r.stderr).toContain('give settings as flags (-m NAME');
    }
  });

  it('names a kebab-case flag once in the refusal, as typed (yargs said "Unknown arguments: input-format, inputFormat")', async () => {
    const r = await run('unattended -p "Fix it" --input-format stream-json --fallback-model m');
    expect(r.stderr).toContain('unattended: Unknown arguments: input-format, fallback-model\n');
    const one = await run('unattended -p "Fix it" --max-turn 3');
    expect(one.stderr).toContain('unattended: Unknown argument: max-turn\n');
  });

  it("Gemini CLI's -y and -o, Claude Code's --json-schema and --max-budget-usd, Codex's --json and -C, goose's --params and -t: each named once, with ours", async () => {
    const cases: Array<[string, string[]]> = [
      ['unattended -p "Fix it" -y -o json', ['-y: here that is --approval auto-approve', '-o: here that is --output-format']],
      ['unattended -p "Fix it" --json-schema s.json --max-budget-usd 1 --strict-mcp-config', ['--json-schema: here that is --output-schema', '--max-budget-usd: here that is --max-cost-usd USD', '--strict-mcp-config: not needed here']],
      ['unattended -p "Fix it" --json -C sub --skip-git-repo-check', ['--json: here that is --output-format stream-json', '-C: here the tools work in one directory: --workspace DIR', '--skip-git-repo-check: not needed here']],
      ['unattended run --recipe r.yaml --params old=foo', ['--params: here that is --param k=v']],
      ['unattended run -t "Fix it" --dangerously-skip-permissions', ['-t: here that is -p TEXT', '--dangerously-skip-permissions: here that is --approval auto-approve']],
      // Codex attaches an image with -i/--image; goose's -i is a file of instructions.
      ['unattended -p "What is on it?" -i shot.png', ["-i: goose's instructions file: here the prompt comes with -p TEXT, or piped on stdin (unattended run < FILE); Codex's image: put it in the workspace and name it in the prompt"]],
      ['unattended -p "What is on it?" --image shot.png', ['--image: put the image in the workspace and name it in the prompt']],
      ['unattended run --instructions task.md', ['--instructions: here the prompt comes with -p TEXT']],
      // Claude Code's --session-id, --settings, --fallback-model, --input-format; Gemini CLI's -s, --all-files, --checkpointing.
      ['unattended -p "Fix it" --session-id abc --settings s.json --fallback-model m', ['--session-id: here that is --continue RUN_ID', '--settings: here the settings are a recipe', '--fallback-model: a run uses one model here: -m NAME']],
      ['unattended -p "Fix it" --input-format stream-json', ['--input-format: here the prompt is text: -p TEXT, or piped on stdin']],
      ['unattended -p "Fix it" -s --all-files --checkpointing', ['-s: here that is --sandbox auto|required|off', '--all-files: not needed here', "--checkpointing: here each run's changes are in its report"]],
      // Codex's --model-provider and --ephemeral; goose's --no-session (named as typed) and --with-builtin, --system.
      ['unattended -p "Fix it" --model-provider ollama --ephemeral', ['--model-provider: here that is --provider', '--ephemeral: not needed here']],
      ['unattended run --no-session --with-builtin developer --system "Be terse."', ['--no-session: not needed here', '--with-builtin: here MCP servers come with --mcp-config FILE', '--system: here that is --append-system-prompt TEXT']],
      // Claude Code's --print and --permission-prompt-tool; Codex's --yolo (long form), -c/--config, --profile, --oss, --search;
      // Gemini CLI's -e, -i's long form, --telemetry; Qwen Code's --openai-*; goose's -q, -n.
      ['unattended --print "Fix it"', ['--print: here that is -p TEXT (--prompt)']],
      ['unattended -p "Fix it" --dangerously-bypass-approvals-and-sandbox --config model=o3 --profile ci', ['--dangerously-bypass-approvals-and-sandbox: here that is --approval auto-approve --sandbox off', '--config: here settings are flags', '--profile: here settings are flags']],
      ['unattended -p "Fix it" --oss --search --permission-prompt-tool mcp__auth__ask', ['--oss: here a local model is --provider openai --base-url', '--search: here web search is a tool', '--permission-prompt-tool: here no one is asked']],
      ['unattended -p "Fix it" -e docs --prompt-interactive --telemetry', ['-e: here MCP servers come with --mcp-config FILE', '--prompt-interactive: nobody is at the keyboard here', '--telemetry: here OpenTelemetry export is set by the OTEL_* environment']],
      ['unattended -p "Fix it" --openai-api-key k --openai-base-url http://x -q -n job', ['--openai-api-key: here the key comes from the environment: OPENAI_API_KEY', '--openai-base-url: here that is --base-url URL', '-q: not needed here', '-n: here each run has its own directory']],
    ];
    for (const [command, hints] of cases) {
      const r = await run(command);
      expect({ command, code: r.code, requests: r.requests.length }).toEqual({ command, code: 42, requests: 0 });
      for (const hint of hints) expect(r.stderr).toContain(hint);
      // yargs names a kebab-case flag twice (json-schema, jsonSchema): the hint is given once.
      const hintLines = r.stderr.split('\n').filter((line) => /^--?[A-Za-z-]+: /.test(line));
      expect({ command, lines: hintLines.length }).toEqual({ command, lines: hints.length });
    }
  });
});
