// Context files (AGENTS.md...) and `run --continue`, in process against a fake Gemini endpoint:
// what the model receives is the test.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { messageTexts, runInProcess } from './in-process.js';
import { readEarlierRun } from '../../src/runner/continuation.js';

afterAll(() => removeTempDirs());

const report = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'));
const runStart = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8').split('\n')[0]!);

describe('context files', () => {
  let repo: string;
  beforeAll(() => {
    repo = tempDir('unattended-context-');
    fs.mkdirSync(path.join(repo, 'pkg/sub'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'AGENTS.md'), 'Root rules: run npm test.\n');
    fs.writeFileSync(path.join(repo, 'pkg/AGENTS.md'), 'Package rules: tabs.\n');
    fs.writeFileSync(path.join(repo, 'CLAUDE.md'), 'Claude rules.\n');
    fs.writeFileSync(path.join(repo, 'other.md'), 'not context\n');
  });

  it('loads AGENTS.md from the workspace root down to the working directory, framed as the repository\'s, before the prompt', async () => {
    const out = path.join(repo, '..', 'out-ctx-1');
    const r = await runInProcess(`unattended -p "Fix it" --workspace ${repo} --out ${out}`, { cwd: path.join(repo, 'pkg/sub') });
    expect(r.code).toBe(0);
    const parts = r.requests[0]!.body.contents[0].parts.map((p: any) => p.text);
    expect(parts).toHaveLength(2);
    expect(parts[1]).toBe('Fix it');
    expect(parts[0]).toMatch(/^The repository provides the context files below[\s\S]*not instructions from the person/);
    expect(parts[0].indexOf('Root rules')).toBeLessThan(parts[0].indexOf('Package rules'));
    expect(parts[0]).not.toContain('Claude rules');
    const files = [
      { path: 'AGENTS.md', bytes: 26, truncated: false },
      { path: 'pkg/AGENTS.md', bytes: 21, truncated: false },
    ];
    expect(runStart(out).context.files).toEqual(files);
    expect(report(out).context_files).toEqual(files);
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('| context files | `AGENTS.md`, `pkg/AGENTS.md` |');
  });

  it("a repository with CLAUDE.md or GEMINI.md and no AGENTS.md: not sent, and a warning says how to send them", async () => {
    const peer = tempDir('unattended-context-peer-');
    fs.mkdirSync(path.join(peer, 'pkg'));
    fs.writeFileSync(path.join(peer, 'CLAUDE.md'), 'Claude rules.\n');
    fs.writeFileSync(path.join(peer, 'pkg/GEMINI.md'), 'Gemini rules.\n');
    const out = path.join(peer, '..', `out-ctx-peer-${path.basename(peer)}`);
    const r = await runInProcess(`unattended -p "Fix it" --workspace ${peer} --out ${out}`, { cwd: path.join(peer, 'pkg') });
    expect(r.code).toBe(0);
    expect(r.requests[0]!.body.contents[0].parts.map((p: any) => p.text)).toEqual(['Fix it']);
    expect(report(out).context_files).toEqual([]);
    expect(report(out).warnings).toContain(
      'context files CLAUDE.md, pkg/GEMINI.md were not read: the run reads AGENTS.md (context.files); to send them, set context: {files: [AGENTS.md, CLAUDE.md, GEMINI.md]} in the recipe',
    );
    // Where AGENTS.md is read, the others are the repository's business: no warning.
    const quietOut = path.join(repo, '..', 'out-ctx-peer-quiet');
    expect((await runInProcess(`unattended -p "Fix it" --workspace ${repo} --out ${quietOut}`, { cwd: repo })).code).toBe(0);
    const quiet = report(quietOut).warnings as string[];
    expect(quiet.filter((w) => w.includes('were not read') || w.includes('was not read'))).toEqual([]);
  });

  it('a recipe names other files (context.files), caps them (max_bytes, said), or loads none (context: false, --no-context)', async () => {
    const recipe = (context: string) => {
      const file = path.join(repo, `r-${Math.random().toString(36).slice(2)}.yaml`);
      fs.writeFileSync(file, `version: 1\nprompt: Go.\nconfirmation: { mode: deny }\ncontext: ${context}\n`);
      return file;
    };
    const named = await runInProcess(`unattended run ${recipe('{ files: [CLAUDE.md, AGENTS.md], max_bytes: 20 }')} --out ${path.join(repo, '../out-ctx-2')}`, { cwd: repo });
    const text = named.requests[0]!.body.contents[0].parts[0].text as string;
    expect(text).toContain('<context_file path="CLAUDE.md">\nClaude rules.\n</context_file>');
    expect(text).toContain('Root r\n[cut here: the file has 26 bytes, the first 6 are shown]');
    const rep = report(path.join(repo, '../out-ctx-2'));
    expect(rep.context_files).toEqual([
      { path: 'CLAUDE.md', bytes: 14, truncated: false },
      { path: 'AGENTS.md', bytes: 26, truncated: true },
    ]);
    expect(rep.warnings).toContain('context file AGENTS.md was cut to 6 of its 26 bytes (context.max_bytes: 20 for all context files)');
    for (const command of [`unattended run ${recipe('false')}`, `unattended -p Go. --no-context`]) {
      const none = await runInProcess(command, { cwd: repo });
      expect({ command, parts: none.requests[0]!.body.contents[0].parts.length }).toEqual({ command, parts: 1 });
    }
  });

  it('a cut inside a character says how many bytes are shown, not where the cap fell', async () => {
    const ws = tempDir('unattended-context-cut-char-');
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), 'ab\u2713cd\n');
    fs.writeFileSync(path.join(ws, 'r.yaml'), 'version: 1\nprompt: Go.\nconfirmation: { mode: deny }\ncontext: { max_bytes: 4 }\n');
    const out = path.join(ws, '..', `${path.basename(ws)}-out`);
    const r = await runInProcess(`unattended run r.yaml --out ${out}`, { cwd: ws });
    expect(r.code).toBe(0);
    expect(r.requests[0]!.body.contents[0].parts[0].text).toContain('<context_file path="AGENTS.md">\nab\n[cut here: the file has 8 bytes, the first 2 are shown]');
    expect(report(out).warnings).toContain('context file AGENTS.md was cut to 2 of its 8 bytes (context.max_bytes: 4 for all context files)');
  });

  it('never sends a context file that is no text: binary, terminal escapes, or not UTF-8 are listed as skipped, with a warning', async () => {
    const ws = tempDir('unattended-context-binary-');
    fs.mkdirSync(path.join(ws, 'a/b/c'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    fs.writeFileSync(path.join(ws, 'a/AGENTS.md'), 'Use tabs.\x1b[2J\x1b[Hall clear\n');
    fs.writeFileSync(path.join(ws, 'a/b/AGENTS.md'), Buffer.from('Caf\xe9 cr\xe8me\n', 'latin1'));
    fs.writeFileSync(path.join(ws, 'a/b/c/AGENTS.md'), 'Plain rules: caf\u00e9.\n');
    const out = path.join(ws, '..', `${path.basename(ws)}-out`);
    const r = await runInProcess(`unattended -p "Fix it" --workspace ${ws} --out ${out}`, { cwd: path.join(ws, 'a/b/c') });
    expect(r.code).toBe(0);
    const sent = JSON.stringify(r.requests[0]!.body);
    expect(sent).toContain('Plain rules: café.');
    for (const raw of ['PNG', 'IHDR', '\\u001b', 'Use tabs', 'Caf\\ufffd', 'cr\\ufffdme']) expect(sent, raw).not.toContain(raw);
    const files = [
      { path: 'AGENTS.md', bytes: 16, truncated: false, skipped: 'it is binary (it holds NUL bytes)' },
      { path: 'a/AGENTS.md', bytes: 26, truncated: false, skipped: 'it is binary (it holds control characters, such as terminal escape codes)' },
      { path: 'a/b/AGENTS.md', bytes: 11, truncated: false, skipped: 'it is not UTF-8 text' },
      { path: 'a/b/c/AGENTS.md', bytes: 20, truncated: false },
    ];
    expect(runStart(out).context.files).toEqual(files);
    const rep = report(out);
    expect(rep.context_files).toEqual(files);
    expect(rep.warnings).toContain('context file a/b/AGENTS.md was not sent: it is not UTF-8 text, and binary content is never sent to the model');
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('`AGENTS.md` (not sent: not text)');
  });

  it('never follows a context file out of the workspace, and never lets it change the policy', async () => {
    const ws = tempDir('unattended-context-link-');
    const secret = path.join(tempDir('unattended-secret-'), 'id_rsa');
    fs.writeFileSync(secret, 'PRIVATE KEY MATERIAL\n');
    fs.symlinkSync(secret, path.join(ws, 'AGENTS.md'));
    const out = path.join(ws, '..', `${path.basename(ws)}-out`);
    const r = await runInProcess(`unattended -p "Write notes" --out ${out}`, {
      cwd: ws,
      replies: [{ calls: [{ name: 'write_file', args: { file_path: `${ws}/notes.md`, content: 'x' } }] }, { text: 'Could not write.' }],
    });
    expect(JSON.stringify(r.requests.map((q) => q.body))).not.toContain('PRIVATE KEY');
    const rep = report(out);
    expect(rep.warnings.some((w: string) => w.startsWith('context file AGENTS.md was not loaded:') && w.includes('outside the workspace'))).toBe(true);
    expect(rep.denials.map((d: any) => d.tool)).toEqual(['write_file']);
  });
});

