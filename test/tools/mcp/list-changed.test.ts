// A stdio MCP server (the SDK's Server in a child process, fixtures/mcp/changing-server.mjs) that
// changes its tools mid-run and says so with notifications/tools/list_changed, as GitHub's server
// does after `enable_toolset`. The notification was ignored: the model kept being offered the start
// list, and a call to the tool the server had just added was "Unknown tool". The server is now
// listed again before the next model request: the request declares the new list, the call runs
// under the policy like any tool of the server, and the transcript says what changed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, readRun } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/cli-in-process.js';
import { FIXTURES } from '../../helpers/child-processes.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeStep } from '../../helpers/fake-openai.js';
import { cleanupTempDirs, tempDir } from '../../e2e/temp-recipe.js';

const CHANGING = path.join(FIXTURES, 'mcp/changing-server.mjs');

afterAll(cleanupTempDirs);
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const call = (name: string, args: Record<string, unknown> = {}): FakeStep => ({ toolCalls: [{ name, arguments: args }] });

async function run(steps: FakeStep[], opts: { confirmation?: string; env?: Record<string, string>; spawned?: boolean; tools?: string; limits?: string } = {}) {
  fake = await startFakeOpenAI([...steps, { text: 'done' }]);
  const dir = tempDir();
  const file = path.join(dir, 'recipe.yaml');
  const env = JSON.stringify(opts.env ?? {});
  fs.writeFileSync(
    file,
    [
      'version: 1',
      'prompt: find the secret',
      'provider: openai',
      'model: local-model',
      `base_url: ${fake.url}`,
      'workspace: .',
      `tools: ${opts.tools ?? '[read_file]'}`,
      `confirmation: ${opts.confirmation ?? '{ mode: auto-approve }'}`,
      ...(opts.limits ? [`limits: ${opts.limits}`] : []),
      `mcp_servers: { srv: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(CHANGING)}], env: ${env}, timeout: 30s } }`,
      '',
    ].join('\n'),
  );
  const out = path.join(dir, 'run');
  const args = ['run', file, '--out', out];
  const r = opts.spawned ? await cli(args, { cwd: dir, env: { OPENAI_API_KEY: 'k' } }) : await cliInProcess(args, { cwd: dir, env: { OPENAI_API_KEY: 'k' } });
  const { events, report } = readRun(out);
  const declared = fake.requests.map((req) => (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name));
  const results = events.filter((e: any) => e.type === 'tool_result');
  return { ...r, events, report, declared, results };
}

