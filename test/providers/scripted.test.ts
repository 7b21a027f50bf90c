// The scripted provider on real files: both formats, {{workspace}}, running out, and the error a
// user gets for a broken script. Then the recorder → scripted round trip.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/create.js';
import { ProviderError, type ModelProvider, type ModelRequest } from '../../src/providers/provider.js';
import { recordTurns } from '../../src/providers/recorder.js';
import { createScriptedProvider, ScriptError } from '../../src/providers/scripted.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'unattended-scripted-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

let n = 0;
function scriptFile(name: string, content: string): string {
  const file = path.join(tmp, `${n++}-${name}`);
  writeFileSync(file, content);
  return file;
}

const request: ModelRequest = { systemInstruction: '', contents: [{ role: 'user', parts: [{ text: 'go' }] }], tools: [] };
const opts = () => ({ signal: new AbortController().signal });

async function drain(provider: ModelProvider, count: number) {
  const turns = [];
  for (let i = 0; i < count; i++) turns.push(await provider.generate(request, opts()));
  return turns;
}

const YAML_SCRIPT = `# a two-turn run
turns:
  - text: Let me look.
    calls:
      - name: read_file
        args: { absolute_path: "{{workspace}}/README.md" }
      - name: shell
        args:
          command: "cd {{workspace}} && git diff"
          nested: ["{{workspace}}/a", { deep: "{{workspace}}" }]
    usage: { input: 1200, output: 40, cached: 1000 }
  - text: Done in {{workspace}}.
`;

