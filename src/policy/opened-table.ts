// Which words of a command a program opens as paths, as data: the options that take a value (so
// `head -n 5` opens no file '5'), the values that are files (`sort -o out`), the leading operands
// that are no files (grep's pattern, chmod's mode, timeout's duration), and what the operands are.
// shell-opened.ts reads commands with it; options are as GNU's manuals give them. A program missing
// here may open any word it is given that is not an option (`cat`-like).

export interface WordGrammar {
  /** Short option letters whose value is the rest of the word or else the next word. */
  valued?: string;
  /** Short option letters whose optional value can only be attached (`sed -i.bak`, `xargs -i{}`). */
  attached?: string;
  /** Long options whose value is the next word unless attached with '='. */
  valuedLong?: readonly string[];
  /** Long options taking two words (jq's `--arg NAME VALUE`), true when the second is a file. */
  pairs?: Readonly<Record<string, boolean>>;
  /** Valued options (`-o`, `--output`) whose value is a file the program opens. */
  fileValues?: readonly string[];
  /**
   * Its operands: files it may open; names of other things (subcommands, targets, text, or the
   * arguments of the repository's code, which opens what it likes without them); a command it
   * runs, read by that program's grammar; a script file, then the script's arguments.
   */
  operands: 'files' | 'names' | 'command' | 'script';
  /** Leading operands that are no files, unless one of `unless` gives them elsewhere (`grep -e`). */
  leading?: { count: number; unless?: readonly string[] };
  /** Options that make the operands (after the leading ones) names: `bash -c`, `jq --args`. */
  namedOperands?: readonly string[];
  /** Options whose value ends its own words (`python -c CODE`, `-m MODULE`, `node -e CODE`). */
  lastOption?: readonly string[];
  /** Operands `NAME=VALUE` are settings, not files (awk's assignments, env's variables). */
  settings?: boolean;
}

const NAMES: WordGrammar = { operands: 'names' };
const PATTERN = { count: 1 } as const;

const GREP: WordGrammar = {
  operands: 'files',
  valued: 'ABCDdefm',
  valuedLong: ['--regexp', '--file', '--max-count', '--after-context', '--before-context', '--context', '--directories', '--devices', '--include', '--exclude', '--exclude-from', '--exclude-dir', '--label', '--binary-files', '--group-separator'],
  fileValues: ['-f', '--file', '--exclude-from'],
  leading: { ...PATTERN, unless: ['-e', '-f', '--regexp', '--file'] },
};

const AWK: WordGrammar = {
  operands: 'files',
  valued: 'Ffvei',
  valuedLong: ['--field-separator', '--file', '--assign', '--source', '--include', '--load'],
  fileValues: ['-f', '--file', '-i', '--include'],
  leading: { ...PATTERN, unless: ['-f', '--file', '-e', '--source'] },
  settings: true,
};

const SED: WordGrammar = {
  operands: 'files',
  valued: 'efl',
  attached: 'i',
  valuedLong: ['--expression', '--file', '--line-length'],
  fileValues: ['-f', '--file'],
  leading: { ...PATTERN, unless: ['-e', '-f', '--expression', '--file'] },
};

const MOVE: WordGrammar = { operands: 'files', valued: 'St', valuedLong: ['--suffix', '--target-directory'], fileValues: ['-t', '--target-directory'] };

/** A shell given a script file; with -c or -s its operands are the script's text and arguments. */
const SHELL: WordGrammar = { operands: 'script', valued: 'oO', valuedLong: ['--rcfile', '--init-file'], fileValues: ['--rcfile', '--init-file'], namedOperands: ['-c', '-s'] };

const PYTHON: WordGrammar = { operands: 'script', valued: 'cmWX', lastOption: ['-c', '-m'] };

