// Shards: a fleet split across CI jobs. A target's shard is a stable hash of the target as written,
// modulo the shard count, so every job computes the same split with no coordination, the shards
// are disjoint and together complete, and adding a target to the file never moves the others.
import { InputError } from '../recipe/index.js';
import { stableHash, type Target } from './targets.js';

/** GitHub Actions runs at most 256 jobs from one matrix. */
export const MAX_SHARDS = 256;

export interface Shard {
  /** 1-based, as written: `--shard 2/5`. */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
    throw new InputError(`--shard '${text}' must be i/n with 1 <= i <= n <= ${MAX_SHARDS}, e.g. --shard 2/5`);
  }
  return { index, count };
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** The 1-based shard a target belongs to among `count`. */
export function shardOf(target: Pick<Target, 'spec'>, count: number): number {
  return (stableHash(target.spec) % count) + 1;
}

export function selectShard<T extends Pick<Target, 'spec'>>(targets: readonly T[], shard: Shard | null): T[] {
  return shard ? targets.filter((t) => shardOf(t, shard.count) === shard.index) : [...targets];
}

/**
 * A GitHub Actions matrix over `count` shards. Shards the hash leaves empty are not listed: a job
 * for them would start a runner to do nothing. Listed shards still cover every target.
 */
export function shardMatrix(targets: readonly Pick<Target, 'spec'>[], count: number): { include: Array<{ shard: string }> } {
  if (!Number.isInteger(count) || count < 1 || count > MAX_SHARDS) throw new InputError(`--shards must be a whole number from 1 to ${MAX_SHARDS}`);
  const sizes = shardSizes(targets, count);
  const include: Array<{ shard: string }> = [];
  for (let i = 1; i <= count; i++) if (sizes[i - 1]! > 0) include.push({ shard: `${i}/${count}` });
  return { include };
}

/**
 * How many targets each of `count` shards has (index 0: shard 1). Every shard's job computes the
 * same from the same targets, and records it, so `batch merge` expects exactly the shards the
 * matrix listed.
 */
export function shardSizes(targets: readonly Pick<Target, 'spec'>[], count: number): number[] {
  const sizes = new Array<number>(count).fill(0);
  for (const t of targets) sizes[shardOf(t, count) - 1]!++;
  return sizes;
}
