import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nearestRepository } from '../../src/util/nearest-repository.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'nearest-repo-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('nearestRepository', () => {
  const ws = path.join(base, 'ws');
  const nested = path.join(ws, 'vendor', 'lib');
  fs.mkdirSync(path.join(nested, 'src'), { recursive: true });
  fs.mkdirSync(path.join(ws, '.git'));
  fs.writeFileSync(path.join(nested, '.git'), 'gitdir: ../../.git/modules/lib\n');
  fs.mkdirSync(path.join(base, 'ws-other', '.git'), { recursive: true });

  it('finds the nearest .git, a directory or a file', () => {
    expect(nearestRepository(path.join(nested, 'src'))).toBe(nested);
    expect(nearestRepository(path.join(ws, 'vendor'))).toBe(ws);
  });

  it('never looks above `top`, nor in a sibling that merely starts with its name', () => {
    expect(nearestRepository(path.join(ws, 'vendor'), path.join(ws, 'vendor'))).toBeNull();
    expect(nearestRepository(path.join(base, 'ws-other'), ws)).toBeNull();
    expect(nearestRepository(path.join(nested, 'src'), ws)).toBe(nested);
  });

  it('is null with no repository up to the filesystem root', () => {
    expect(nearestRepository(path.join(base, 'nowhere'))).toBeNull();
  });
});
