// The price table's answers kept on disk for the day (price-cache.ts): reused the same UTC day
// for the same installed table only; a cache file that is missing, corrupt or unwritable is a
// miss and never an error; and a lookup (price-table.ts) answers from it without asking the table.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openFactsCache } from '../../src/providers/price-cache.js';
import { unattendedCacheDir } from '../../src/util/cache-dir.js';
import { lookupModel } from '../../src/providers/price-table.js';
import { withPricing } from '../../src/providers/pricing.js';
import type { ModelProvider } from '../../src/providers/provider.js';
import { assetPath } from '../../src/util/assets.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const FACTS = { price: { input_mtok: 0.3, output_mtok: 2.5 }, contextWindow: 1_048_576 };
const DAY = new Date('2026-11-27T10:00:00Z');

function setUp() {
  const dir = tempDir();
  const table = path.join(dir, 'table.cjs');
  fs.writeFileSync(table, 'module.exports = {};');
  return { dir, table, cacheDir: path.join(dir, 'cache', 'unattended') };
}

describe('where the cache lives', () => {
  it('$XDG_CACHE_HOME when it is an absolute path, else ~/.cache when HOME exists, else nowhere', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-home-'));
    expect(unattendedCacheDir({ XDG_CACHE_HOME: '/x/cache', HOME: home })).toBe('/x/cache/unattended');
    expect(unattendedCacheDir({ XDG_CACHE_HOME: 'relative', HOME: home })).toBe(path.join(home, '.cache/unattended'));
    // A HOME that does not exist (/nonexistent) is no home: nothing would make it.
    expect(unattendedCacheDir({ XDG_CACHE_HOME: 'relative', HOME: path.join(home, 'gone') })).toBeNull();
    fs.rmSync(home, { recursive: true });
    expect(unattendedCacheDir({})).toBeNull();
    expect(unattendedCacheDir({ HOME: 'relative/home' })).toBeNull();
    expect(openFactsCache(null, '/any')).toBeNull();
  });
});

describe('what it answers', () => {
  it('gives back an answer the same day, for the same table; another day or a changed table is a miss; two tables keep two files', () => {
    const { table, cacheDir } = setUp();
    openFactsCache(cacheDir, table, DAY)!.set('["m"]', FACTS);
    openFactsCache(cacheDir, table, DAY)!.set('["unknown"]', null);
    const sameDay = openFactsCache(cacheDir, table, new Date('2026-11-27T23:59:00Z'))!;
    expect(sameDay.get('["m"]')).toEqual(FACTS);
    expect(sameDay.get('["unknown"]')).toBeNull();
    expect(sameDay.get('["other"]')).toBeUndefined();
    expect(openFactsCache(cacheDir, table, new Date('2026-11-28T00:00:01Z'))!.get('["m"]')).toBeUndefined();
    fs.appendFileSync(table, '// a newer table');
    expect(openFactsCache(cacheDir, table, DAY)!.get('["m"]')).toBeUndefined();
    openFactsCache(cacheDir, table, DAY)!.set('["m"]', null);
    expect(fs.readdirSync(cacheDir)).toHaveLength(2);
  });

  it("removes another table's file once it has gone unused for two days, and nothing else", () => {
    const { table, cacheDir } = setUp();
    fs.mkdirSync(cacheDir, { recursive: true });
    const old = path.join(cacheDir, 'model-facts-0badf00d.json');
    const recent = path.join(cacheDir, 'model-facts-00c0ffee.json');
    const someoneElses = path.join(cacheDir, 'notes.json');
    for (const file of [old, recent, someoneElses]) fs.writeFileSync(file, '{}');
    const daysAgo = (days: number) => new Date(DAY.getTime() - days * 24 * 3600_000);
    fs.utimesSync(old, daysAgo(3), daysAgo(3));
    fs.utimesSync(someoneElses, daysAgo(30), daysAgo(30));
    fs.utimesSync(recent, daysAgo(1), daysAgo(1));
    openFactsCache(cacheDir, table, DAY)!.set('["m"]', FACTS);
    const left = fs.readdirSync(cacheDir);
    expect(left).toHaveLength(3);
    expect(left).toEqual(expect.arrayContaining(['model-facts-00c0ffee.json', 'notes.json']));
    expect(fs.existsSync(old)).toBe(false);
  });

  it('a corrupt file, or an entry that is not an answer, is a miss; the next answer replaces the file', () => {
    const { table, cacheDir } = setUp();
    fs.mkdirSync(cacheDir, { recursive: true });
    openFactsCache(cacheDir, table, DAY)!.set('["m"]', FACTS);
    const [file] = fs.readdirSync(cacheDir).map((name) => path.join(cacheDir, name));
    fs.writeFileSync(file!, '{"version":1,"tab');
    const cache = openFactsCache(cacheDir, table, DAY)!;
    expect(cache.get('["m"]')).toBeUndefined();
    cache.set('["m"]', FACTS);
    expect(cache.get('["m"]')).toEqual(FACTS);
    const written = JSON.parse(fs.readFileSync(file!, 'utf8'));
    written.entries['["bad"]'] = { price: 'free', contextWindow: -1 };
    written.entries['["not-numbers"]'] = { price: { input_mtok: 'cheap', output_mtok: { base: 1 } }, contextWindow: 1000 };
    fs.writeFileSync(file!, JSON.stringify(written));
    expect(cache.get('["bad"]')).toBeUndefined();
    expect(cache.get('["not-numbers"]')).toBeUndefined();
    expect(cache.get('["m"]')).toEqual(FACTS);
  });

  it('keeps an answer private, and reads none from a file others may write, a link or a FIFO (which must not block)', () => {
    const { table, cacheDir } = setUp();
    const cache = () => openFactsCache(cacheDir, table, DAY)!;
    cache().set('["m"]', FACTS);
    const [name] = fs.readdirSync(cacheDir);
    const file = path.join(cacheDir, name!);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(cache().get('["m"]')).toEqual(FACTS);
    fs.chmodSync(file, 0o620);
    expect(cache().get('["m"]')).toBeUndefined();
    fs.chmodSync(file, 0o600);
    const elsewhere = path.join(tempDir(), 'elsewhere.json');
    fs.renameSync(file, elsewhere);
    fs.symlinkSync(elsewhere, file);
    expect(cache().get('["m"]')).toBeUndefined();
    fs.rmSync(file);
    execFileSync('mkfifo', [file]);
    expect(cache().get('["m"]')).toBeUndefined();
    if (process.getuid?.() === 0) {
      fs.rmSync(file);
      fs.renameSync(elsewhere, file);
      fs.chownSync(file, 65534, 65534);
      expect(cache().get('["m"]')).toBeUndefined();
    }
  });

  it('a place it cannot write is no cache, and no error', () => {
    const { dir, table } = setUp();
    fs.writeFileSync(path.join(dir, 'a-file'), '');
    const cache = openFactsCache(path.join(dir, 'a-file', 'unattended'), table, DAY)!;
    expect(() => cache.set('["m"]', FACTS)).not.toThrow();
    expect(cache.get('["m"]')).toBeUndefined();
    expect(openFactsCache(path.join(dir, 'cache'), path.join(dir, 'no-such-table.cjs'), DAY)).toBeNull();
  });
});