export const WORD_GRAMMARS: Readonly<Record<string, WordGrammar>> = {
  cat: { operands: 'files' },
  head: { operands: 'files', valued: 'nc', valuedLong: ['--lines', '--bytes'] },
  tail: { operands: 'files', valued: 'ncs', valuedLong: ['--lines', '--bytes', '--sleep-interval', '--pid', '--max-unchanged-stats'] },
  sort: {
    operands: 'files',
    valued: 'kSTto',
    valuedLong: ['--key', '--buffer-size', '--temporary-directory', '--field-separator', '--output', '--batch-size', '--compress-program', '--files0-from', '--parallel', '--random-source', '--sort'],
    fileValues: ['-o', '--output', '-T', '--temporary-directory', '--files0-from', '--random-source'],
  },
  uniq: { operands: 'files', valued: 'fsw', valuedLong: ['--skip-fields', '--skip-chars', '--check-chars'] },
  cut: { operands: 'files', valued: 'bcdf', valuedLong: ['--bytes', '--characters', '--delimiter', '--fields', '--output-delimiter'] },
  paste: { operands: 'files', valued: 'd', valuedLong: ['--delimiters'] },
  wc: { operands: 'files', valuedLong: ['--files0-from'], fileValues: ['--files0-from'] },
  nl: { operands: 'files', valued: 'bdfhilnsvw' },
  fold: { operands: 'files', valued: 'w', valuedLong: ['--width'] },
  strings: { operands: 'files', valued: 'nte', valuedLong: ['--bytes', '--radix', '--encoding'] },
  xxd: { operands: 'files', valued: 'cglnos' },
  base64: { operands: 'files', valued: 'w', valuedLong: ['--wrap'] },
  diff: {
    operands: 'files',
    valued: 'CUIFxXLSWD',
    valuedLong: [
      '--ignore-matching-lines', '--show-function-line', '--label', '--exclude', '--exclude-from', '--starting-file', '--width', '--tabsize', '--from-file', '--to-file',
      '--ifdef', '--line-format', '--horizon-lines', '--palette',
    ],
    fileValues: ['-X', '--exclude-from', '--from-file', '--to-file'],
  },
  cmp: { operands: 'files', valued: 'in', valuedLong: ['--ignore-initial', '--bytes'] },
  ls: { operands: 'files', valued: 'ITw', valuedLong: ['--block-size', '--format', '--hide', '--ignore', '--quoting-style', '--sort', '--time', '--time-style', '--tabsize', '--width'] },
  du: {
    operands: 'files',
    valued: 'BdtX',
    valuedLong: ['--block-size', '--max-depth', '--threshold', '--exclude', '--exclude-from', '--files0-from', '--time-style'],
    fileValues: ['-X', '--exclude-from', '--files0-from'],
  },
  stat: { operands: 'files', valued: 'c', valuedLong: ['--format', '--printf'] },
  touch: { operands: 'files', valued: 'drt', valuedLong: ['--date', '--reference', '--time'], fileValues: ['-r', '--reference'] },
  cp: MOVE,
  mv: MOVE,
  ln: MOVE,
  install: { operands: 'files', valued: 'gmoSt', valuedLong: ['--group', '--mode', '--owner', '--suffix', '--target-directory', '--strip-program'], fileValues: ['-t', '--target-directory'] },
  // chmod's mode and chown's owner lead unless --reference names a file instead (shell-opened.ts).
  chmod: { operands: 'files', valuedLong: ['--reference'], fileValues: ['--reference'] },
  chown: { operands: 'files', valuedLong: ['--reference', '--from'], fileValues: ['--reference'], leading: { count: 1, unless: ['--reference'] } },
  chgrp: { operands: 'files', valuedLong: ['--reference', '--from'], fileValues: ['--reference'], leading: { count: 1, unless: ['--reference'] } },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    operands: 'files',
    valued: 'ABCdEefgjMmrTt',
    valuedLong: [
      '--regexp', '--file', '--after-context', '--before-context', '--context', '--encoding', '--glob', '--iglob', '--threads', '--max-columns', '--max-count',
      '--max-depth', '--replace', '--type', '--type-not', '--type-add', '--type-clear', '--sort', '--sortr', '--color', '--colors', '--context-separator',
      '--field-context-separator', '--field-match-separator', '--ignore-file', '--max-filesize', '--path-separator', '--pre', '--pre-glob', '--engine',
      '--dfa-size-limit', '--regex-size-limit', '--hyperlink-format',
    ],
    fileValues: ['-f', '--file', '--ignore-file'],
    // `rg --files src` lists files: it has no pattern.
    leading: { ...PATTERN, unless: ['-e', '-f', '--regexp', '--file', '--files', '--type-list'] },
  },
  sed: SED,
  gsed: SED,
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
  jq: {
    operands: 'files',
    valued: 'L',
    valuedLong: ['--indent'],
    pairs: { '--arg': false, '--argjson': false, '--slurpfile': true, '--rawfile': true },
    fileValues: ['-L'],
    // -f/--from-file is a flag: the first operand is then the file holding the filter.
    leading: { ...PATTERN, unless: ['-f', '--from-file'] },
    namedOperands: ['--args', '--jsonargs'],
  },
  date: { operands: 'names', valued: 'dfrs', attached: 'I', valuedLong: ['--date', '--file', '--reference', '--set', '--rfc-3339'], fileValues: ['-f', '--file', '-r', '--reference'] },
  // Wrappers: what follows their own words is a command of its own.
  env: { operands: 'command', valued: 'uCS', valuedLong: ['--unset', '--chdir', '--split-string'], fileValues: ['-C', '--chdir', '-S', '--split-string'], settings: true },
  timeout: { operands: 'command', valued: 'sk', valuedLong: ['--signal', '--kill-after'], leading: { count: 1 } },
  nice: { operands: 'command', valued: 'n', valuedLong: ['--adjustment'] },
  nohup: { operands: 'command' },
  time: { operands: 'command', valued: 'fo', valuedLong: ['--format', '--output'], fileValues: ['-o', '--output'] },
  stdbuf: { operands: 'command', valued: 'ioe', valuedLong: ['--input', '--output', '--error'] },
  xargs: {
    operands: 'command',
    valued: 'adEILnPs',
    attached: 'eil',
    valuedLong: ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
    fileValues: ['-a', '--arg-file'],
  },
  // Interpreters: the script is a file; its arguments are the script's, which opens what it likes.
  node: {
    operands: 'script',
    valued: 'rCep',
    valuedLong: [
      '--require', '--import', '--loader', '--experimental-loader', '--eval', '--print', '--input-type', '--conditions', '--env-file', '--title', '--inspect-port',
      '--test-name-pattern', '--test-reporter', '--test-reporter-destination', '--redirect-warnings', '--watch-path', '--openssl-config', '--disable-warning',
    ],
    fileValues: ['--env-file', '--test-reporter-destination', '--redirect-warnings', '--watch-path', '--openssl-config'],
    lastOption: ['-e', '-p', '--eval', '--print'],
  },
  python: PYTHON,
  python3: PYTHON,
  python2: PYTHON,
  bash: SHELL,
  sh: SHELL,
  dash: SHELL,
  // Programs whose words name other things: text, numbers, subcommands, packages, targets, and
  // the tools that run the repository's code (its build, its tests), which opens what it likes.
  // mkdir, rm, rmdir and unlink do not go through a final symbolic link: a link where they look
  // makes mkdir fail and is what rm removes.
  ...Object.fromEntries(
    [
      'echo', 'printf', 'true', 'false', 'pwd', 'test', '[', 'sleep', 'seq', 'expr', 'yes', 'tr', 'basename', 'dirname', 'which', 'type', 'nproc', 'uname', 'whoami', 'id',
      'hostname', 'kill', 'mkdir', 'rm', 'rmdir', 'unlink', 'git', 'npm', 'npx', 'yarn', 'pnpm', 'bun', 'deno', 'corepack', 'make', 'cargo', 'go', 'pip', 'pip3',
      'pipx', 'poetry', 'uv', 'uvx', 'pytest', 'tox', 'nox', 'mvn', 'mvnw', 'gradle', 'gradlew', 'dotnet', 'docker', 'podman', 'bundle', 'gem', 'rake', 'composer',
    ].map((program) => [program, NAMES]),
  ),
};

