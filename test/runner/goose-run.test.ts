// A goose recipe runs as it is, offline: the scripted provider replays the model, the stdio
// extension is a real MCP server (server-filesystem), the retry check is a real shell command and
// the response schema is enforced. By default it runs fail-closed (mode deny); with
// --approval auto-approve its edit and MCP call go through. Each run's transcript and report
// carry the conversion's warnings. In process (executeRun), as the CLI calls it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/cli/errors.js';
import { loadRecipe, type RecipeOverrides } from '../../src/recipe/index.js';
import { executeRun, type RunResult } from '../../src/runner/execute-run.js';
import { ROOT, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const FILESYSTEM_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** The recipe sits next to its companion files, as goose recipes do: a server script and the workspace (dir/ws). */
function gooseRecipe(dir: string): string {
  fs.writeFileSync(path.join(dir, 'fs-server.mjs'), `import ${JSON.stringify(FILESYSTEM_SERVER)};\n`);
  const file = path.join(dir, 'fix-typos.yaml');
  fs.writeFileSync(
    file,
    `version: "1.0.0"
title: Fix typos
description: Fix the spelling in one file
instructions: Fix spelling mistakes in {{ file }} only; change nothing else.
prompt: Fix the typos in {{ file }}, then answer with JSON saying how many you fixed.
parameters:
  - key: file
    input_type: string
    requirement: optional
    default: notes.md
    description: The file to fix
extensions:
  - type: builtin
    name: developer
  - type: stdio
    name: fs
    cmd: ${JSON.stringify(process.execPath)}
    args: ["{{ recipe_dir }}/fs-server.mjs", "{{ recipe_dir }}/ws"]
    timeout: 60
settings:
  temperature: 0.4
response:
  json_schema:
    type: object
    properties: { fixed: { type: integer } }
    required: [fixed]
retry:
  max_retries: 1
  checks:
    - type: shell
      command: "! grep -q teh notes.md"
activities: ["Fix typos in the README"]
`,
  );
  return file;
}

function turns(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body);
  return file;
}

async function run(file: string, workspace: string, overrides: RecipeOverrides, params: Record<string, string> = {}): Promise<{ result: RunResult; stdout: string }> {
  let stdout = '';
  const result = await executeRun({
    loadRecipe: () => loadRecipe(file, { params, overrides: { workspace, sandbox: 'off', ...overrides }, cwd: ROOT }),
    stdinContext: null,
    outDir: path.join(workspace, '..', `out-${path.basename(file)}-${overrides.approval ?? 'default'}`),
    format: 'text',
    record: null,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    streams: { stdout: (s) => void (stdout += s), stderr: () => {} },
    classifySetupError: classifyError,
  });
  return { result, stdout };
}