describe('context files: @path imports (Claude Code, Gemini CLI)', () => {
  it('brings in the files a context file imports, relative to it, depth first, each once, under the same cap; never one outside the workspace or inside code', async () => {
    const ws = tempDir('unattended-context-imports-');
    const secret = path.join(tempDir('unattended-secret-'), 'id_rsa');
    fs.writeFileSync(secret, 'PRIVATE KEY MATERIAL\n');
    fs.mkdirSync(path.join(ws, 'docs/more'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, 'CLAUDE.md'),
      [
        'Read @docs/style.md before editing.',
        'Ask @octocat, or mail me@docs.example; see `@docs/not-this.md` and',
        '```',
        '@docs/example.md',
        '```',
        `Also @${secret} and @~/.claude/mine.md and @docs/gone.md.`,
        '',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(ws, 'docs/style.md'), 'Tabs, not spaces. More: @more/naming.md and @../CLAUDE.md\n');
    fs.writeFileSync(path.join(ws, 'docs/more/naming.md'), 'camelCase everywhere.\n');
    for (const f of ['docs/not-this.md', 'docs/example.md']) fs.writeFileSync(path.join(ws, f), 'NOT IMPORTED\n');
    fs.symlinkSync(secret, path.join(ws, 'docs/key.md'));
    fs.appendFileSync(path.join(ws, 'docs/more/naming.md'), 'See @../key.md\n');
    fs.writeFileSync(path.join(ws, 'r.yaml'), 'version: 1\nprompt: Go.\nconfirmation: { mode: deny }\ncontext: { files: [CLAUDE.md] }\n');
    const out = path.join(ws, '..', `${path.basename(ws)}-out`);
    const r = await runInProcess(`unattended run r.yaml --out ${out}`, { cwd: ws });
    expect(r.code).toBe(0);
    const text = r.requests[0]!.body.contents[0].parts[0].text as string;
    // Each imported file is its own block after the one that imports it, saying which.
    const order = ['<context_file path="CLAUDE.md">', '<context_file path="docs/style.md" imported_by="CLAUDE.md">\nTabs, not spaces.', '<context_file path="docs/more/naming.md" imported_by="docs/style.md">\ncamelCase everywhere.'];
    const at = order.map((piece) => text.indexOf(piece));
    expect(at.every((i) => i >= 0), text).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text.match(/<context_file path="CLAUDE.md"/g)).toHaveLength(1); // the import of it back is not sent twice
    expect(text).not.toContain('NOT IMPORTED');
    expect(JSON.stringify(r.requests.map((q) => q.body))).not.toContain('PRIVATE KEY');
    const rep = report(out);
    expect(rep.context_files).toEqual([
      { path: 'CLAUDE.md', bytes: fs.statSync(path.join(ws, 'CLAUDE.md')).size, truncated: false },
      { path: 'docs/style.md', bytes: fs.statSync(path.join(ws, 'docs/style.md')).size, truncated: false, imported_by: 'CLAUDE.md' },
      { path: 'docs/more/naming.md', bytes: fs.statSync(path.join(ws, 'docs/more/naming.md')).size, truncated: false, imported_by: 'docs/style.md' },
    ]);
    const warnings = (rep.warnings as string[]).filter((w) => w.startsWith('context file'));
    expect(warnings).toEqual([
      expect.stringMatching(/^context file docs\/key\.md \(imported by docs\/more\/naming\.md\) was not loaded: .*outside the workspace/),
      expect.stringMatching(/^context file .*id_rsa \(imported by CLAUDE\.md\) was not loaded: .*outside the workspace/),
      'context file CLAUDE.md imports @~/.claude/mine.md, which was not loaded: it is outside the workspace',
      'context file CLAUDE.md imports @docs/gone.md, which was not loaded: there is no such file',
    ]);
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('`docs/style.md` (imported by `CLAUDE.md`)');
  });

  it("never sends a file the recipe's deny rules keep from the model's reads, imported or found", async () => {
    const ws = tempDir('unattended-context-denied-');
    fs.mkdirSync(path.join(ws, 'secrets'));
    fs.mkdirSync(path.join(ws, 'private'));
    fs.writeFileSync(path.join(ws, 'secrets/key.pem'), 'DENIED KEY MATERIAL\n');
    fs.writeFileSync(path.join(ws, 'private/AGENTS.md'), 'DENIED NOTES\n');
    fs.writeFileSync(path.join(ws, 'docs.md'), 'Tabs, not spaces.\n');
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), 'Style: @docs.md and @secrets/key.pem\n');
    const recipe = ['version: 1', 'prompt: Go.', 'workspace: .', 'confirmation:', '  mode: deny', '  deny:', '    - read_file: "SECRETS/**"', '    - read_many_files: "private/"', ''].join('\n');
    fs.writeFileSync(path.join(ws, 'r.yaml'), recipe);
    const out = path.join(ws, '..', `${path.basename(ws)}-out`);
    const r = await runInProcess(`unattended run ${path.join(ws, 'r.yaml')} --out ${out}`, { cwd: path.join(ws, 'private') });
    expect(r.code).toBe(0);
    const sent = JSON.stringify(r.requests.map((q) => q.body));
    expect(sent).toContain('Tabs, not spaces.');
    expect(sent).not.toContain('DENIED');
    const rep = report(out);
    expect(rep.context_files.map((f: any) => f.path)).toEqual(['AGENTS.md', 'docs.md']);
    expect((rep.warnings as string[]).filter((w) => w.startsWith('context file'))).toEqual([
      "context file secrets/key.pem (imported by AGENTS.md) was not loaded: read_file on 'secrets/key.pem' is refused by the deny rule 'read_file: SECRETS/**' (at r.yaml:7)",
      "context file private/AGENTS.md was not loaded: read_file on 'private/AGENTS.md' is refused by the deny rule 'read_many_files: private/' (at r.yaml:8)",
    ]);
  });

  it('follows imports five deep, and says where it stopped', async () => {
    const ws = tempDir('unattended-context-deep-');
    for (let i = 0; i <= 6; i++) fs.writeFileSync(path.join(ws, i === 0 ? 'CLAUDE.md' : `l${i}.md`), `level ${i} @l${i + 1}.md\n`);
    fs.writeFileSync(path.join(ws, 'r.yaml'), 'version: 1\nprompt: Go.\nconfirmation: { mode: deny }\ncontext: { files: [CLAUDE.md] }\n');
    const out = path.join(ws, '..', `${path.basename(ws)}-out`);
    const r = await runInProcess(`unattended run r.yaml --out ${out}`, { cwd: ws });
    expect(r.code).toBe(0);
    const rep = report(out);
    expect(rep.context_files.map((f: any) => f.path)).toEqual(['CLAUDE.md', 'l1.md', 'l2.md', 'l3.md', 'l4.md', 'l5.md']);
    expect(rep.warnings).toContain('context file l5.md imports @l6.md, which was not loaded: imports are followed 5 deep');
  });
});

