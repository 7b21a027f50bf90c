// The recipes' policies the corpus runs against, as a user would write them.
import type { ConfirmationMode } from '../../src/recipe/types.js';

export interface PolicySpec {
  mode: ConfirmationMode;
  allow: string[];
  deny: string[];
}

/** A typical CI recipe: a handful of commands, edits under src/, writes anywhere (protected paths aside). */
export const MAIN: PolicySpec = {
  mode: 'allowlist',
  allow: [
    'shell: git status',
    'shell: git diff *',
    'shell: git log *',
    'shell: git commit -m *',
    'shell: npm test',
    'shell: npm run lint',
    'shell: grep *',
    'shell: head *',
    'shell: ls *',
    'shell: cat *',
    'shell: cd *',
    'shell: echo *',
    'edit: src/**',
    'write_file: **',
    'web_fetch: example.org',
    'web_fetch: *.github.com',
  ],
  deny: ['shell: git push *', 'shell: rm *', 'read_file: secrets/**', 'grep: secrets/**', 'write_file: package-lock.json', 'edit: secrets/**'],
};

/** Wide rules for programs with escape hatches: the argument guards must still hold. */
export const BROAD: PolicySpec = {
  mode: 'allowlist',
  allow: [
    'shell: git *',
    'shell: find *',
    'shell: sed *',
    'shell: rg *',
    'shell: awk *',
    'shell: npm *',
    'shell: npx *',
    'shell: less *',
    'shell: man *',
    'shell: vim *',
    'shell: tar *',
    'shell: cat *',
    'shell: rsync *',
    'shell: sort *',
    'shell: zip *',
  ],
  deny: ['shell: git push *'],
};

/** Programs that write the files their arguments name: every path word must stay inside. */
export const FILES: PolicySpec = {
  mode: 'allowlist',
  allow: ['shell: cp *', 'shell: mv *', 'shell: touch *', 'shell: tee *', 'shell: mkdir *', 'shell: sort *', 'shell: dd *', 'shell: curl *', 'shell: gcc *', 'shell: node *'],
  deny: [],
};

/** Commands that make, copy and move links, with ones that follow them: a line must not check a path before a link is made on it. */
export const LINKS: PolicySpec = {
  mode: 'allowlist',
  allow: ['shell: ln *', 'shell: cp *', 'shell: mv *', 'shell: mkdir *', 'shell: touch *', 'shell: cat *', 'shell: cd *', 'shell: echo *', 'shell: make *', 'shell: npm test', 'shell: git status', 'shell: bash -c *'],
  deny: [],
};

/**
 * Archive extractors and git, which write names their archive or commit holds, beside commands
 * that read and write files, wrappers, interpreters and the build tools an agent runs after them.
 */
export const ARCHIVES: PolicySpec = {
  mode: 'allowlist',
  allow: [
    'shell: tar *', 'shell: unzip *', 'shell: cpio *', 'shell: patch *', 'shell: git *', 'shell: cat *', 'shell: cd *', 'shell: ls *', 'shell: head *', 'shell: tail *',
    'shell: cp *', 'shell: dd *', 'shell: echo *', 'shell: npm test', 'shell: bash -c *', 'shell: sort *', 'shell: chmod *', 'shell: mkdir *', 'shell: date *',
    'shell: find *', 'shell: jq *', 'shell: rg *', 'shell: grep *', 'shell: xargs *', 'shell: env *', 'shell: timeout *', 'shell: nice *', 'shell: node *',
    'shell: python3 *', 'shell: pytest *', 'shell: pip *', 'shell: mvn *', 'shell: ./gradlew *', 'shell: ./build/gradlew *', 'shell: dotnet *', 'shell: docker *', 'shell: zip *',
  ],
  deny: [],
};

/** Everything approved, but deny rules must still hold and see through wrappers. */
export const AUTO: PolicySpec = {
  mode: 'auto-approve',
  allow: [],
  deny: ['shell: git push *', 'shell: rm *', 'read_file: secrets/**'],
};

/** Deny rules written once, in one spelling each: they must refuse every spelling of the same meaning. */
export const MEANING: PolicySpec = {
  mode: 'auto-approve',
  allow: [],
  deny: [
    'shell: rm -rf *',
    'shell: git push --force *',
    'shell: git reset --hard *',
    'shell: git clean -fdx',
    'shell: git branch -D *',
    'shell: chmod -R *',
    'shell: find -delete',
    'shell: find -exec',
    'shell: sed -i *',
    'shell: cp -r *',
    'shell: shred --remove *',
    'shell: docker-compose down --volumes *',
  ],
};

/** The same meanings, written in other spellings: the rule's spelling must not matter either. */
export const MEANING_RESPELLED: PolicySpec = {
  mode: 'auto-approve',
  allow: [],
  deny: ['shell: rm --recursive --force *', 'shell: git push -f *', 'shell: git clean -x -d -f', 'shell: chmod --recursive *'],
};

/** An allowlist of builtins that print, read and test, which is no leave to run anything. */
export const BUILTINS: PolicySpec = { mode: 'allowlist', allow: ['shell: printf *', 'shell: test *', 'shell: read *', 'shell: let *'], deny: [] };

/** An allowlist of build tools for their work: make, split, strace, gcc, sqlite3, gdb. */
export const TOOLCHAIN: PolicySpec = {
  mode: 'allowlist',
  allow: ['shell: make *', 'shell: split *', 'shell: strace *', 'shell: gcc *', 'shell: sqlite3 *', 'shell: gdb *'],
  deny: [],
};

/** An allowlist of everyday file tools, each allowed for its work. */
export const FILE_TOOLS: PolicySpec = {
  mode: 'allowlist',
  allow: ['grep', 'rg', 'sed', 'sort', 'wc', 'du', 'zip', 'tar', 'xz', 'diff', 'install', 'awk', 'git', 'jq', 'printf'].map((name) => `shell: ${name} *`),
  deny: [],
};

/** Everyday tools that take words from another directory or names from a file. */
export const ELSEWHERE: PolicySpec = {
  mode: 'allowlist',
  allow: ['cd', 'tar', 'git', 'ln', 'unzip', 'patch', 'find', 'sha256sum', 'file', 'gzip', 'cp', 'mv', 'rsync'].map((name) => `shell: ${name} *`),
  deny: [],
};

/** The user's explicit "any command": still never a line the parser cannot read. */
export const ANY_SHELL: PolicySpec = { mode: 'allowlist', allow: ['shell'], deny: [] };