describe('a goose recipe, run offline', () => {
  let dir: string;
  let workspace: string;
  let recipe: string;
  beforeAll(() => {
    dir = tempDir();
    workspace = path.join(dir, 'ws');
    fs.mkdirSync(workspace);
    recipe = gooseRecipe(dir);
  });

  it('fails closed by default: the edit and the MCP call are denied, and the retry check then fails the run (exit 56)', async () => {
    fs.writeFileSync(path.join(workspace, 'notes.md'), 'teh quick brown fox\n');
    const script = turns(
      dir,
      'deny-turns.yaml',
      `turns:
  - calls:
      - name: fs__read_text_file
        args: { path: "{{workspace}}/notes.md" }
      - name: edit
        args: { file_path: "{{workspace}}/notes.md", old_string: teh, new_string: the }
  - text: '{"fixed": 0}'
  - text: '{"fixed": 0}'
`,
    );
    const { result } = await run(recipe, workspace, { provider: 'scripted', script });
    expect(result.exitCode).toBe(56);
    const { events, report } = readRun(result.outDir);
    const decisions = events.filter((e) => e.type === 'tool_call').map((e) => [e.name, e.decision.decision]);
    expect(decisions).toEqual([['fs__read_text_file', 'deny'], ['edit', 'deny']]);
    expect(fs.readFileSync(path.join(workspace, 'notes.md'), 'utf8')).toBe('teh quick brown fox\n');
    // The goose fields it ignored, in the transcript (after run_start) and in the report.
    const warnings = events.filter((e) => e.type === 'warning').map((e) => e.message);
    for (const field of ['activities', 'settings.temperature', 'confirmation']) {
      expect(warnings.some((w) => w.startsWith(`goose recipe: ${field}: `)), field).toBe(true);
    }
    expect(events.findIndex((e) => e.type === 'warning')).toBeGreaterThan(events.findIndex((e) => e.type === 'run_start'));
    expect(report.warnings).toEqual(expect.arrayContaining(warnings));
  });

  it('with --approval auto-approve: reads through the MCP extension, edits, passes the retry check and answers with the schema', async () => {
    fs.writeFileSync(path.join(workspace, 'notes.md'), 'teh quick brown fox\n');
    const script = turns(
      dir,
      'approve-turns.yaml',
      `turns:
  - calls:
      - name: fs__read_text_file
        args: { path: "{{workspace}}/notes.md" }
  - calls:
      - name: edit
        args: { file_path: "{{workspace}}/notes.md", old_string: teh, new_string: the }
  - text: '{"fixed": 1}'
`,
    );
    const { result, stdout } = await run(recipe, workspace, { provider: 'scripted', script, approval: 'auto-approve' });
    expect(result.exitCode).toBe(0);
    expect(stdout).toContain('{"fixed": 1}');
    expect(fs.readFileSync(path.join(workspace, 'notes.md'), 'utf8')).toBe('the quick brown fox\n');
    const { events, report } = readRun(result.outDir);
    const read = events.find((e) => e.type === 'tool_result' && e.name === 'fs__read_text_file');
    expect(JSON.stringify(read)).toContain('teh quick brown fox');
    expect(report.structured_output).toEqual({ fixed: 1 });
    // The optional parameter's default filled the prompt.
    expect(events.find((e) => e.type === 'run_start')!.prompt).toBe('Fix the typos in notes.md, then answer with JSON saying how many you fixed.');
    // --approval was given: no warning about the default policy, the others remain.
    const warnings = events.filter((e) => e.type === 'warning').map((e) => e.message);
    expect(warnings.some((w) => w.startsWith('goose recipe: confirmation'))).toBe(false);
    expect(warnings.some((w) => w.startsWith('goose recipe: activities'))).toBe(true);
  });
});

describe('a goose Desktop recipe with sub-recipes, run offline', () => {
  it('hands a sub-recipe to a sub-agent through the task tool, under the default policy', async () => {
    const dir = tempDir();
    const workspace = path.join(dir, 'ws');
    fs.mkdirSync(workspace);
    const script = turns(
      dir,
      'turns.yaml',
      `turns:
  - calls:
      - name: task
        args: { description: changelog, prompt: "List the user-visible changes since v2.1.0 for operators, grouped by component." }
  - text: "- api: faster start-up"
  - text: "Release notes for 2.1.0: api: faster start-up."
`,
    );
    const { result, stdout } = await run(path.join(ROOT, 'test/fixtures/goose/release-notes.json'), workspace, { provider: 'scripted', script }, { version_tag: '2.1.0' });
    expect(result.exitCode).toBe(0);
    expect(stdout).toContain('Release notes for 2.1.0: api: faster start-up.');
    const { events, report } = readRun(result.outDir);
    const task = events.find((e) => e.type === 'tool_result' && e.name === 'task')!;
    expect(JSON.stringify(task)).toContain('- api: faster start-up');
    // The sub-agent's turn is tagged with the task call that ran it.
    expect(events.some((e) => e.type === 'model_response' && e.parent_call_id === task.call_id)).toBe(true);
    expect(report.warnings).toContain('goose recipe: name, isGlobal, lastModified, isArchived: goose Desktop metadata; ignored');
  });
});
