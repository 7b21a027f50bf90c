// The batch's pure parts: the targets file, shards, failure classification, merging, progress.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupRepos, tempRoot } from '../git/repos.js';
import { emptyRow, type BatchReport, type BatchRow } from '../../src/batch/batch-report.js';
import { classifyRun } from '../../src/batch/classify.js';
import { eventSniffer, type LiveEvent } from '../../src/batch/event-sniffer.js';
import { mergeReports } from '../../src/batch/merge.js';
import { createProgress } from '../../src/batch/progress.js';
import { parseShard, selectShard, shardMatrix, shardOf } from '../../src/batch/shard.js';
import { isGitUrl, parseTargets, targetSlug } from '../../src/batch/targets.js';
import type { Report } from '../../src/report/report.js';

afterAll(cleanupRepos);

describe('targets file', () => {
  it('reads one target a line, skipping comments and blanks, resolving paths against its directory', () => {
    const text = '# fleet\r\n\r\nrepos/a\n  ../b   # trailing comment\nhttps://github.com/o/r.git#main\ngit@github.com:o/r2.git\nrepos/a\n';
    const { targets, warnings } = parseTargets(text, '/srv/fleet');
    expect(targets.map((t) => [t.index, t.spec, t.kind, t.location])).toEqual([
      [0, 'repos/a', 'path', '/srv/fleet/repos/a'],
      [1, '../b', 'path', '/srv/b'],
      [2, 'https://github.com/o/r.git#main', 'git', 'https://github.com/o/r.git#main'],
      [3, 'git@github.com:o/r2.git', 'git', 'git@github.com:o/r2.git'],
    ]);
    expect(warnings).toEqual(["line 7: 'repos/a' repeats line 3; it runs once"]);
  });

  it('runs a repository spelled several ways once, warning which lines repeat which', () => {
    const root = tempRoot('unattended-targets-');
    fs.mkdirSync(path.join(root, 'a'));
    fs.symlinkSync('a', path.join(root, 'link'));
    const text = [
      'a', './a', 'a/', 'link',
      'https://GitHub.com/o/z.git', 'https://github.com/o/z', 'https://github.com/o/z/', 'git@GITHUB.COM:o/z.git', 'git@github.com:o/z', 'https://github.com/O/Z',
      'https://git.example/o/r.git', 'https://git.example/o/R.git',
    ].join('\n');
    const { targets, warnings } = parseTargets(text, root);
    // On a forge a repository is its host and path in any case and by any protocol; elsewhere case counts.
    expect(targets.map((t) => t.spec)).toEqual(['a', 'https://GitHub.com/o/z.git', 'https://git.example/o/r.git', 'https://git.example/o/R.git']);
    expect(targets.map((t) => t.index)).toEqual([0, 1, 2, 3]);
    expect(warnings).toEqual([
      "line 2: './a' is the same repository as line 1 ('a'); it runs once",
      "line 3: 'a/' is the same repository as line 1 ('a'); it runs once",
      "line 4: 'link' is the same repository as line 1 ('a'); it runs once",
      "line 6: 'https://github.com/o/z' is the same repository as line 5 ('https://GitHub.com/o/z.git'); it runs once",
      "line 7: 'https://github.com/o/z/' is the same repository as line 5 ('https://GitHub.com/o/z.git'); it runs once",
      "line 8: 'git@GITHUB.COM:o/z.git' is the same repository as line 5 ('https://GitHub.com/o/z.git'); it runs once",
      "line 9: 'git@github.com:o/z' is the same repository as line 5 ('https://GitHub.com/o/z.git'); it runs once",
      "line 10: 'https://github.com/O/Z' is the same repository as line 5 ('https://GitHub.com/o/z.git'); it runs once",
    ]);
  });

  it.each([
    ['https://github.com/o/r', true],
    ['ssh://git@host/o/r.git', true],
    ['file:///srv/r.git', true],
    ['git@github.com:o/r.git', true],
    ['/srv/repos/r', false],
    ['./r', false],
    ['r@2:x/y', true],
    ['dir/with@sign', false],
  ])('%s is a git URL: %s', (spec, expected) => {
    expect(isGitUrl(spec)).toBe(expected);
  });

  it('makes readable, safe, stable and distinct slugs', () => {
    expect(targetSlug('https://github.com/acme/Web App.git')).toMatch(/^acme-web-app-[0-9a-f]{6}$/);
    expect(targetSlug('../../')).toMatch(/^target-[0-9a-f]{6}$/);
    // Pinned: --resume finds an earlier run by its slug, so a slug must not change between versions.
    expect(targetSlug('a/b')).toBe('a-b-c14cdd');
    expect(targetSlug('a/b')).not.toBe(targetSlug('a-b'));
  });
});