describe('a lookup', () => {
  const saved = process.env.XDG_CACHE_HOME;
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
  });

  it("keeps the table's answer, and answers from the cache without asking the table", async () => {
    const { dir } = setUp();
    process.env.XDG_CACHE_HOME = dir;
    const cacheDir = unattendedCacheDir(process.env)!;
    // An endpoint of its own: no other test in this process has looked this query up already.
    const query = { model: 'gemini-2.5-flash', providerId: 'google', baseURL: `https://price-cache-${process.pid}.invalid` };
    const facts = await lookupModel(query);
    expect(facts?.price?.input_mtok).toBeGreaterThan(0);
    const files = fs.readdirSync(cacheDir);
    expect(files).toEqual([expect.stringMatching(/^model-facts-[0-9a-f]{8}\.json$/)]);
    const kept = JSON.parse(fs.readFileSync(path.join(cacheDir, files[0]!), 'utf8'));
    expect(kept.entries[JSON.stringify([query.model, query.providerId, query.baseURL])]).toEqual(facts);
    // A model no table has, planted in today's cache: only the cache can answer it.
    const planted = `planted-model-${process.pid}`;
    openFactsCache(cacheDir, assetPath('genai-prices.cjs'))!.set(JSON.stringify([planted, 'google', null]), FACTS);
    expect(await lookupModel({ model: planted, providerId: 'google', baseURL: null })).toEqual(FACTS);
  });

  it('answers in plain data and lets the table go (its ~2 MB of objects are not held for the run)', async () => {
    process.env.XDG_CACHE_HOME = setUp().dir;
    const facts = await lookupModel({ model: 'gemini-2.5-pro', providerId: 'google', baseURL: `https://plain-${process.pid}.invalid` });
    const tiered = facts?.price?.input_mtok;
    expect(tiered).toEqual({ base: expect.any(Number), tiers: [{ start: 200_000, price: expect.any(Number) }] });
    expect(createRequire(import.meta.url).cache[assetPath('genai-prices.cjs')]).toBeUndefined();
  });

  it('loads the table once the first request is sent, not before: the request does not wait for it', async () => {
    const { dir } = setUp();
    process.env.XDG_CACHE_HOME = dir;
    const cacheDir = unattendedCacheDir(process.env)!;
    const written = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).filter((name) => name.endsWith('.json')) : []);
    // An endpoint of its own: test files share a worker's modules, so a lookup made elsewhere would be memoized.
    const source = { providerId: null, baseURL: `https://api.deepseek.com/after-send-${process.pid}`, model: 'deepseek-chat', override: null };
    let beforeSending: string[] | null = null;
    const inner: ModelProvider = {
      name: 'test',
      model: source.model,
      async generate(_request, options) {
        // Two turns of the event loop: a lookup started with the call would have answered by now.
        for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
        beforeSending = written();
        options.onSent?.();
        return { parts: [{ text: 'ok' }], text: 'ok', functionCalls: [], usage: { input: 1000, output: 100, total: 1100 }, finish: { reason: 'stop', raw: 'stop' } };
      },
    };
    const priced = await withPricing(inner, source, false);
    const reply = await priced.generate({ systemInstruction: '', contents: [], tools: [] }, { signal: new AbortController().signal });
    expect(beforeSending).toEqual([]);
    expect(reply.usage.cost_usd).toBeGreaterThan(0);
    expect(written()).toHaveLength(1);
  });
});
