// The price table's answers, kept on disk for the rest of the day. A lookup loads the whole table,
// ~30-40 ms of CPU (price-table.ts), and a batch over a fleet or a nightly job asks the same
// question in every run. An answer is reused only on the UTC day it was given (the table's prices
// have date ranges) and only for the installed table that gave it (its path, size and mtime).
// It is a cache and nothing more: a file that is missing, unreadable or not ours is a miss, and one
// that cannot be written is skipped; neither ever fails or slows a run.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { ModelFacts, PriceValue } from './price-table.js';
import { fnv1a } from '../util/short-hash.js';

/** Entries kept in the file at most; a new one past this starts the file over. */
const MAX_ENTRIES = 200;
/** Another table's file unused this long is removed when an answer is written (installations come and go). */
const STALE_FILE_MS = 2 * 24 * 3600_000;

interface CacheFile {
  version: 1;
  /** The installed table the answers came from. */
  table: string;
  /** The UTC day (YYYY-MM-DD) they were given on. */
  day: string;
  /** Query key -> what the table said (null: it does not know the model). */
  entries: Record<string, ModelFacts | null>;
}

export interface FactsCache {
  /** The cached answer, or undefined when there is none for today and this table. */
  get(key: string): ModelFacts | null | undefined;
  /** Keeps the answer; false when the file could not be written. */
  set(key: string, facts: ModelFacts | null): boolean;
}

/**
 * The cache for answers from the table at `tablePath`, today; null when there is nowhere to keep
 * it. Each installed table has a file of its own (`model-facts-<hash>.json`), so two installations
 * used in turn do not keep replacing each other's answers.
 */
export function openFactsCache(dir: string | null, tablePath: string, now = new Date()): FactsCache | null {
  if (!dir) return null;
  let table: string;
  try {
    const { size, mtimeMs } = fs.statSync(tablePath);
    table = `${tablePath}:${size}:${Math.trunc(mtimeMs)}`;
  } catch {
    return null;
  }
  const file = path.join(dir, `model-facts-${fnv1a(table)}.json`);
  const day = now.toISOString().slice(0, 10);
  const current = (): CacheFile | null => {
    const read = readCacheFile(file);
    return read && read.table === table && read.day === day ? read : null;
  };
  return {
    get: (key) => {
      const entries = current()?.entries;
      if (!entries || !Object.hasOwn(entries, key)) return undefined;
      const facts = entries[key];
      return facts === null || isFacts(facts) ? facts : undefined;
    },
    set: (key, facts) => {
      const kept = current();
      const entries = kept && Object.keys(kept.entries).length < MAX_ENTRIES ? kept.entries : {};
      entries[key] = facts;
      try {
        // Private, as the launcher's code cache is: an answer decides a run's cost and its budget.
        writeFileAtomic(file, JSON.stringify({ version: 1, table, day, entries } satisfies CacheFile), { mode: 0o600 });
      } catch {
        return false; // a cache that cannot be written is no cache
      }
      removeStaleFiles(dir, file, now.getTime());
      return true;
    },
  };
}


/** What the table answers (price-table.ts ModelFacts): anything else in the file is not ours, and a price that is not numbers would cost NaN. */
function isFacts(value: unknown): value is ModelFacts {
  if (value === null || typeof value !== 'object') return false;
  const { price, contextWindow } = value as Partial<ModelFacts>;
  const priceOk = price === null || (typeof price === 'object' && !Array.isArray(price) && Object.values(price).every(isPriceValue));
  return priceOk && (contextWindow === null || (typeof contextWindow === 'number' && contextWindow > 0));
}

function isPriceValue(value: unknown): value is PriceValue {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === null || typeof value !== 'object') return false;
  const { base, tiers } = value as { base?: unknown; tiers?: unknown };
  return typeof base === 'number' && Array.isArray(tiers) && tiers.every((t) => typeof t?.start === 'number' && typeof t?.price === 'number');
}

function readCacheFile(file: string): CacheFile | null {
  try {
    const parsed = JSON.parse(readPrivate(file)) as Partial<CacheFile> | null;
    if (parsed?.version !== 1 || typeof parsed.table !== 'string' || typeof parsed.day !== 'string') return null;
    if (parsed.entries === null || typeof parsed.entries !== 'object' || Array.isArray(parsed.entries)) return null;
    return parsed as CacheFile;
  } catch {
    return null;
  }
}

/**
 * The file's text if it is a regular file of this user's that nobody else may write (a planted
 * answer could misprice a run or loosen its budget), opened without following a link or blocking
 * on a FIFO; throws otherwise.
 */
function readPrivate(file: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    const stat = fs.fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) throw new Error(`${file} is not a private file`);
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function removeStaleFiles(dir: string, keep: string, now: number): void {
  try {
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (file === keep || !/^model-facts-[0-9a-f]{8}\.json$/.test(name)) continue;
      if (now - fs.statSync(file).mtimeMs > STALE_FILE_MS) fs.rmSync(file, { force: true });
    }
  } catch {
    // a cache left untidy is still a cache
  }
}