describe('shards', () => {
  const targets = Array.from({ length: 60 }, (_, i) => ({ spec: `https://git.example/org/repo-${i}.git` }));

  it.each([1, 2, 3, 5, 7])('split %i ways: disjoint and complete', (count) => {
    const slices = Array.from({ length: count }, (_, i) => selectShard(targets, { index: i + 1, count }).map((t) => t.spec));
    const all = slices.flat();
    expect(all.sort()).toEqual(targets.map((t) => t.spec).sort());
    expect(new Set(all).size).toBe(targets.length);
  });

  it('keeps a target in its shard whatever else is in the file (the hash is pinned)', () => {
    expect(shardOf({ spec: 'repos/alpha' }, 3)).toBe(2);
    expect(shardOf({ spec: 'repos/delta' }, 3)).toBe(3);
    expect(shardOf({ spec: 'repos/epsilon' }, 3)).toBe(1);
  });

  it.each(['0/3', '4/3', '1/0', '1/257', 'a/b', '2'])('refuses --shard %s', (text) => {
    expect(() => parseShard(text)).toThrow(/must be i\/n/);
  });

  it('lists only shards that have targets in the matrix', () => {
    expect(shardMatrix(targets, 3)).toEqual({ include: [{ shard: '1/3' }, { shard: '2/3' }, { shard: '3/3' }] });
    const few = [{ spec: 'repos/alpha' }, { spec: 'repos/beta' }];
    expect(shardMatrix(few, 3)).toEqual({ include: [{ shard: '2/3' }] });
    expect(() => shardMatrix(few, 0)).toThrow(/--shards/);
  });
});

describe('classifyRun', () => {
  const report = (over: Partial<Report>): Report => ({ status: 'failed', exit_code: 1, error: null, limit: null, git: null, ...over }) as Report;
  const exit = { exitCode: 1, signal: null, stderrTail: '' };

  it.each([
    [{ status: 'success', exit_code: 0 }, 'success', null],
    // What the run's exit code says: a run that finished with denials exited 0, so the row succeeded.
    [{ status: 'denied', exit_code: 0 }, 'success', null],
    [{ status: 'denied', exit_code: 57, limit: 'max_denials' }, 'agent', 'policy denied'],
    [{ status: 'failed', error: 'the model gave an empty answer', error_kind: 'empty' }, 'agent', 'failed: the model gave an empty answer'],
    [{ status: 'limit', exit_code: 53, limit: 'max_turns' }, 'agent', 'limit: max_turns'],
    [{ status: 'loop', exit_code: 1 }, 'agent', 'loop detected'],
    [{ status: 'check_failed', exit_code: 56 }, 'agent', 'checks failed'],
    [{ status: 'error', exit_code: 41, error: 'API key not valid', error_kind: 'auth' }, 'infrastructure', 'endpoint refused the credentials'],
    // Classified by the typed kind, whatever the message says.
    [{ error: 'model call failed: HTTP 503 (gave up after 5 attempts)', error_kind: 'server' }, 'infrastructure', 'endpoint unavailable'],
    [{ error: 'model call failed: anything at all', error_kind: 'network' }, 'infrastructure', 'endpoint unavailable'],
    [{ error: 'model call failed: no data for 60 s', error_kind: 'stalled' }, 'infrastructure', 'endpoint unavailable'],
    [{ error: 'model call failed: the response was cut off before it finished', error_kind: 'cut_off' }, 'infrastructure', 'endpoint unavailable'],
    [{ error: 'model call failed: HTTP 429', error_kind: 'rate_limit' }, 'infrastructure', 'endpoint unavailable'],
    [{ error: 'model call failed: cannot reach http://x: ECONNREFUSED', error_kind: 'bad_request' }, 'agent', 'failed: cannot reach http://x: ECONNREFUSED'],
    [{ status: 'handoff_failed', exit_code: 58, error: 'git hand-off: branch x exists', error_kind: 'handoff' }, 'handoff', 'git hand-off failed'],
    [{ status: 'error', exit_code: 52, error: 'invalid recipe', error_kind: 'recipe' }, 'configuration', 'bad recipe or configuration'],
    [{ status: 'error', exit_code: 54, error: 'disk full', error_kind: 'io' }, 'infrastructure', 'fatal tool error'],
    [{ status: 'error', exit_code: 1, error: 'unexpected error: boom' }, 'infrastructure', 'runner error'],
    [{ status: 'cancelled', exit_code: 143 }, 'cancelled', 'cancelled'],
  ] as const)('%j -> %s (%s)', (over, category, cause) => {
    expect(classifyRun(report(over as Partial<Report>), exit)).toMatchObject({ category, cause });
  });

  it('calls a run that left no report a runner crash', () => {
    expect(classifyRun(null, { exitCode: null, signal: 'SIGSEGV', stderrTail: '' })).toEqual({ status: 'error', category: 'infrastructure', cause: 'runner crashed (killed by SIGSEGV, no report)' });
  });
});