describe('scripted provider', () => {
  it('replays YAML turns in order, with {{workspace}} filled in and call ids', async () => {
    const provider = createScriptedProvider({ file: scriptFile('run.yaml', YAML_SCRIPT), workspaceRoot: '/work/repo/' });
    const deltas: string[] = [];
    const first = await provider.generate(request, { ...opts(), onText: (d) => deltas.push(d) });
    expect(first.text).toBe('Let me look.');
    expect(deltas).toEqual(['Let me look.']);
    expect(first.functionCalls).toEqual([
      { id: 'call_1_0', name: 'read_file', args: { absolute_path: '/work/repo/README.md' } },
      {
        id: 'call_1_1',
        name: 'shell',
        args: { command: 'cd /work/repo && git diff', nested: ['/work/repo/a', { deep: '/work/repo' }] },
      },
    ]);
    expect(first.parts).toHaveLength(3);
    expect(first.usage).toEqual({ input: 1200, output: 40, total: 1240, cached: 1000 });
    const second = await provider.generate(request, opts());
    expect(second).toMatchObject({ text: 'Done in /work/repo.', functionCalls: [], finish: { reason: 'stop', raw: null } });
    expect(second.usage).toEqual({ input: 0, output: 0, total: 0 });
  });

  it('replays JSONL, one turn per line, blank lines skipped', async () => {
    const file = scriptFile(
      'run.jsonl',
      '{"calls":[{"name":"ls","args":{"path":"{{workspace}}"}}],"usage":{"input":10,"output":2}}\n\n{"text":"All good."}\n',
    );
    const provider = createScriptedProvider({ file, workspaceRoot: '/ws' });
    const [first, second] = await drain(provider, 2);
    expect(first!.functionCalls).toEqual([{ id: 'call_1_0', name: 'ls', args: { path: '/ws' } }]);
    expect(first!.text).toBe('');
    expect(second!.text).toBe('All good.');
  });

  it('recognises JSONL without the extension, and YAML-as-JSON with one', async () => {
    const jsonl = createScriptedProvider({ file: scriptFile('turns.txt', '{"text":"a"}\n{"text":"b"}\n'), workspaceRoot: '/ws' });
    expect((await drain(jsonl, 2)).map((t) => t.text)).toEqual(['a', 'b']);
    const json = createScriptedProvider({ file: scriptFile('turns.json', '{"turns":[{"text":"c"}]}'), workspaceRoot: '/ws' });
    expect((await drain(json, 1))[0]!.text).toBe('c');
  });

  it('reads JSON turn lines as JSONL whatever the file is called (what --record writes to x.yaml)', async () => {
    for (const name of ['lines.json', 'recorded.yaml', 'recorded.yml']) {
      const provider = createScriptedProvider({ file: scriptFile(name, '{"text":"a"}\n{"text":"b","finish":"max_tokens"}\n'), workspaceRoot: '/ws' });
      const turns = await drain(provider, 2);
      expect(turns.map((t) => [t.text, t.finish.reason])).toEqual([['a', 'stop'], ['b', 'max_tokens']]);
    }
  });

  it('refuses an unknown finish reason, naming the allowed ones', () => {
    const err = thrownBy(() => createScriptedProvider({ file: scriptFile('t.yaml', 'turns:\n  - text: a\n    finish: length\n'), workspaceRoot: '/ws' }));
    expect(err).toBeInstanceOf(ScriptError);
    expect((err as Error).message).toMatch(/finish must be one of stop, tool_calls, max_tokens/);
  });

  it('is created synchronously: the script is read and checked before it returns', () => {
    const provider = createScriptedProvider({ file: scriptFile('sync.yaml', 'turns:\n  - text: x\n'), workspaceRoot: '/ws' });
    expect(provider).not.toBeInstanceOf(Promise);
    expect(provider.name).toBe('scripted');
  });

  it('running out of turns is script_exhausted with a clear message', async () => {
    const file = scriptFile('short.yaml', 'turns:\n  - text: only one\n');
    const provider = createScriptedProvider({ file, workspaceRoot: '/ws' });
    await provider.generate(request, opts());
    const err = await provider.generate(request, opts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'script_exhausted' });
    expect((err as Error).message).toBe(`model script ${file} has no turn 2: all 1 recorded turns were used and the run asked for another`);
  });

  it('honours an aborted signal', async () => {
    const provider = createScriptedProvider({ file: scriptFile('a.yaml', 'turns:\n  - text: x\n'), workspaceRoot: '/ws' });
    const controller = new AbortController();
    controller.abort();
    await expect(provider.generate(request, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  const broken: { name: string; file: string; content: string; message: RegExp }[] = [
    { name: 'invalid YAML', file: 'bad.yaml', content: 'turns:\n  - text: "unclosed\n', message: /bad\.yaml:\d+: invalid YAML/ },
    { name: 'no turns list', file: 'no-turns.yaml', content: 'steps:\n  - text: hi\n', message: /no-turns\.yaml: a model script needs a top-level `turns:` list/ },
    { name: 'turns not a list', file: 'map.yaml', content: 'turns: {text: hi}\n', message: /needs a top-level `turns:` list/ },
    { name: 'typo in a key', file: 'typo.yaml', content: 'turns:\n  - text: ok\n  - call:\n      - name: ls\n', message: /typo\.yaml:3: turn 2: unknown key "call"/ },
    { name: 'call without a name', file: 'noname.yaml', content: 'turns:\n  - calls:\n      - args: {}\n', message: /noname\.yaml:2: turn 1: calls\[0\]: name must be a non-empty string/ },
    { name: 'args not an object', file: 'args.yaml', content: 'turns:\n  - calls:\n      - name: ls\n        args: [1]\n', message: /turn 1: calls\[0\]: args must be an object/ },
    { name: 'empty turn', file: 'empty.yaml', content: 'turns:\n  - usage: {input: 1}\n', message: /turn 1: has neither text nor calls/ },
    { name: 'negative usage', file: 'usage.yaml', content: 'turns:\n  - text: a\n    usage: {input: -1}\n', message: /usage\.input must be a non-negative integer/ },
    { name: 'text not a string', file: 'text.yaml', content: 'turns:\n  - text: [a]\n', message: /turn 1: text must be a string/ },
    { name: 'bad JSONL line', file: 'bad.jsonl', content: '{"text":"a"}\n{"text": \n', message: /bad\.jsonl:2: turn 2: invalid JSON/ },
    {
      name: 'an alias bomb',
      file: 'bomb.yaml',
      content: `turns:\n  - text: hi\na: &a [x, x, x, x, x, x, x, x, x]\n${'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefg'[i]}`).join(', ')}]`).join('\n')}\n`,
      message: /bomb\.yaml: invalid YAML: Excessive alias count/,
    },
    { name: 'JSONL non-object', file: 'arr.jsonl', content: '{"text":"a"}\n\n[1,2]\n', message: /arr\.jsonl:3: turn 2: a turn must be an object/ },
  ];
  it.each(broken)('rejects a script with $name, naming file, line and turn', async ({ file, content, message }) => {
    const err = thrownBy(() => createScriptedProvider({ file: scriptFile(file, content), workspaceRoot: '/ws' }));
    expect(err).toBeInstanceOf(ScriptError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('\n');
  });

  it('a missing file is a ScriptError naming it', async () => {
    const file = path.join(tmp, 'nope.yaml');
    expect(() => createScriptedProvider({ file, workspaceRoot: '/ws' })).toThrow(`cannot read model script ${file}: ENOENT`);
  });

  it('accepts `text: ""` as a deliberate empty answer', async () => {
    const provider = createScriptedProvider({ file: scriptFile('e.jsonl', '{"text":""}\n'), workspaceRoot: '/ws' });
    const [turn] = await drain(provider, 1);
    expect(turn).toMatchObject({ text: '', functionCalls: [], parts: [] });
  });
});

describe('recorder → scripted round trip', () => {
  it('records a live (fake Gemini) run line by line and replays it in another workspace', async () => {
    const liveRoot = path.join(tmp, 'live-ws');
    const fake = await startFakeGemini([
      {
        text: 'Reading both.',
        calls: [
          { name: 'read_file', args: { absolute_path: `${liveRoot}/src/a.ts` } },
          { name: 'shell', args: { command: `cd ${liveRoot} && ls ${liveRoot}-backup ${liveRoot}.bak`, list: [liveRoot] } },
        ],
        usage: { input: 300, output: 20, cached: 100 },
      },
      { text: `Finished in ${liveRoot}.`, usage: { input: 400, output: 5 } },
    ]);
    try {
      const file = path.join(tmp, 'rec', 'turns.jsonl');
      const live = await createProvider({
        name: 'gemini',
        model: 'm',
        script: null,
        baseUrl: null,
        env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: fake.url },
        workspaceRoot: liveRoot,
        record: file,
      });
      const liveTurns = [await live.generate(request, opts())];
      // Written as it happened, before the run is over.
      const afterOne = readFileSync(file, 'utf8');
      expect(afterOne.split('\n').filter(Boolean)).toHaveLength(1);
      expect(afterOne).not.toContain(liveRoot + '/');
      expect(JSON.parse(afterOne).calls[0].args.absolute_path).toBe('{{workspace}}/src/a.ts');
      // A sibling directory that merely shares the prefix is left alone.
      expect(JSON.parse(afterOne).calls[1].args.command).toBe(`cd {{workspace}} && ls ${liveRoot}-backup ${liveRoot}.bak`);
      liveTurns.push(await live.generate(request, opts()));

      const replay = await createProvider({ name: 'scripted', model: 'm', script: file, baseUrl: null, env: {}, workspaceRoot: '/elsewhere' });
      const replayed = await drain(replay, 2);
      const moved = (s: string) => s.split(liveRoot).join('/elsewhere');
      expect(replayed[0]!.functionCalls).toEqual([
        { id: 'call_1_0', name: 'read_file', args: { absolute_path: '/elsewhere/src/a.ts' } },
        { id: 'call_1_1', name: 'shell', args: { command: `cd /elsewhere && ls ${liveRoot}-backup ${liveRoot}.bak`, list: ['/elsewhere'] } },
      ]);
      expect(replayed.map((t) => t.text)).toEqual(liveTurns.map((t) => moved(t.text)));
      expect(replayed.map((t) => t.usage)).toEqual(liveTurns.map((t) => t.usage));
      await expect(replay.generate(request, opts())).rejects.toMatchObject({ kind: 'script_exhausted' });
    } finally {
      await fake.close();
    }
  });

  it('starts a fresh file and records nothing for a failed call', async () => {
    const file = scriptFile('old.jsonl', '{"text":"stale"}\n');
    const inner = createScriptedProvider({ file: scriptFile('one.yaml', 'turns:\n  - text: fresh\n'), workspaceRoot: '/ws' });
    const recorded = recordTurns(inner, file, '/ws');
    await recorded.generate(request, opts());
    await expect(recorded.generate(request, opts())).rejects.toMatchObject({ kind: 'script_exhausted' });
    expect(readFileSync(file, 'utf8')).toBe('{"text":"fresh","usage":{"input":0,"output":0}}\n');
  });
});

