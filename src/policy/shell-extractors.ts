// Programs that create directory entries under names they read rather than names in their words:
// an archive extractor writes the names its archive holds, `git checkout` the names a commit
// holds, `patch` the files a diff names. A repository can ship an archive, a branch or a patch in
// which `f` is a symbolic link to /etc/passwd or out of the workspace, so after such a command
// a bare name that did not exist when the line was checked may lead anywhere
// (`tar xf x.tar && cat f`). shell-paths.ts refuses such a name in the rest of the line.
import path from 'node:path';
import { gitSubcommand } from './git-scripts.js';

const EXTRACTORS: ReadonlySet<string> = new Set([
  'tar', 'gtar', 'bsdtar', 'star', 'unzip', 'cpio', 'bsdcpio', 'pax', '7z', '7za', '7zr', 'unrar', 'unsquashfs', 'dpkg-deb', 'patch',
]);

/** git subcommands that write the work tree from a commit, a stash, a patch or another repository. */
const GIT_EXTRACTORS: ReadonlySet<string> = new Set([
  'checkout', 'switch', 'restore', 'reset', 'merge', 'pull', 'rebase', 'cherry-pick', 'revert', 'stash', 'am', 'apply', 'read-tree',
  'checkout-index', 'worktree', 'clone', 'submodule', 'bisect', 'sparse-checkout',
]);

/**
 * Programs whose words name things other than files (subcommands, branches, scripts, targets,
 * text): a bare word of theirs that does not exist is no file they will open.
 */
const WORDS_ARE_NAMES: ReadonlySet<string> = new Set([
  'echo', 'printf', 'true', 'false', 'pwd', 'test', '[', 'sleep', 'git', 'npm', 'npx', 'yarn', 'pnpm', 'make', 'cargo', 'go',
]);

const base = (word: string | undefined) => path.posix.basename(word ?? '');

/** True when `argv` may create entries under names that come from an archive, a commit or a patch. */
export function extractsNames(argv: readonly string[]): boolean {
  const program = base(argv[0]);
  if (EXTRACTORS.has(program)) return true;
  const subcommand = program === 'git' ? gitSubcommand(argv) : undefined;
  return subcommand !== undefined && GIT_EXTRACTORS.has(subcommand);
}

/** True when the bare words of `program` are names of things, not files it opens. */
export function wordsAreNames(program: string): boolean {
  return WORDS_ARE_NAMES.has(base(program));
}