describe('an MCP server that changes its tools mid-run', () => {
  it('is listed again: the next request offers the new tools, a call to one runs, and the transcript and console say what changed', async () => {
    const r = await run([call('srv__unlock'), call('srv__secret')], { spawned: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.declared[0]).toEqual(['read_file', 'srv__unlock', 'srv__echo']);
    // What stays keeps its place (the cached prefix); what is new goes last.
    expect(r.declared[1]).toEqual(['read_file', 'srv__echo', 'srv__secret']);
    const echo = (n: number) => fake!.requests[n]!.body.tools.find((t: any) => t.function.name === 'srv__echo').function.description;
    expect([echo(0), echo(1)]).toEqual(['says what it got', 'says what it got, now unlocked']);
    expect(r.results.map((e: any) => [e.name, e.error_type, e.llm_content])).toEqual([
      ['srv__unlock', null, 'unlocked'],
      ['srv__secret', null, 'the secret is 42'],
    ]);
    expect(r.events.filter((e: any) => e.type === 'tools_changed')).toMatchObject([
      { type: 'tools_changed', turn: 2, server: 'srv', added: ['srv__secret'], removed: ['srv__unlock'], changed: ['srv__echo'] },
    ]);
    expect(r.stderr).toContain('MCP server srv changed its tools: added srv__secret; removed srv__unlock; changed srv__echo');
  });

  it('a sub-agent is offered what the server adds while it works, and the main loop after it', async () => {
    // The main model hands the work to a sub-agent; the sub-agent unlocks, then calls the new tool.
    const task = call('task', { description: 'find it', prompt: 'unlock, then read the secret' });
    const r = await run([task, call('srv__unlock'), call('srv__secret'), { text: 'the secret is 42' }], { tools: '[read_file, task]' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e: any) => [e.name, e.error_type])).toEqual([
      ['srv__unlock', null],
      ['srv__secret', null],
      ['task', null],
    ]);
    // Requests: main (task), sub (unlock), sub (secret), sub (answer), main (done).
    expect(r.declared[1]).toEqual(['read_file', 'srv__unlock', 'srv__echo']);
    expect(r.declared[2]).toEqual(['read_file', 'srv__echo', 'srv__secret']);
    expect(r.declared[4]).toEqual(['read_file', 'task', 'srv__echo', 'srv__secret']);
    // The sub-agent's view of the change, then the main loop's, which is offered the new list after it.
    const changes = r.events.filter((e: any) => e.type === 'tools_changed');
    expect(changes).toMatchObject([
      { server: 'srv', added: ['srv__secret'], removed: ['srv__unlock'], parent_call_id: expect.any(String) },
      { server: 'srv', added: ['srv__secret'], removed: ['srv__unlock'], changed: ['srv__echo'] },
    ]);
    expect(changes[1]?.parent_call_id).toBeUndefined();
  });

  it('a change a sub-agent kept to other tools brought in is still said for the main loop, which is offered it', async () => {
    // The sub-agent may call unlock alone: the tools the server adds are none of its, and it is
    // told only that unlock went. The main loop is offered secret and the new echo after the task.
    const task = call('task', { description: 'unlock it', prompt: 'unlock', tools: ['srv__unlock'] });
    const r = await run([task, call('srv__unlock'), { text: 'unlocked' }, call('srv__secret'), { text: 'the secret is 42' }], { tools: '[read_file, task]', spawned: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e: any) => [e.name, e.error_type])).toEqual([
      ['srv__unlock', null],
      ['task', null],
      ['srv__secret', null],
    ]);
    expect(r.declared[1]).toEqual(['srv__unlock']);
    expect(r.declared[3]).toEqual(['read_file', 'task', 'srv__echo', 'srv__secret']);
    const main = r.events.filter((e: any) => e.type === 'tools_changed' && e.parent_call_id === undefined);
    expect(main).toMatchObject([{ server: 'srv', added: ['srv__secret'], removed: ['srv__unlock'], changed: ['srv__echo'] }]);
    expect(r.stderr).toMatch(/^ {2}… MCP server srv changed its tools: added srv__secret; removed srv__unlock; changed srv__echo$/m);
  });

  it('a sub-agent stopped while it listed the tools again leaves the listing to the main loop, which is offered the new list', async () => {
    // The task's time runs out while the server is slow to list its tools after unlock: the
    // sub-agent's listing is abandoned, and the main loop must still list them before its request.
    const task = call('task', { description: 'unlock it', prompt: 'unlock, then go on' });
    const r = await run([task, call('srv__unlock'), call('srv__secret'), { text: 'the secret is 42' }], {
      tools: '[read_file, task]',
      env: { CHANGING_SLOW_LIST: '2500' },
      limits: '{ tool_timeout: 1500ms }',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e: any) => [e.name, e.error_type])).toEqual([
      ['srv__unlock', null],
      ['task', 'timeout'],
      ['srv__secret', null],
    ]);
    // Requests: main (task), sub (unlock), main (secret), main (answer).
    expect(r.declared[2]).toEqual(['read_file', 'task', 'srv__echo', 'srv__secret']);
    expect(r.events.filter((e: any) => e.type === 'tools_changed' && e.parent_call_id === undefined)).toMatchObject([{ server: 'srv', added: ['srv__secret'], removed: ['srv__unlock'] }]);
  });

  it('a tool it took away is unknown to the run from then on', async () => {
    const r = await run([call('srv__unlock'), call('srv__unlock')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.results[1]).toMatchObject({ name: 'srv__unlock', error_type: 'unknown_tool' });
    expect(r.results[1]!.llm_content).toMatch(/Unknown tool 'srv__unlock'.*srv__secret/);
  });

  it('the policy judges a new tool as it judges any tool of its server', async () => {
    const r = await run([call('srv__unlock'), call('srv__secret')], { confirmation: '{ mode: allowlist, allow: [srv__unlock] }' });
    expect(r.results.map((e: any) => [e.name, e.error_type])).toEqual([
      ['srv__unlock', null],
      ['srv__secret', 'policy_denied'],
    ]);
  });

  it('a rule naming a tool the server adds later matches it then, and the start-up warning does not say it never can', async () => {
    const r = await run([call('srv__unlock'), call('srv__secret')], { confirmation: '{ mode: allowlist, allow: [srv__unlock, srv__secret] }' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.results.map((e: any) => [e.name, e.error_type])).toEqual([
      ['srv__unlock', null],
      ['srv__secret', null],
    ]);
    const warnings = r.events.filter((e: any) => e.type === 'warning').map((e: any) => e.message);
    expect(warnings).toEqual([expect.stringMatching(/^allow rule 'srv__secret' .*names no tool MCP server 'srv' offers at start, so it matches nothing unless the server adds that tool during the run/)]);
    expect(warnings[0]).not.toMatch(/offers, so it matches nothing/);
  });

  it('a server that says so after every call without changing anything adds no event and no new declarations', async () => {
    const r = await run([call('srv__echo', { text: 'a' }), call('srv__echo', { text: 'b' })], { env: { CHANGING_NOISY: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.events.filter((e: any) => e.type === 'tools_changed')).toEqual([]);
    expect(r.declared[1]).toEqual(r.declared[0]);
    expect(r.declared[2]).toEqual(r.declared[0]);
  });
});
