// What the built CLI does at start-up that a user can see: the builtins a run loads before its
// first model request (each costs start-up time; worker_threads means grep's threads), and the
// version a --version after a command prints. One spawned run against the fake Gemini endpoint,
// with a probe (--require: a probe given to --import would start Node's ES module loader, which a
// run never does) that lists node's builtin modules and the files loaded when the first connection
// to the model is opened, and the builtins at exit.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, cli, CLI, removeTempDirs, ROOT, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';

const PROBE = `const dc = require('node:diagnostics_channel');
const fs = require('node:fs');
const builtins = () => process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
let first = null;
let files = null;
dc.subscribe('net.client.socket', () => {
  first ??= builtins();
  files ??= Object.keys(require.cache).filter((file) => file !== __filename);
});
process.on('exit', () => fs.writeFileSync(process.env.PROBE_OUT, JSON.stringify({ first, files, exit: builtins() })));
`;

afterAll(removeTempDirs);

describe('a run that never greps nor fetches, against a local endpoint', () => {
  let loaded: { first: string[]; files: string[]; exit: string[] };

  beforeAll(async () => {
    const dir = tempDir();
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(dir, 'probe.cjs'), PROBE);
    const gemini = await startFakeGemini([{ text: 'Hello.' }]);
    try {
      const argv = ['--require', path.join(dir, 'probe.cjs'), CLI, 'run', '--prompt', 'Say hello.', '--provider', 'gemini', '--model', 'gemini-2.5-flash', '--out', path.join(dir, 'out')];
      const env = baseEnv({ GEMINI_API_KEY: 'test', GOOGLE_GEMINI_BASE_URL: gemini.url, PROBE_OUT: path.join(dir, 'loaded.json') });
      const r = await execa(process.execPath, argv, { cwd: ws, env, extendEnv: false, reject: false, stdin: 'ignore' });
      expect(r.exitCode, String(r.stderr)).toBe(0);
    } finally {
      await gemini.close();
    }
    loaded = JSON.parse(fs.readFileSync(path.join(dir, 'loaded.json'), 'utf8'));
  });

  it('starts no worker thread and loads no TLS, from start to end', () => {
    // The probe is real: the request went out over a socket of its own (src/providers/http1.ts).
    expect(loaded.first).toContain('net');
    expect(loaded.exit.filter((m) => ['worker_threads', 'tls', 'https'].includes(m))).toEqual([]);
  });

  it('loads no builtin before its first request that only a tool or a failure needs', () => {
    // dns: web_fetch's host check; zlib: web_fetch's bodies; readline: reading a transcript back;
    // assert: yargs' checks; perf_hooks: the performance global; crypto: temporary file names;
    // v8: WebAssembly's baseline tier, for the shell grammar and the global fetch.
    // http: the SDK providers' transport; the gemini provider has a client of its own.
    // fs/promises (and the readline it brings): read_file and the walks, after the first answer.
    const needless = ['worker_threads', 'https', 'tls', 'zlib', 'dns', 'readline', 'assert', 'perf_hooks', 'crypto', 'v8', 'http', 'fs/promises'];
    expect(loaded.first.filter((m) => needless.includes(m))).toEqual([]);
  });

  it('reads no JavaScript file before its first request but the launcher, its code cache loader and the command', () => {
    // (main.cjs is compiled by the launcher itself, not through require.) Any other file is
    // resolved, read and compiled by Node's loader without the code cache.
    expect(loaded.files.map((file) => path.relative(ROOT, file))).toEqual(['dist/cli/unattended.cjs', 'dist/cli/code-cache.cjs']);
  });
});

describe('--version after a command', () => {
  it("prints this package's version, not the one of the project it runs in", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'their-project', version: '9.9.9' }));
    const ours = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const r = await cli(['tools', '--version'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(ours);
  });
});
