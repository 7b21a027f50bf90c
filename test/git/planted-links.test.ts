// Links in a git directory: those there when the run started (Android's `repo` links objects and
// refs) are kept; one a tool left since is removed, with a note, before the runner's git runs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { linksIn, removePlantedLinks } from '../../src/git/planted-links.js';

afterAll(removeTempDirs);

it('keeps the links a repository had, removes the ones added since, and never touches what they point to', () => {
  const dir = tempDir();
  const git = path.join(dir, '.git');
  const shared = path.join(dir, 'shared-objects');
  const victim = path.join(dir, 'victim');
  fs.mkdirSync(path.join(git, 'logs/refs/heads'), { recursive: true });
  fs.mkdirSync(shared);
  fs.writeFileSync(victim, 'original\n');
  fs.symlinkSync(shared, path.join(git, 'objects'));
  const start = linksIn([git]);
  fs.symlinkSync(victim, path.join(git, 'logs/refs/heads/main'));
  const notes = removePlantedLinks([git], start);
  expect(notes).toEqual([expect.stringContaining(`a tool left a symbolic link at ${path.join(git, 'logs/refs/heads/main')} (to ${victim})`)]);
  expect(fs.existsSync(path.join(git, 'logs/refs/heads/main'))).toBe(false);
  expect(fs.readlinkSync(path.join(git, 'objects'))).toBe(shared);
  expect(fs.readFileSync(victim, 'utf8')).toBe('original\n');
  // Repointed: a link that now leads elsewhere counts as new.
  fs.unlinkSync(path.join(git, 'objects'));
  fs.symlinkSync(victim, path.join(git, 'objects'));
  expect(removePlantedLinks([git], start)).toHaveLength(1);
});