describe('run --continue', () => {
  let ws: string;
  let first: string;
  beforeAll(async () => {
    ws = tempDir('unattended-continue-');
    fs.writeFileSync(path.join(ws, 'README.md'), '# app\n\nTeh app.\n');
    first = path.join(ws, '.unattended/runs/first');
    const r = await runInProcess(`unattended -p "Find the typo" --approval allowlist --allow edit:README.md --tools read_file,edit --out ${first}`, {
      cwd: ws,
      replies: [{ calls: [{ name: 'read_file', args: { absolute_path: `${ws}/README.md` } }] }, { text: 'The typo is "Teh" on line 3.' }],
    });
    expect(r.code).toBe(0);
  });

  it('sends the earlier conversation, then the follow-up, under the same recipe and policy; the new run links to the old', async () => {
    const second = path.join(ws, '.unattended/runs/second');
    const r = await runInProcess(`unattended run --continue ${first} --prompt "Now fix it" --out ${second}`, { cwd: ws, replies: [{ text: 'Fixed.' }] });
    expect(r.code).toBe(0);
    expect(messageTexts(r.requests[0]!.body)).toEqual([
      { role: 'user', text: 'Find the typo' },
      { role: 'model', text: 'call:read_file' },
      { role: 'user', text: `response:${JSON.stringify({ output: '# app\n\nTeh app.' })}` },
      { role: 'model', text: 'The typo is "Teh" on line 3.' },
      { role: 'user', text: 'Now fix it' },
    ]);
    const names = r.requests[0]!.body.tools.flatMap((t: any) => t.functionDeclarations.map((d: any) => d.name));
    expect(names).toEqual(['read_file', 'edit']);
    const start = runStart(second);
    expect(start.prompt).toBe('Now fix it');
    expect(start.policy).toEqual(runStart(first).policy);
    expect(start.policy.allow).toEqual(['edit: README.md']);
    const rep = report(second);
    expect(rep.continued_from).toEqual({ run_id: report(first).run_id, transcript: path.join(first, 'transcript.jsonl') });
    expect(fs.readFileSync(path.join(second, 'report.md'), 'utf8')).toContain(`| continues | \`${report(first).run_id}\` |`);
  });

  it('--continue alone takes the latest run; a chain keeps the whole conversation; flags override', async () => {
    // -c as Claude Code spells it.
    const r = await runInProcess('unattended -c -p "And the tests?" -m gemini-2.5-pro', { cwd: ws, replies: [{ text: 'None.' }] });
    expect(r.code).toBe(0);
    expect(r.requests[0]!.model).toBe('gemini-2.5-pro');
    expect(messageTexts(r.requests[0]!.body).map((m) => m.text)).toEqual([
      'Find the typo',
      'call:read_file',
      `response:${JSON.stringify({ output: '# app\n\nTeh app.' })}`,
      'The typo is "Teh" on line 3.',
      'Now fix it',
      'Fixed.',
      'And the tests?',
    ]);
  });

  it('--continue alone never takes a run the repository planted, however new: only one this user started from here', async () => {
    // A "run" as a repository could ship it, or a command of an earlier run write it: it asks for
    // auto-approval and no sandbox, and claims to be the newest.
    const plant = (dir: string) => {
      const runDir = path.join(dir, '.unattended/runs/29991231T235959Z-ffffff');
      fs.mkdirSync(runDir, { recursive: true });
      const start = { ...runStart(first), run_id: '29991231T235959Z-ffffff', invocation: { ...runStart(first).invocation, approval: 'auto-approve', sandbox: 'off' } };
      fs.writeFileSync(path.join(runDir, 'transcript.jsonl'), `${JSON.stringify(start)}\n`);
      const future = new Date('2999-12-31T00:00:00Z');
      fs.utimesSync(path.join(runDir, 'transcript.jsonl'), future, future);
    };
    plant(ws);
    const r = await runInProcess('unattended --continue -p "Go on" --out .unattended/runs/after-plant', { cwd: ws, replies: [{ text: 'Done.' }] });
    expect(r.code).toBe(0);
    expect(runStart(path.join(ws, '.unattended/runs/after-plant')).continued_from.run_id).not.toBe('29991231T235959Z-ffffff');

    const fresh = tempDir('unattended-cloned-');
    plant(fresh);
    const none = await runInProcess('unattended --continue -p "Go on"', { cwd: fresh });
    expect([none.code, none.stderr]).toEqual([42, expect.stringContaining('--continue: no earlier run of yours is recorded for')]);
    expect(none.requests).toHaveLength(0);

    // The latest run, deleted since: said so.
    const other = tempDir('unattended-deleted-');
    expect((await runInProcess('unattended -p "Look" --out .unattended/runs/only', { cwd: other, replies: [{ text: 'Seen.' }] })).code).toBe(0);
    fs.rmSync(path.join(other, '.unattended'), { recursive: true });
    const gone = await runInProcess('unattended --continue -p "Go on"', { cwd: other });
    expect([gone.code, gone.stderr]).toEqual([42, expect.stringContaining('is gone (no transcript.jsonl there)')]);
  });

  it('says what is wrong: no such run, no follow-up prompt', async () => {
    const missing = await runInProcess('unattended --continue /nonexistent/run -p x', { cwd: ws });
    expect([missing.code, missing.stderr]).toEqual([42, expect.stringContaining('--continue /nonexistent/run: no such run directory or transcript')]);
    // A directory that is not a run's: said so, not node's "ENOENT: no such file or directory, stat …".
    const notRun = await runInProcess(`unattended --continue ${ws} -p x`, { cwd: ws });
    expect([notRun.code, notRun.stderr]).toEqual([42, expect.stringContaining(`--continue ${ws}: the directory holds no transcript.jsonl, so it is not a run's directory`)]);
    expect(notRun.stderr).not.toContain('ENOENT');
    const noPrompt = await runInProcess(`unattended --continue ${first}`, { cwd: ws });
    expect([noPrompt.code, noPrompt.stderr]).toEqual([42, expect.stringContaining('--continue needs a follow-up prompt')]);
    expect(missing.requests.length + noPrompt.requests.length + notRun.requests.length).toBe(0);
  });

  it('a word shaped like a run id is a run: found where runs are written, or refused saying where it looked; never the prompt of another run', async () => {
    const id = '20261128T040100Z-abcdef';
    fs.cpSync(first, path.join(ws, '.unattended/runs', id), { recursive: true });
    const byId = await runInProcess(`unattended run --continue ${id} -p "Go on" --out ${path.join(ws, '.unattended/runs/by-id')}`, { cwd: ws, replies: [{ text: 'Went on.' }] });
    expect(byId.code).toBe(0);
    expect(runStart(path.join(ws, '.unattended/runs/by-id')).continued_from.transcript).toBe(path.join(ws, '.unattended/runs', id, 'transcript.jsonl'));

    const runsBefore = fs.readdirSync(path.join(ws, '.unattended/runs')).sort();
    for (const typo of ['20261128T040100Z-8c72cc', '20261128T0401Z']) {
      for (const command of [`unattended run --continue ${typo}`, `unattended run --continue ${typo} -p "Go on"`]) {
        const r = await runInProcess(command, { cwd: ws });
        expect({ command, code: r.code, stderr: r.stderr }).toEqual({
          command,
          code: 42,
          stderr: expect.stringContaining(`--continue ${typo}: no run ${typo} found (looked for ${typo}/transcript.jsonl in ${ws}, ${path.join(ws, '.unattended/runs')}`),
        });
        expect(r.requests).toHaveLength(0);
      }
    }
    // Nothing was started: no run directory, no report.
    expect(fs.readdirSync(path.join(ws, '.unattended/runs')).sort()).toEqual(runsBefore);
  });
});

