// The analysis must read a line the way bash does. Real bash runs each line here with every
// program replaced by a stub that records its argv: where the analysis accepts a line, bash runs
// exactly the commands it reported; where bash would run something the analysis cannot see, the
// analysis refuses the line.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeShellCommand } from '../../src/policy/shell-analyze.js';
import { decide } from '../../src/policy/decide.js';
import { makeFixture, shell } from './fixture.js';
import { ARCHIVES, MEANING } from './policies.js';
import { Workspace } from '../../src/util/workspace.js';

const STUBS = ['git', 'find', 'cat', 'touch', 'rm', 'npm', 'head', 'ls', 'echo'];

/** GNU parallel is on PATH (Debian's `parallel`; moreutils has another program of that name). */
const gnuParallel = (() => {
  try {
    return execFileSync('parallel', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).includes('GNU parallel');
  } catch {
    return false;
  }
})();

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bash-agrees-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  for (const name of STUBS) {
    // \037 after each word, \036 after each command, one write per command (a pipeline's stubs
    // run at once): argv survives spaces and newlines. cat adds what it read on stdin as a last
    // word, `stdin=...`, so a heredoc's body is compared too.
    const stdin = name === 'cat' ? `in=$(/bin/cat; printf x); set -- "$@" "stdin=\${in%x}"\n` : '';
    const stub = `#!/bin/sh\n${stdin}line=''\nfor a in "\${0##*/}" "$@"; do line="$line$a$(printf '\\037')"; done\nprintf '%s\\036' "$line" >> "$LOG"\n`;
    fs.writeFileSync(path.join(dir, 'bin', name), stub, { mode: 0o755 });
  }
  fs.mkdirSync(path.join(dir, 'rm-only'));
  fs.copyFileSync(path.join(dir, 'bin', 'rm'), path.join(dir, 'rm-only', 'rm'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The commands bash runs for `command`, as the shell tool runs it (bash --norc --noprofile -c), sorted. */
function bashRuns(command: string, { systemPath = false } = {}): string[][] {
  const log = path.join(dir, 'log');
  fs.writeFileSync(log, '');
  try {
    execFileSync('/bin/bash', ['--norc', '--noprofile', '-c', command], {
      cwd: dir,
      // With systemPath, the system's programs after the rm stub alone (a perl script such as GNU
      // parallel runs echo and others of its own, which the other stubs would break).
      env: { PATH: systemPath ? `${path.join(dir, 'rm-only')}:/usr/bin:/bin` : path.join(dir, 'bin'), LOG: log, HOME: dir },
      stdio: 'ignore',
    });
  } catch {
    // A stub's exit status or a syntax error: what ran is in the log either way.
  }
  const text = fs.readFileSync(log, 'utf8');
  return sorted(text === '' ? [] : text.slice(0, -1).split('\x1e').map((entry) => entry.slice(0, -1).split('\x1f')));
}

async function analysedArgv(command: string): Promise<string[][] | string> {
  const result = await analyzeShellCommand(command);
  if (!result.ok) return result.reason;
  // What cat reads: the line's heredocs and here-strings in order, nothing otherwise (stdin is closed).
  const inputs = result.redirects.flatMap((r) => (r.kind === 'input' ? [r.body] : []));
  return sorted(result.commands.map((c) => (c.argv[0] === 'cat' ? [...c.argv, `stdin=${inputs.shift() ?? ''}`] : c.argv)));
}

/** In a stable order: the stubs of a pipeline finish in any order. */
function sorted(commands: string[][]): string[][] {
  return [...commands].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe('line continuations (backslash-newline), which bash deletes before it splits words', () => {
  // A blank on one side of the continuation: deleting it joins no words.
  const accepted = [
    'git diff \\\n  --stat',
    'git diff \\\n--stat',
    'git diff\\\n  --stat',
    'git log --oneline |\\\n  head -n 5',
    'npm test &&\\\n  git status',
    'git status # a comment that ends in a backslash \\\nls',
    '\\\ngit status',
    "cat 'single quotes keep \\\n both'",
    // A run of continuations is deleted whole: a blank on one side of the run is enough.
    'git status \\\n\\\n--short',
    'git status\\\n\\\n --short',
    // The heredoc's body starts after the line the continuation extends; inside it, a backslash
    // ending a line is kept, so the next line can end the body.
    "cat <<'EOF' \\\n| head -n 1\nbody \\\nEOF\nls",
  ];
  it.each(accepted)('%j: bash runs what the analysis reports', async (command) => {
    expect(await analysedArgv(command)).toEqual(bashRuns(command));
  });

  // Non-blank on both sides: bash joins two words the parser keeps apart.
  const joined: Array<[string, string[][]]> = [
    ['git status\\\n#;touch PWN1', [['git', 'status#'], ['touch', 'PWN1']]],
    ["find . -maxdepth 0 -\\\nexec touch PWN3 ';'", [['find', '.', '-maxdepth', '0', '-exec', 'touch', 'PWN3', ';']]],
    ['git diff --\\\noutput=/tmp/PWN4', [['git', 'diff', '--output=/tmp/PWN4']]],
    ['rm -r\\\nf build', [['rm', '-rf', 'build']]],
    ['ca\\\nt x', [['cat', 'x', 'stdin=']]],
    ['git status\\\n\\\n--short', [['git', 'status--short']]],
    // An odd run: an escaped backslash, then a continuation.
    ['cat a\\\\\\\nb', [['cat', 'a\\b', 'stdin=']]],
    // A blank a backslash escapes is part of the word: the continuation after it joins.
    ['ls a\\ \\\nx', [['ls', 'a x']]],
  ];
  it.each(joined)('%j: bash joins the words, the analysis refuses', async (command, runs) => {
    expect(bashRuns(command)).toEqual(sorted(runs));
    const result = await analysedArgv(command);
    expect(result).toEqual(expect.stringMatching(/line continuation/));
  });

  // A line that starts with a continuation: bash ends the command at the newline before it, and
  // the parser reads on (it saw `ls touch PWN`).
  it.each(['ls \n\\\ntouch PWN', 'git status\n\\\ntouch PWN'])('%j: bash runs two commands, the analysis refuses', async (command) => {
    expect(bashRuns(command)).toContainEqual(['touch', 'PWN']);
    expect(await analysedArgv(command)).toEqual(expect.stringMatching(/starts with a line continuation/));
  });

  // Inside double quotes bash deletes it too.
  const otherwise: Array<[string, string[][]]> = [['cat "a\\\nb"', [['cat', 'ab', 'stdin=']]]];

  // After an escaped backslash the newline is a real one: nothing is joined.
  it.each(['cat a\\\\\nls', 'cat "a\\\\\n"b', 'cat a\\\\\\\\\nls'])('%j: bash runs what the analysis reports', async (command) => {
    expect(await analysedArgv(command)).toEqual(bashRuns(command));
  });
  it.each(otherwise)('%j: refused', async (command, runs) => {
    expect(bashRuns(command)).toEqual(sorted(runs));
    expect(typeof (await analysedArgv(command))).toBe('string');
  });
});

describe('braces: bash expands only a {…} holding a "," or a ".." sequence, and the rest is text', () => {
  const accepted = [
    'git log @{u}..HEAD',
    'git reset HEAD@{1}',
    'git show stash@{0} {a} {} x{}y',
    'git rev-parse @{upstream} @{-1}',
    'git diff HEAD@{1}..HEAD@{0}',
    'git log HEAD@{2.days.ago}',
    // Quoted or escaped, or no valid sequence: bash keeps the braces.
    "ls '{a,b}' \"{a,b}\" \\{a,b} {a\\,b} {1..x} x{1..x}y",
  ];
  it.each(accepted)('%j: bash runs what the analysis reports', async (command) => {
    expect(await analysedArgv(command)).toEqual(bashRuns(command));
  });

  const expanded = ['ls {a,b}', 'ls x{1..3}', 'ls {a..c}', 'ls a{}b,c}', 'ls @{1}..{a,b}', 'ls {1..x}{a,b}', "ls {'a',b}", 'ls {a\\,b,c}', 'ls {a,}', 'ls {{a,b}}', 'ls {a..e..2}'];
  it.each(expanded)('%j: bash brace-expands it, the analysis refuses', async (command) => {
    expect(bashRuns(command)).not.toEqual(bashRuns(`set +B; ${command}`));
    expect(await analysedArgv(command)).toEqual(expect.stringMatching(/brace expansion/));
  });

  // tree-sitter-bash ends a word at a brace before an escape (`}\\}`, `a{\\;`), bash does not.
  it.each(['ls }\\}', 'ls a{\\;', 'ls {\\-}\\#', 'ls {\\}'])('%j: bash reads one word, the analysis refuses', async (command) => {
    expect(bashRuns(command)[0]).toHaveLength(2);
    expect(await analysedArgv(command)).toEqual(expect.stringMatching(/splits .* into two words where bash reads one/));
  });

  it('a {name} right before a redirection is no word of the command to bash', async () => {
    expect(bashRuns('ls {fd}> out')).toEqual([['ls']]);
    expect(await analysedArgv('ls {fd}> out')).toEqual(expect.stringMatching(/assigns a descriptor/));
  });
});

describe('backslashes: unquoted, one makes the next character plain; in double quotes, only before $ ` " \\ and newline', () => {
  const accepted = [
    'find . -name x -exec rm {} \\;',
    'find . -name \\*.ts -exec wc -l {} \\+',
    'ls a\\ b \\#c d\\\\e \\~ \\$HOME \\{a,b\\}',
    'ls foo\\|bar a\\;b a\\&b a\\>b \\(x\\) \\\'q\\\' \\"d\\"',
    'g\\it status',
    '\\rm -r\\f build',
    'ls "a\\"b" "\\$x" "\\`" "\\\\" "\\a" "a\\b\\\\c"',
    'ls \\é a\\\\',
    'ls "a \\\n b"',
  ];
  it.each(accepted)('%j: bash runs what the analysis reports', async (command) => {
    expect(await analysedArgv(command)).toEqual(bashRuns(command));
  });
});

describe("ANSI-C strings, $'…': bash turns the escapes into the characters they name", () => {
  const accepted = [
    "ls $'\\t' $'a\\'b' $'\\x41\\101\\u0042\\U00000043' $'\\q\\x\\u' $'it'\"'\"s $'\\e[1m' $'\\a\\b\\f\\v\\r' $'\\?\\\"' $'\\\\'",
    "ls -d$'\\t' x$'\\n'y $'\\0101' $'\\18' $'\\x4g' $'é\\x41'",
    "$'\\x72m' -rf build",
    "ls $'{a,b}' $'x'{y}",
  ];
  it.each(accepted)('%j: bash runs what the analysis reports', async (command) => {
    expect(await analysedArgv(command)).toEqual(bashRuns(command));
  });

  // What bash would cut short or read by version or locale is refused; so is a brace expansion after one.
  const refused: Array<[string, RegExp]> = [
    ["ls $'a\\x00b'", /NUL/],
    ["ls $'\\c@'", /\\c/],
    ["ls $'\\x{41}'", /\\x\{/],
    ["ls $'\\u00e9'", /locale/],
    ["ls $'\\351'", /byte/],
  ];
  it.each(refused)('%j: refused', async (command, reason) => {
    expect(await analysedArgv(command)).toEqual(expect.stringMatching(reason));
  });

  // tree-sitter-bash reads `\\'` as an escaped quote, so it ends `$'a\\'` at a later quote: a
  // command on the next line would be hidden in a string.
  it("$'a\\\\' ends where bash ends it, or the line is refused", async () => {
    const command = "ls $'a\\\\' $'b'\ntouch PWN #'";
    expect(bashRuns(command)).toContainEqual(['touch', 'PWN']);
    expect(await analysedArgv(command)).toEqual(expect.stringMatching(/ends elsewhere for bash than for the parser/));
  });

  it("a brace expansion after a quote the ANSI-C string escapes: $'a\\'' ends after the quote", async () => {
    const command = "ls $'a\\''{b,c}";
    expect(bashRuns(command)).toEqual([['ls', "a'b", "a'c"]]);
    expect(await analysedArgv(command)).toEqual(expect.stringMatching(/brace expansion/));
  });
});

describe('quoted heredocs: where bash ends the body decides which lines run', () => {
  const accepted = [
    "cat <<'EOF'\nx\nEOF\nls",
    "cat <<'EOF'\nEOF\nls",
    "cat <<'EOF'\n\tindented\n  first\nEOF",
    'cat <<"EOF" | head -n 1\n x $HOME\nEOF\nls',
    "cat <<-'EOF'\n\tx\n\t\ty\n\tEOF\nls",
    "cat <<'my-end.1'\nEOF\nmy-end.1\nls",
    "cat <<'EOF' > out.txt\nx\nEOF",
  ];
  it.each(accepted)('%j: bash runs what the analysis reports, and feeds the body it reports', async (command) => {
    expect(await analysedArgv(command)).toEqual(bashRuns(command));
  });

  // The parser and bash end the body on different lines: bash runs `touch PWN2`, or feeds lines the parser runs.
  const refused: Array<[string, RegExp]> = [
    ["cat <<'\\EOF'\nx\n\\EOF\ntouch PWN2\nEOF", /heredoc delimiter.*quoted in a way/],
    ["cat <<'E\\F'\nx\nE\\F\ntouch PWN2\nEF", /heredoc delimiter.*quoted in a way/],
    ["cat <<'E\\\\F'\nx\nE\\\\F\ntouch PWN2\nE\\F", /heredoc delimiter.*quoted in a way/],
    ["cat <<'E F'\nx\nE F\ntouch PWN2\nE", /heredoc delimiter.*quoted in a way/],
    ["cat <<E'OF'\nx\nEOF\ntouch PWN2", /heredoc delimiter.*quoted in a way|does not parse/],
    ["cat <<'EOF'\nx\nEOFX\ntouch PWN2\nEOF", /exactly 'EOF'|does not parse/],
    ["cat <<'EOF'\nx\nEOF \ntouch PWN2\nEOF", /exactly 'EOF'/],
    ["cat <<'EOF'\nx\n EOF\ntouch PWN2\nEOF", /exactly 'EOF'/],
  ];
  it.each(refused)('%j: refused', async (command, reason) => {
    expect(await analysedArgv(command)).toEqual(expect.stringMatching(reason));
  });

  it('bash does end those bodies elsewhere than at the first line starting with the delimiter', () => {
    expect(bashRuns("cat <<'\\EOF'\nx\n\\EOF\ntouch PWN2\nEOF")).toEqual(sorted([['cat', 'stdin=x\n'], ['touch', 'PWN2']]));
    expect(bashRuns("cat <<'E\\F'\nx\nE\\F\ntouch PWN2\nEF")).toEqual(sorted([['cat', 'stdin=x\n'], ['touch', 'PWN2']]));
    expect(bashRuns("cat <<'EOF'\nx\nEOFX\ntouch PWN2\nEOF")).toEqual([['cat', 'stdin=x\nEOFX\ntouch PWN2\n']]);
  });
});

describe('deny rules: the line runs the denied command in real bash, and the rule refuses the line', () => {
  /** The decision under MEANING (`rm -rf *` among its rules) for `command`. */
  async function denial(command: string) {
    const fixture = makeFixture();
    try {
      return await decide(shell(command)(fixture), fixture.context(MEANING.mode, MEANING.allow, MEANING.deny));
    } finally {
      fixture.cleanup();
    }
  }

  // Programs nobody listed run the words after them (each by its absolute path: the stubs' PATH lacks them).
  const wrapped = [
    '/usr/bin/prlimit rm -rf build',
    '/usr/bin/setarch x86_64 rm -rf build',
    '/usr/bin/linux64 rm -rf build',
    '/usr/bin/choom -n 0 -- rm -rf build',
    "/usr/bin/flock lock -c 'rm -rf build'",
    "/usr/bin/script -qc 'rm -rf build' /dev/null",
  ];
  it.each(wrapped)('%j', async (command) => {
    const program = command.split(' ')[0]!;
    if (!fs.existsSync(program)) return;
    expect(bashRuns(command)).toContainEqual(['rm', '-rf', 'build']);
    expect((await denial(command)).reason).toMatch(/deny rule 'shell: rm -rf \*'.*it runs 'rm -rf build'/);
  });

  // A line a program hands its shell is a command line, blank or not: ${IFS} splits it there.
  const handedLines = [
    "/usr/bin/flock lock -c 'rm${IFS}-rf${IFS}build'",
    "/usr/bin/script -qc 'rm${IFS}-rf${IFS}build' /dev/null",
    "/usr/bin/flock lock --command 'rm${IFS}-rf${IFS}build'",
    // env -S splits its string by a grammar of its own, where `\_` is a blank.
    "/usr/bin/env -S 'rm\\_-rf\\_build'",
    "/usr/bin/env -vS'rm\\_-rf\\_build'",
    "/usr/bin/env --split-str='rm\\_-rf' build",
  ];
  it.each(handedLines)('%j', async (command) => {
    const program = command.split(' ')[0]!;
    if (!fs.existsSync(program)) return;
    const ran = bashRuns(command);
    expect(ran.some((argv) => argv[0] === 'rm')).toBe(true);
    expect((await denial(command)).reason).toMatch(/cannot be checked|deny rule 'shell: rm -rf \*'/);
  });

  // A shell or `source` reading its script through a name for stdin, or a shell given a file on stdin.
  const fromStdin = [
    "/bin/bash /dev/stdin <<< 'rm -rf build'",
    "/bin/sh /proc/self/fd/0 <<'EOF'\nrm -rf build\nEOF",
    "echo 'rm -rf build' | /bin/bash /dev/fd/0",
    "source /dev/stdin <<< 'rm -rf build'",
    ". /dev/fd/0 <<< 'rm -rf build'",
    "printf 'rm -rf build' > script.txt && /bin/sh < script.txt",
    "echo 'rm -rf build' | /bin/sh -c /bin/sh",
  ];
  it.each(fromStdin)('%j', async (command) => {
    expect(bashRuns(command)).toContainEqual(['rm', '-rf', 'build']);
    expect((await denial(command)).reason).toMatch(/cannot be checked/);
  });

  // Text a pipe or a file holds becomes the command: xargs's replace string, a wrapper given no
  // command of its own after xargs, sed's e, sort's --compress-program. (GNU xargs replaces -I's
  // string only in the arguments: `xargs -I X X -rf d` runs a program named X, so env carries it.)
  const fromData = [
    "echo 'rm -rf build' | /usr/bin/xargs -I X /bin/sh -c X",
    'echo rm | /usr/bin/xargs -I X /usr/bin/env X -rf build',
    'echo rm -rf build | /usr/bin/xargs /usr/bin/env',
    'echo rm -rf build | /usr/bin/xargs /usr/bin/timeout 5',
    'echo rm -rf build | /usr/bin/xargs /usr/bin/nice',
    "echo 'rm -rf build' | /bin/sed e",
    "echo 'rm -rf build' | /bin/sed --expression=e",
    "echo 'rm -rf build' | /bin/sed 's/^/ /e'",
    // A bracket expression holds the delimiter: the regex is `[/]`, and `e` is s's flag.
    "echo x/ | /bin/sed 's/[/]/ ;rm -rf build;/e'",
    '/usr/bin/sort -S 64K --compress-program=/bin/sh big.txt > /dev/null',
  ];
  it.each(fromData)('%j', async (command) => {
    const program = command.split(' ').find((word) => word.startsWith('/'))!;
    if (!fs.existsSync(program)) return;
    // sort compresses only what it spills to temporary files: more than its 64K buffer (':' runs nothing).
    fs.writeFileSync(path.join(dir, 'big.txt'), `${':\n'.repeat(5000)}rm -rf build\n`.repeat(12));
    expect(bashRuns(command)).toContainEqual(['rm', '-rf', 'build']);
    expect((await denial(command)).reason).toMatch(/deny rule 'shell: rm -rf \*'.*it runs 'X -rf build', where 'X' stands for a line xargs reads|cannot be checked/);
  });

  // GNU parallel (a perl script: the system's PATH after the stubs). Given no command, each line it
  // reads is a command line; its command is a line for the shell; a wrapper given none runs what it reads.
  const parallelRuns: string[] = [
    'parallel --will-cite -a cmds.txt',
    'parallel --will-cite :::: cmds.txt',
    "parallel --will-cite --colsep ' ' env < cmds.txt",
    "parallel --will-cite env '{}' -rf build :::: programs.txt",
    "parallel --will-cite -a programs.txt '{} -rf build'",
    "parallel --will-cite echo '$(rm -rf build)' ::: a",
  ];
  it.skipIf(!gnuParallel).each(parallelRuns)('%j', async (command) => {
    fs.writeFileSync(path.join(dir, 'cmds.txt'), 'rm -rf build\n');
    fs.writeFileSync(path.join(dir, 'programs.txt'), 'rm\n');
    expect(bashRuns(command, { systemPath: true })).toContainEqual(['rm', '-rf', 'build']);
    expect((await denial(command)).reason).toMatch(/cannot be checked|deny rule 'shell: rm -rf \*'/);
  });

  // What bash itself runs that no word names: a trap's action, mapfile's callback, a subscript
  // evaluated as arithmetic, PS4 under set -x, BASH_ENV in a child shell, its own image in /proc.
  const bashItself = [
    "trap 'rm -rf build' EXIT",
    "mapfile -C 'rm -rf build' -c 1 x <<< a",
    "printf -v 'a[$(rm -rf build)]' x",
    "read 'a[$(rm -rf build)]' <<< x",
    "test -v 'a[$(rm -rf build)]'",
    "read x <<< 'a[$(rm -rf build)]'; let x",
    "read PS4 <<< '$(rm -rf build)'; set -x; true",
    "/usr/bin/env BASH_ENV=/dev/stdin /bin/bash -c true <<< 'rm -rf build'",
    "/proc/self/exe -c 'rm${IFS}-rf${IFS}build'",
  ];
  it.each(bashItself)('%j', async (command) => {
    // mapfile hands its callback the index and the line as well.
    expect(bashRuns(command).map((argv) => argv.slice(0, 3))).toContainEqual(['rm', '-rf', 'build']);
    expect((await denial(command)).reason).toMatch(/cannot be checked|deny rule 'shell: rm -rf \*'/);
  });

  // Options of ordinary programs that run a command line (the system's programs after the rm stub).
  const optionRuns = [
    "make --eval='x: ; rm -rf build' x",
    "split --filter='rm -rf build' big.txt",
    "tar -cf /dev/null big.txt --checkpoint=1 --checkpoint-action=exec='rm -rf build'",
    "strace -f -o'|rm${IFS}-rf${IFS}build' true",
  ];
  it.each(optionRuns)('%j', async (command) => {
    const program = command.split(' ')[0]!;
    if (!['/usr/bin', '/bin'].some((dir) => fs.existsSync(path.join(dir, program)))) return;
    fs.writeFileSync(path.join(dir, 'big.txt'), 'x\n');
    expect(bashRuns(command, { systemPath: true })).toContainEqual(['rm', '-rf', 'build']);
    expect((await denial(command)).reason).toMatch(/cannot be checked/);
  });

  // A wrapper given no command starts a shell, which reads stdin like `sh` would. setarch's is a
  // login shell, whose profile may reset PATH: the script names the rm stub by its path.
  const bare = [
    "/usr/bin/setarch x86_64 <<< 'RM -rf build'",
    "/usr/bin/linux64 <<'EOF'\nRM -rf build\nEOF",
    "printf 'RM -rf build' > script.txt && /usr/bin/setarch x86_64 < script.txt",
    "echo 'RM -rf build' | /usr/bin/setarch x86_64 -R",
  ];
  it.each(bare)('%j', async (template) => {
    const command = template.replace('RM', path.join(dir, 'bin', 'rm'));
    const program = command.split(' ').find((word) => word.startsWith('/usr/bin/'))!;
    if (!fs.existsSync(program)) return;
    expect(bashRuns(command)).toContainEqual(['rm', '-rf', 'build']);
    expect((await denial(command)).reason).toMatch(/deny rule 'shell: rm -rf \*'.*it runs '.*rm -rf build'|is given no command, so the shell it starts runs commands .* cannot be checked/);
  });
});

describe("'..' after a symbolic link: the policy resolves a word where the kernel opens it", () => {
  // ws/out leads to elsewhere/deep; ws/h to .git/hooks. A marker file in each place says which one bash's cat opened.
  let root: string;
  let workspace: Workspace;
  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bash-dotdot-')));
    const ws = path.join(root, 'ws');
    for (const dir of ['ws/.git/hooks', 'ws/src', 'elsewhere/deep']) fs.mkdirSync(path.join(root, dir), { recursive: true });
    for (const file of ['ws/m', 'ws/.git/m', 'elsewhere/m', 'm', 'ws/src/m']) fs.writeFileSync(path.join(root, file), file);
    fs.symlinkSync(path.join(root, 'elsewhere/deep'), path.join(ws, 'out'));
    fs.symlinkSync('.git/hooks', path.join(ws, 'h'));
    workspace = Workspace.open(ws);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const words: Array<[string, string]> = [
    ['out/../m', 'elsewhere/m'],
    ['out/../../m', 'm'],
    ['h/../m', 'ws/.git/m'],
    ['src/../m', 'ws/m'],
    ['./src/./../src/m', 'ws/src/m'],
    ['h/../../m', 'ws/m'],
  ];
  it.each(words)('%s: bash opens %s, and the policy resolves the same file', (word, opened) => {
    const read = execFileSync('/bin/bash', ['--norc', '--noprofile', '-c', 'cat -- "$1"', 'bash', word], { cwd: path.join(root, 'ws'), encoding: 'utf8' });
    expect(read).toBe(opened);
    const resolved = workspace.resolvePhysically(path.join(root, 'ws'), word);
    const inside = opened.startsWith('ws/');
    expect(resolved.ok).toBe(inside);
    if (resolved.ok) expect(resolved.path).toBe(path.join(root, opened));
    else expect(resolved.reason).toContain(path.join(root, opened));
  });
});

describe('an archive the repository ships: a name it holds is a link by the time the line reads it', () => {
  it('tar xf x.tar && cat f reads outside the workspace in real bash, and the policy refuses the line', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bash-archive-')));
    try {
      fs.mkdirSync(path.join(root, 'ws'));
      fs.mkdirSync(path.join(root, 'pack'));
      fs.writeFileSync(path.join(root, 'secret'), 'outside');
      fs.symlinkSync(path.join(root, 'secret'), path.join(root, 'pack', 'f'));
      execFileSync('tar', ['cf', path.join(root, 'ws', 'x.tar'), '-C', path.join(root, 'pack'), 'f']);
      const read = execFileSync('/bin/bash', ['--norc', '--noprofile', '-c', 'tar xf x.tar && cat f'], { cwd: path.join(root, 'ws'), encoding: 'utf8' });
      expect(read).toBe('outside');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    const fixture = makeFixture();
    try {
      const decision = await decide(shell('tar xf x.tar && cat f')(fixture), fixture.context(ARCHIVES.mode, ARCHIVES.allow, ARCHIVES.deny));
      expect(decision).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/'f', which does not exist yet, and 'tar xf x.tar' earlier in the line may create it/) });
    } finally {
      fixture.cleanup();
    }
  });
});

/** What real bash prints for `line` in `ws`, with the system's own programs (real tar and git). */
function realBash(ws: string, line: string): string {
  return execFileSync('/bin/bash', ['--norc', '--noprofile', '-c', line], { cwd: ws, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** The policy refuses `line` under ARCHIVES (tar, git, cat, grep… allowed), for `reason`. */
async function expectArchivesRefusal(line: string, reason: RegExp): Promise<void> {
  const fixture = makeFixture();
  try {
    const decision = await decide(shell(line)(fixture), fixture.context(ARCHIVES.mode, ARCHIVES.allow, ARCHIVES.deny));
    expect(decision).toMatchObject({ decision: 'deny', reason: expect.stringMatching(reason) });
  } finally {
    fixture.cleanup();
  }
}

describe('an archive writes through a link the workspace holds', () => {
  it('tar xf through.tar writes outside in real bash; the policy lists the archive and refuses', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bash-through-')));
    try {
      const ws = path.join(root, 'ws');
      fs.mkdirSync(path.join(root, 'outside'));
      fs.mkdirSync(path.join(root, 'pack', 'link-out'), { recursive: true });
      fs.writeFileSync(path.join(root, 'pack', 'link-out', 'planted.txt'), 'x');
      fs.mkdirSync(ws);
      fs.symlinkSync(path.join(root, 'outside'), path.join(ws, 'link-out'));
      execFileSync('tar', ['-cf', path.join(ws, 'through.tar'), '-C', path.join(root, 'pack'), 'link-out/planted.txt']);
      realBash(ws, 'tar xf through.tar');
      expect(fs.existsSync(path.join(root, 'outside', 'planted.txt'))).toBe(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    await expectArchivesRefusal('tar xf through.tar', /the archive 'through\.tar' holds 'link-out\/planted\.txt', which it would write outside the workspace/);
  });
});

describe('an extractor puts its link where a file was: a name that exists when the line is checked is no safer', () => {
  const lines: Array<[line: string, reason: RegExp]> = [
    ['tar xf x.tar && cat src/a.ts', /'src\/a\.ts', which exists now, and 'tar xf x.tar' earlier in the line may replace it with a symbolic link/],
    ['git checkout -q topic && cat src/a.ts', /'src\/a\.ts', which exists now, and 'git checkout -q topic' earlier in the line may replace it with a symbolic link/],
  ];
  it.each(lines)('%s: real tar and git read outside the workspace; the policy refuses the line', async (line, reason) => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bash-replace-')));
    try {
      const ws = path.join(root, 'ws');
      fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
      fs.mkdirSync(path.join(root, 'pack', 'src'), { recursive: true });
      fs.writeFileSync(path.join(root, 'secret'), 'outside');
      fs.symlinkSync(path.join(root, 'secret'), path.join(root, 'pack', 'src', 'a.ts'));
      execFileSync('tar', ['cf', path.join(ws, 'x.tar'), '-C', path.join(root, 'pack'), 'src/a.ts']);
      // The branch topic holds src/a.ts as the link; main, checked out, as a file.
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: ws, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
      git('init', '-q', '-b', 'main');
      fs.symlinkSync(path.join(root, 'secret'), path.join(ws, 'src', 'a.ts'));
      git('add', 'src/a.ts');
      git('commit', '-qm', 'link');
      git('branch', 'topic');
      fs.rmSync(path.join(ws, 'src', 'a.ts'));
      fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'inside');
      git('add', 'src/a.ts');
      git('commit', '-qm', 'file');
      expect(fs.lstatSync(path.join(ws, 'src', 'a.ts')).isFile()).toBe(true);
      const out = realBash(ws, line);
      expect(out).toBe('outside');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    await expectArchivesRefusal(line, reason);
  });
});

describe('after an extractor, a walk that follows links and git\'s file words reach what the archive planted', () => {
  // x.tar holds leak -> ../outside/secret and outdir -> ../outside: real grep -R and git go there.
  const lines: Array<[line: string, reaches: (root: string, out: string) => boolean, reason: RegExp]> = [
    ['tar xf x.tar && grep -R secret .', (_root, out) => out.includes('./leak:'), /'grep' follows symbolic links while it walks a tree, and 'tar xf x.tar' earlier/],
    ['tar xf x.tar && git config -f leak --list', (_root, out) => out.includes('core.secret=outside'), /names 'leak', which does not exist yet, and 'tar xf x.tar' earlier/],
    ['tar xf x.tar && git hash-object -w leak | xargs git cat-file -p', (_root, out) => out.includes('secret = outside'), /names 'leak', which does not exist yet/],
    ['tar xf x.tar && git -C outdir init -q', (root) => fs.existsSync(path.join(root, 'outside', '.git')), /names 'outdir', which does not exist yet/],
  ];
  it.each(lines)('%s: real tar, grep and git reach outside; the policy refuses the line', async (line, reaches, reason) => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bash-follow-')));
    try {
      const ws = path.join(root, 'ws');
      fs.mkdirSync(ws);
      fs.mkdirSync(path.join(root, 'outside'));
      fs.mkdirSync(path.join(root, 'pack'));
      fs.writeFileSync(path.join(root, 'outside', 'secret'), '[core]\n\tsecret = outside\n');
      fs.symlinkSync('../outside/secret', path.join(root, 'pack', 'leak'));
      fs.symlinkSync('../outside', path.join(root, 'pack', 'outdir'));
      execFileSync('tar', ['cf', path.join(ws, 'x.tar'), '-C', path.join(root, 'pack'), 'leak', 'outdir']);
      execFileSync('git', ['init', '-q'], { cwd: ws });
      const out = realBash(ws, line);
      expect(reaches(root, out)).toBe(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    await expectArchivesRefusal(line, reason);
  });
});

describe('the modes of an extractor: the policy holds later names after a command exactly when the real program plants the link', () => {
  // ws holds x.tar and x.zip with f a link to ../secret, and a repository whose branch `topic`
  // adds f as that link; `gone` is a commit holding f too, from which the work tree deleted it.
  let root: string;
  let fixture: ReturnType<typeof makeFixture>;
  const has = (program: string) => ['/usr/bin', '/bin', '/usr/local/bin'].some((dir) => fs.existsSync(path.join(dir, program)));
  const tools = ['tar', 'zip', 'unzip', 'git'].every(has);
  beforeAll(() => {
    fixture = makeFixture();
    if (!tools) return;
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bash-modes-')));
    fs.writeFileSync(path.join(root, 'secret'), 'outside');
    fs.mkdirSync(path.join(root, 'pack'));
    fs.symlinkSync(path.join(root, 'secret'), path.join(root, 'pack', 'f'));
  });
  afterAll(() => {
    fixture.cleanup();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  /** A fresh workspace; true when `command` left f in it as a link. */
  function plants(command: string): boolean {
    const ws = fs.mkdtempSync(path.join(root, 'ws-'));
    const run = (line: string) => execFileSync('/bin/bash', ['--norc', '--noprofile', '-c', line], { cwd: ws, stdio: 'ignore' });
    const git = 'git -c user.name=t -c user.email=t@t -c init.defaultBranch=main';
    run(`tar cf x.tar -C ../pack f && (cd ../pack && zip -qy ../${path.basename(ws)}/x.zip f)`);
    run(`${git} init -q && echo a > a && ${git} add a x.tar x.zip && ${git} commit -qm a && ${git} checkout -q -b topic && cp -P ../pack/f f`);
    run(`${git} add f && ${git} commit -qm f && ${git} checkout -q main && ${git} branch gone topic`);
    if (command.includes('stash')) run(`${git} checkout -q gone && rm f`);
    try {
      run(command);
    } catch {
      // A command that fails may still have planted f; only the result counts.
    }
    return fs.lstatSync(path.join(ws, 'f'), { throwIfNoEntry: false })?.isSymbolicLink() === true;
  }

  // What real tar, unzip and git do: whether f is a link afterwards.
  const commands: Array<[command: string, planted: boolean]> = [
    ['tar xf x.tar', true], ['tar -xf x.tar', true], ['tar --extract -f x.tar', true], ['tar tf x.tar', false], ['tar -tvf x.tar', false],
    ['tar czf y.tgz x.tar', false], ['tar xOf x.tar', false], ['tar -xf x.tar -O', false],
    ['unzip -q x.zip', true], ['unzip -qo x.zip', true], ['unzip --l x.zip', true], ['unzip -l x.zip', false], ['unzip -v x.zip', false],
    ['unzip -t x.zip', false], ['unzip -p x.zip', false], ['unzip -c x.zip', false], ['unzip -Z x.zip', false],
    ['git checkout -q topic', true], ['git checkout -q -b x', false], ['git checkout -q -b x topic', true], ['git switch -q -c x', false],
    ['git switch -q topic', true], ["git checkout -q topic -- '*'", true], ['git reset -q --soft topic', false], ['git reset -q --mixed topic', false],
    ['git reset -q topic', false], ['git reset -q --hard topic', true], ["git restore --source topic --staged '*'", false],
    ["git restore --source topic '*'", true], ['git stash -q', true], ['git stash list', false], ['git merge -q topic', true],
  ];
  it.each(commands)('%s plants f: %s', async (command, planted) => {
    if (!tools) return;
    expect(plants(command)).toBe(planted);
    const decision = await decide(shell(`${command} && cat f`)(fixture), fixture.context(ARCHIVES.mode, ARCHIVES.allow, ARCHIVES.deny));
    if (planted) expect(decision).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/'f', which does not exist yet, and '.*' earlier in the line may create it/) });
    else expect(decision).toMatchObject({ decision: 'allow' });
  });
});
