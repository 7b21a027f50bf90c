// Which commands may make a directory entry a symbolic link, or move or copy one into place. Paths
// are checked before a line runs: after such a command, a path checked earlier may lead elsewhere
// by the time a later command of the line uses it (shell-paths.ts). A command that cannot is read
// as one that may only where it must: every program not known here may (ln, cp, mv, tar, a build
// script...), so the list holds programs that only read, print or write regular files, and the
// git subcommands and find invocations that never write the work tree's entries.
import { gitSubcommandAt } from './git-scripts.js';

const NO_LINKS: ReadonlySet<string> = new Set([
  'cd', 'pushd', 'mkdir', 'echo', 'printf', 'true', 'false', ':', 'test', '[', 'pwd', 'ls', 'cat', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg',
  'wc', 'touch', 'rm', 'rmdir', 'chmod', 'sort', 'uniq', 'cut', 'tr', 'diff', 'cmp', 'comm', 'jq', 'stat', 'file', 'du', 'df', 'basename', 'dirname',
  'realpath', 'readlink', 'date', 'nl', 'tac', 'rev', 'fold', 'column', 'paste', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'base64', 'od', 'xxd',
  'hexdump', 'strings', 'which', 'id', 'whoami', 'uname', 'printenv', 'sleep',
]);

/**
 * git subcommands that write only the index, refs, objects or the output: never an entry of the
 * work tree. Only git's own names count (an alias cannot take one), and only without options
 * before them that change what runs or where (`-c`, `--config-env`, `--exec-path`, `--work-tree`).
 * Not those that may run a program the line names (`fetch --upload-pack`, `push --receive-pack`,
 * `grep -O`, `remote update`): that program could make links.
 */
const GIT_READS_ONLY: ReadonlySet<string> = new Set([
  'add', 'commit', 'status', 'diff', 'log', 'show', 'branch', 'tag', 'rev-parse', 'ls-files', 'ls-tree', 'blame', 'describe', 'shortlog', 'cat-file',
  'rev-list', 'reflog', 'count-objects', 'name-rev', 'merge-base', 'for-each-ref', 'show-ref', 'version', 'whatchanged', 'range-diff',
]);
const GIT_RISKY_GLOBAL = /^(-c|--config-env|--exec-path|--work-tree|--git-dir|--namespace)/;

/** find's actions that run a program: with none, find only lists, prints or deletes. */
const FIND_RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** True when the command cannot make a symbolic link (or move or copy one) anywhere. */
export function makesNoLinks(argv: readonly string[]): boolean {
  const program = argv[0] === undefined ? '' : argv[0];
  if (NO_LINKS.has(program)) return true;
  // By the bare name only: `./git` or `/tmp/x/git` may be any program.
  if (program === 'git') {
    const at = gitSubcommandAt(argv);
    return at < argv.length && GIT_READS_ONLY.has(argv[at]!) && !argv.slice(1, at).some((word) => GIT_RISKY_GLOBAL.test(word));
  }
  if (program === 'find') return !argv.some((word) => FIND_RUNS.has(word));
  return false;
}