describe('run --continue goes on with what the earlier runs left', () => {
  it('their todo list (in the new report, and for the todo tool) and the files they changed (for compaction)', async () => {
    const ws = tempDir('unattended-continue-state-');
    fs.writeFileSync(path.join(ws, 'src.ts'), 'export const answer = 41;\n');
    const first = path.join(ws, '.unattended/runs/first');
    const todos = [
      { id: '1', content: 'set the answer', status: 'completed' },
      { id: '2', content: 'add a test', status: 'pending' },
    ];
    const r1 = await runInProcess(`unattended -p "Set the answer to 42" --approval auto-approve --tools todo_write,edit --out ${first}`, {
      cwd: ws,
      replies: [
        { calls: [{ name: 'todo_write', args: { todos } }] },
        { calls: [{ name: 'edit', args: { file_path: `${ws}/src.ts`, old_string: '41', new_string: '42' } }] },
        { text: 'Set; the test is left.' },
      ],
    });
    expect(r1.code).toBe(0);
    const earlier = readEarlierRun(first, ws);
    expect(earlier.filesChanged).toEqual(['src.ts']);
    expect(earlier.todos).toEqual(todos);

    const second = path.join(ws, '.unattended/runs/second');
    const r2 = await runInProcess(`unattended run --continue ${first} -p "Now the test" --out ${second}`, { cwd: ws, replies: [{ text: 'Later.' }] });
    expect(r2.code).toBe(0);
    expect(report(second).todos).toEqual(todos);
    // A chain: the third run knows what the first changed, and the list as the second left it.
    const chained = readEarlierRun(second, ws);
    expect([chained.filesChanged, chained.todos]).toEqual([['src.ts'], todos]);
  });

  it('says when an earlier transcript holds a line that is no event (cut off by a kill), which the conversation goes on without', async () => {
    const ws = tempDir('unattended-continue-torn-');
    const first = path.join(ws, '.unattended/runs/first');
    expect((await runInProcess(`unattended -p "Look" --tools read_file --out ${first}`, { cwd: ws, replies: [{ text: 'Looked.' }] })).code).toBe(0);
    const transcript = path.join(first, 'transcript.jsonl');
    const lines = fs.readFileSync(transcript, 'utf8').split('\n').length;
    fs.appendFileSync(transcript, '{"type":"model_response","ts":"2026-01-01T00:00:00.000Z","run_id":"x","seq":99,"text":"cut o');
    const second = path.join(ws, '.unattended/runs/second');
    const r = await runInProcess(`unattended run --continue ${first} -p "Go on" --out ${second}`, { cwd: ws, replies: [{ text: 'Went on.' }] });
    expect(r.code).toBe(0);
    expect(report(second).warnings).toContainEqual(`an earlier run's transcript has lines that are not events (cut off while written?), left out of the conversation this run goes on with: ${transcript}: 1 line ${lines}`);
  });
});