/**
 * git's words that are files, by subcommand (shell-opened.ts reads the global options: -C,
 * --git-dir, --work-tree, --exec-path). A subcommand missing here, and the operands of one whose
 * operands are 'names' (revisions, pathspecs matched against the index), open no word: git adds
 * a symbolic link of the work tree as a link, never what it leads to.
 */
const GIT_PATHSPEC_FILE: WordGrammar = { operands: 'names', valuedLong: ['--pathspec-from-file'], fileValues: ['--pathspec-from-file'] };
const GIT_DIFF: WordGrammar = { operands: 'names', valued: 'O', valuedLong: ['--output', '--ignore-revs-file'], fileValues: ['-O', '--output'] };
const GIT_MESSAGE: WordGrammar = {
  operands: 'names',
  valued: 'mFctC',
  attached: 'Sn',
  valuedLong: ['--message', '--file', '--template', '--reuse-message', '--reedit-message', '--local-user', '--pathspec-from-file', '--author', '--date', '--cleanup', '--trailer', '--ref', '--strategy', '--strategy-option', '--into-name', '--fixup', '--squash', '--sort', '--format', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at'],
  fileValues: ['-F', '--file', '-t', '--template', '--pathspec-from-file'],
};
const GIT_PATCH: WordGrammar = { operands: 'files', valued: 'pC', valuedLong: ['--exclude', '--include', '--directory', '--whitespace', '--build-fake-ancestor', '--patch-format', '--resolvemsg', '--quoted-cr', '--empty'], fileValues: ['--build-fake-ancestor'] };

export const GIT_GRAMMARS: Readonly<Record<string, WordGrammar>> = {
  config: { operands: 'names', valued: 'f', valuedLong: ['--file', '--blob', '--default', '--type', '--comment', '--value', '--url'], fileValues: ['-f', '--file'] },
  'hash-object': { operands: 'files', valued: 't', valuedLong: ['--path'] },
  'format-patch': {
    operands: 'names',
    valued: 'ov',
    valuedLong: [
      '--output-directory', '--output', '--signature-file', '--description-file', '--in-reply-to', '--subject-prefix', '--to', '--cc', '--from', '--reroll-count',
      '--add-header', '--suffix', '--interdiff', '--range-diff', '--creation-factor', '--filename-max-length', '--start-number', '--base', '--cover-from-description',
    ],
    fileValues: ['-o', '--output-directory', '--output', '--signature-file', '--description-file'],
  },
  diff: GIT_DIFF,
  log: GIT_DIFF,
  show: GIT_DIFF,
  whatchanged: GIT_DIFF,
  'diff-tree': GIT_DIFF,
  'diff-index': GIT_DIFF,
  'diff-files': GIT_DIFF,
  'range-diff': GIT_DIFF,
  blame: { operands: 'names', valued: 'LS', attached: 'MC', valuedLong: ['--contents', '--ignore-revs-file', '--ignore-rev', '--date'], fileValues: ['-S', '--contents', '--ignore-revs-file'] },
  annotate: { operands: 'names', valued: 'LS', attached: 'MC', valuedLong: ['--contents', '--ignore-revs-file', '--ignore-rev', '--date'], fileValues: ['-S', '--contents', '--ignore-revs-file'] },
  commit: GIT_MESSAGE,
  tag: GIT_MESSAGE,
  notes: GIT_MESSAGE,
  merge: GIT_MESSAGE,
  apply: GIT_PATCH,
  am: GIT_PATCH,
  archive: { operands: 'names', valued: 'o', valuedLong: ['--output', '--format', '--prefix', '--remote', '--exec', '--add-file', '--add-virtual-file', '--mtime'], fileValues: ['-o', '--output', '--add-file'] },
  init: { operands: 'files', valued: 'b', valuedLong: ['--template', '--separate-git-dir', '--object-format', '--ref-format', '--initial-branch'], fileValues: ['--template', '--separate-git-dir'] },
  clone: {
    operands: 'files',
    valued: 'obcju',
    valuedLong: ['--template', '--separate-git-dir', '--reference', '--reference-if-able', '--origin', '--branch', '--config', '--jobs', '--upload-pack', '--depth', '--shallow-since', '--shallow-exclude', '--filter', '--server-option', '--bundle-uri', '--revision', '--ref-format'],
    fileValues: ['--template', '--separate-git-dir', '--reference', '--reference-if-able'],
  },
  'merge-file': { operands: 'files', valued: 'L', valuedLong: ['--marker-size', '--diff-algorithm'] },
  mailinfo: { operands: 'files', valuedLong: ['--encoding', '--quoted-cr'] },
  mailsplit: { operands: 'files', valued: 'ob', fileValues: ['-o'] },
  'interpret-trailers': { operands: 'files', valuedLong: ['--trailer', '--where', '--if-exists', '--if-missing'] },
  'index-pack': { operands: 'files', valued: 'o', valuedLong: ['--keep', '--threads', '--object-format', '--promisor'], fileValues: ['-o'] },
  'verify-pack': { operands: 'files' },
  'send-email': { operands: 'files' },
  grep: { operands: 'names', valued: 'fABCemO', valuedLong: ['--file', '--max-depth', '--threads', '--max-count', '--context', '--after-context', '--before-context', '--open-files-in-pager'], fileValues: ['-f', '--file'] },
  'ls-files': { operands: 'names', valued: 'xX', valuedLong: ['--exclude', '--exclude-from', '--exclude-per-directory', '--format', '--with-tree'], fileValues: ['-X', '--exclude-from'] },
  'read-tree': { operands: 'names', valuedLong: ['--index-output', '--prefix'], fileValues: ['--index-output'] },
  'fast-import': { operands: 'names', valuedLong: ['--export-marks', '--import-marks', '--import-marks-if-exists'], fileValues: ['--export-marks', '--import-marks', '--import-marks-if-exists'] },
  'fast-export': { operands: 'names', valuedLong: ['--export-marks', '--import-marks'], fileValues: ['--export-marks', '--import-marks'] },
  bugreport: { operands: 'names', valued: 'os', valuedLong: ['--output-directory', '--suffix'], fileValues: ['-o', '--output-directory'] },
  diagnose: { operands: 'names', valued: 'os', valuedLong: ['--output-directory', '--suffix', '--mode'], fileValues: ['-o', '--output-directory'] },
  add: GIT_PATHSPEC_FILE,
  checkout: GIT_PATHSPEC_FILE,
  reset: GIT_PATHSPEC_FILE,
  restore: GIT_PATHSPEC_FILE,
  rm: GIT_PATHSPEC_FILE,
  stash: GIT_PATHSPEC_FILE,
};

/** git subcommands whose operand after the first (`bundle create FILE`, `worktree add PATH`) is a file. */
export const GIT_SECOND_OPERAND: ReadonlySet<string> = new Set(['bundle', 'worktree']);