describe('mergeReports', () => {
  const target = (i: number) => ({ index: i, spec: `t${i}`, slug: `t${i}-000000` });
  const row = (i: number, over: Partial<BatchRow>): BatchRow => ({ ...emptyRow(target(i)), ...over });
  const batchReport = (rows: BatchRow[], updated: string, recipe = 'r'): BatchReport => ({
    version: 1, recipe, targets_file: 'targets.txt', shard: null, started_at: updated, updated_at: updated, finished: true, interrupted: null,
    totals: null as never, failures: [], rows,
  });

  it('keeps the most conclusive row per target and recomputes totals, in file order', () => {
    const a = batchReport([row(2, { status: 'success', category: 'success', report: 'targets/t2/report.json', tokens: { input: 5, output: 5, total: 10 } }), row(0, { status: 'error', category: 'infrastructure', cause: 'clone failed' })], '2026-01-01T00:00:00Z');
    const b = batchReport([row(0, { status: 'failed', category: 'agent', cause: 'failed: x' }), row(1, { status: 'skipped', category: 'not_run', cause: 'batch deadline passed' })], '2025-12-31T00:00:00Z');
    const merged = mergeReports([{ dir: '/jobs/a', report: a }, { dir: '/jobs/b', report: b }], '/merged');
    expect(merged.rows.map((r) => [r.target, r.category])).toEqual([['t0', 'agent'], ['t1', 'not_run'], ['t2', 'success']]);
    expect(merged.rows[2]!.report).toBe(path.join('..', 'jobs', 'a', 'targets/t2/report.json'));
    expect(merged.totals.tokens.total).toBe(10);
    expect(merged.failures.map((g) => g.cause)).toEqual(['batch deadline passed', 'failed: x']);
    expect(merged.updated_at).toBe('2026-01-01T00:00:00Z');
  });

  it('refuses to mix recipes', () => {
    expect(() => mergeReports([{ dir: 'a', report: batchReport([], 'x', 'one') }, { dir: 'b', report: batchReport([], 'x', 'two') }], '.')).toThrow(/different recipes/);
  });

  it('refuses reports of one recipe run with other --param values (or another version of its file), and keeps what they ran', () => {
    const ran = (params: string[], sha = 'a'.repeat(64)) => ({ ...batchReport([], 'x'), inputs: { recipe_file: 'r.yaml', recipe_sha256: sha, params } });
    expect(() => mergeReports([{ dir: 'a', report: ran(['tone=v1']) }, { dir: 'b', report: ran(['tone=v2']) }], '.')).toThrow(
      /^the reports ran the recipe differently \(a: tone=v1, recipe sha256 aaaaaaaaaaaa; b: tone=v2, recipe sha256 aaaaaaaaaaaa\)/,
    );
    expect(() => mergeReports([{ dir: 'a', report: ran([]) }, { dir: 'b', report: ran([], 'b'.repeat(64)) }], '.')).toThrow(/ran the recipe differently/);
    const merged = mergeReports([{ dir: 'a', report: ran(['tone=v1']) }, { dir: 'b', report: ran(['tone=v1']) }], '.');
    expect(merged.inputs).toEqual({ recipe_file: 'r.yaml', recipe_sha256: 'a'.repeat(64), params: ['tone=v1'] });
  });
});