describe('createProvider', () => {
  it('gemini without a key fails with the one-line fix', async () => {
    await expect(
      createProvider({ name: 'gemini', model: 'm', script: null, baseUrl: null, env: {}, workspaceRoot: '/ws' }),
    ).rejects.toMatchObject({ kind: 'auth', message: expect.stringMatching(/^GEMINI_API_KEY is not set: export GEMINI_API_KEY=<key>/) });
  });

  it('scripted without a script says how to give one', async () => {
    await expect(
      createProvider({ name: 'scripted', model: 'm', script: null, baseUrl: null, env: {}, workspaceRoot: '/ws' }),
    ).rejects.toThrow(new ScriptError('the scripted provider needs a model script: set `script:` in the recipe or pass --script FILE'));
  });

  it('scripted with a script replays it, without the retry layer', async () => {
    const provider = await createProvider({ name: 'scripted', model: 'm', script: scriptFile('c.yaml', 'turns:\n  - text: hi\n'), baseUrl: null, env: {}, workspaceRoot: '/ws' });
    expect((await provider.generate(request, opts())).text).toBe('hi');
    await expect(provider.generate(request, opts())).rejects.toMatchObject({ kind: 'script_exhausted', message: expect.not.stringMatching(/gave up|retry/) });
  });

  it('wraps gemini in the retry layer with the given options', async () => {
    const fake = await startFakeGemini([{ status: 500 }, { text: 'ok' }]);
    try {
      const retries: number[] = [];
      const provider = await createProvider({
        name: 'gemini',
        model: 'gemini-x',
        script: null,
        baseUrl: fake.url,
        env: { GEMINI_API_KEY: 'k' },
        workspaceRoot: '/ws',
        retry: { baseDelayMs: 5 },
      });
      expect(provider).toMatchObject({ name: 'gemini', model: 'gemini-x' });
      expect((await provider.generate(request, { ...opts(), onRetry: (info) => retries.push(info.attempt) })).text).toBe('ok');
      expect(retries).toEqual([1]);
    } finally {
      await fake.close();
    }
  });
});