describe('progress', () => {
  const done = (over: Partial<BatchRow>): BatchRow => ({ ...emptyRow({ index: 0, spec: 'repos/a', slug: 'a' }), status: 'success', category: 'success', duration_ms: 1500, exit_code: 0, ...over });

  it('prints plain lines in CI and log groups in GitHub Actions', () => {
    let text = '';
    const plain = createProgress({ sink: { write: (s: string) => (text += s) }, total: 2, concurrency: 1, githubActions: false });
    plain.start('repos/a');
    plain.finish(done({ error: null, report: 'targets/a/report.json' }));
    expect(text).toBe('unattended batch: ▶ repos/a\nunattended batch: ✓ repos/a: success [1/2] 1.5 s\n    exit 0, 0 turns, 0 tool calls, 0 tokens, 0 files changed\n    report: targets/a/report.json\n');
    text = '';
    const single = createProgress({ sink: { write: (s: string) => (text += s) }, total: 1, concurrency: 1, githubActions: false });
    const row = done({});
    single.finish({ ...row, turns: 1, tool_calls: 1, tokens: { ...row.tokens, total: 1 }, files_changed: 1 });
    expect(text).toContain('exit 0, 1 turn, 1 tool call, 1 token, 1 file changed\n');
    text = '';
    const actions = createProgress({ sink: { write: (s: string) => (text += s) }, total: 1, concurrency: 1, githubActions: true });
    actions.finish(done({ status: 'denied', category: 'agent', cause: 'policy denied', error: '1 call denied' }));
    expect(text).toMatch(/^::group::✗ repos\/a: denied \(policy denied\) \[1\/1\] 1\.5 s\n::stop-commands::(unattended-[0-9a-f]{32})\n.*\nerror: 1 call denied\n::\1::\n::endgroup::\n$/);
  });

  it('on a terminal redraws a live line per running target and a bar with counts and ETA', () => {
    let text = '';
    const tty = createProgress({ sink: { write: (s: string) => (text += s), isTTY: true, columns: 0 }, total: 3, concurrency: 2, githubActions: false });
    tty.start('repos/a');
    tty.start('repos/b');
    tty.event('repos/b', { kind: 'turn', turn: 3 });
    tty.event('repos/b', { kind: 'tool', name: 'edit' });
    tty.finish(done({}));
    tty.close();
    expect(text).toContain('✓ repos/a  success  1.5 s\n');
    expect(text).toMatch(/repos\/b {2}turn 3 · edit {2}\d/);
    expect(text).toMatch(/\] 1\/3 done · 1 running · 0 failed · elapsed [\d.]+ s · ETA 1\.5 s/);
    expect(text).toContain('\x1b[1A\x1b[2K');
  });
});

describe('eventSniffer', () => {
  it('finds turns and tool names across chunk boundaries without keeping whole lines', () => {
    const seen: LiveEvent[] = [];
    const feed = eventSniffer((e) => seen.push(e));
    const big = `{"type":"tool_result","turn":1,"llm_content":"${'x'.repeat(200_000)}"}\n`;
    const text = `{"type":"model_request","ts":"t","seq":2,"turn":12,"messages":3}\n{"type":"tool_call","ts":"t","turn":12,"call_id":"c","name":"read_file","args":{}}\n${big}{"type":"model_request","turn":13}\n`;
    for (let i = 0; i < text.length; i += 7_000) feed(text.slice(i, i + 7_000));
    expect(seen).toEqual([{ kind: 'turn', turn: 12 }, { kind: 'tool', name: 'read_file' }, { kind: 'turn', turn: 13 }]);
  });
});

describe('estimated usage in a batch report', () => {
  it('marks the rows and totals of runs whose endpoint sent no counts, in JSON and in Markdown', async () => {
    const { totalsOf } = await import('../../src/batch/batch-report.js');
    const { renderBatchMarkdown } = await import('../../src/batch/render-batch-markdown.js');
    const base = (i: number): BatchRow => ({ ...emptyRow({ index: i, spec: `repos/${i}`, slug: String(i) }), status: 'success', category: 'success', exit_code: 0 });
    const rows: BatchRow[] = [
      { ...base(0), tokens: { input: 100, output: 5, total: 105 }, cost_usd: 0.001 },
      { ...base(1), tokens: { input: 196, output: 1, total: 197, estimated: true }, cost_usd: 0.000198 },
    ];
    const totals = totalsOf(rows);
    expect(totals.tokens).toEqual({ input: 296, output: 6, total: 302, estimated: true });
    expect(totalsOf(rows.slice(0, 1)).tokens.estimated).toBeUndefined();
    const report = { recipe: 'r', shard: null, finished: true, rows, totals, failures: [] } as unknown as BatchReport;
    const md = renderBatchMarkdown(report);
    expect(md).toContain('| tokens | about 296 in, about 6 out (estimated: an endpoint sent no usage) |');
    expect(md).toMatch(/\| ~197 \| ~\$0\.000198 \|/);
  });
});

describe('the batch report in Markdown', () => {
  it("says the total cost is only part of it when runs that used tokens had no price (a model the table does not know)", async () => {
    const { totalsOf } = await import('../../src/batch/batch-report.js');
    const { renderBatchMarkdown } = await import('../../src/batch/render-batch-markdown.js');
    const base = (i: number): BatchRow => ({ ...emptyRow({ index: i, spec: `repos/${i}`, slug: String(i) }), status: 'success', category: 'success', exit_code: 0 });
    const priced = { ...base(0), tokens: { input: 100, output: 5, total: 105 }, cost_usd: 0.25 };
    const unpriced = (i: number): BatchRow => ({ ...base(i), tokens: { input: 900, output: 50, total: 950 }, cost_usd: null });
    const md = (rows: BatchRow[]) => renderBatchMarkdown({ recipe: 'r', shard: null, finished: true, rows, totals: totalsOf(rows), failures: [] } as unknown as BatchReport);
    expect(md([priced, unpriced(1), unpriced(2)])).toContain('| cost | at least $0.2500: 2 runs with no known price left out |');
    expect(md([priced, unpriced(1)])).toContain('| cost | at least $0.2500: 1 run with no known price left out |');
    // A target that never ran (no tokens) takes nothing from the sum.
    expect(md([priced, { ...base(1), cost_usd: null }])).toContain('| cost | $0.2500 |');
    expect(md([unpriced(1)])).toContain('| cost | unknown |');
  });

  it('keeps what came from outside (a targets line, an error) inert for whoever reads the file in a terminal', async () => {
    const { totalsOf } = await import('../../src/batch/batch-report.js');
    const { renderBatchMarkdown } = await import('../../src/batch/render-batch-markdown.js');
    const spec = 'repos/a\x1b]8;;https://evil.example\x07click\x1b]8;;\x07\x1b[2J\u202e|x';
    const row: BatchRow = { ...emptyRow({ index: 0, spec, slug: 'a' }), status: 'failed', category: 'agent', exit_code: 1, error: 'boom\x1b[31m red\x1b[0m' };
    const report = { recipe: 'r', shard: null, finished: true, rows: [row], totals: totalsOf([row]), failures: [] } as unknown as BatchReport;
    const md = renderBatchMarkdown(report);
    expect(md).not.toMatch(/[\x1b\x07\u202e]/);
    expect(md).toContain('`repos/aclick\\|x`');
    expect(md).toContain('boom red');
  });

  it("keeps an error that quotes a server's HTML in its cell: a '<!--' there hid every row after it when rendered", async () => {
    const { totalsOf } = await import('../../src/batch/batch-report.js');
    const { renderBatchMarkdown } = await import('../../src/batch/render-batch-markdown.js');
    const { micromark } = await import('micromark');
    const row = (i: number, error: string | null): BatchRow => ({ ...emptyRow({ index: i, spec: `repos/${i}`, slug: String(i) }), status: error ? 'failed' : 'success', category: error ? 'infrastructure' : 'success', exit_code: error ? 1 : 0, error });
    const rows = [row(0, 'HTTP 502 from https://proxy.test/v1: <!-- upstream --><html><body>Bad gateway'), row(1, null)];
    const html = micromark(renderBatchMarkdown({ recipe: 'r', shard: null, finished: true, rows, totals: totalsOf(rows), failures: [] } as unknown as BatchReport), { allowDangerousHtml: true });
    expect(html).not.toMatch(/<!--|<html>/);
    expect(html).toContain('repos/1');
  });
});

describe("an error too long for the batch report's table", () => {
  it('is cut with an ellipsis (and never inside a character), so a cut error does not read as the whole of it', async () => {
    const { totalsOf } = await import('../../src/batch/batch-report.js');
    const { renderBatchMarkdown } = await import('../../src/batch/render-batch-markdown.js');
    const clone = `fatal: '/srv/nope.git' does not appear to be a git repository\nfatal: Could not read from remote repository.`;
    const long = `${'x'.repeat(159)}😀 and then the part that says why`;
    const row = (i: number, error: string): BatchRow => ({ ...emptyRow({ index: i, spec: `repos/${i}`, slug: String(i) }), status: 'error', category: 'infrastructure', error });
    const rows = [row(0, clone), row(1, long), row(2, 'short and whole')];
    const md = renderBatchMarkdown({ recipe: 'r', shard: null, finished: true, rows, totals: totalsOf(rows), failures: [] } as unknown as BatchReport);
    const cells = md.split('\n').filter((l) => l.includes('`repos/')).map((l) => l.split(' | ').at(-1)!.replace(/ \|$/, ''));
    expect(cells[0]).toBe("fatal: '/srv/nope.git' does not appear to be a git repository…");
    expect(cells[1]).toBe(`${'x'.repeat(159)}…`);
    expect(cells[2]).toBe('short and whole');
  });
});
