// The shell analysis on its own: what reduces to literal commands (and to which argv), and what
// is refused, with a reason that names the construct.
import { describe, expect, it } from 'vitest';
import { analyzeShellCommand } from '../../src/policy/shell-analyze.js';
import { screenShellCommand } from '../../src/policy/shell-screen.js';

const literal: Array<[string, string[][]]> = [
  ['git status', [['git', 'status']]],
  ['git log --oneline -n 5', [['git', 'log', '--oneline', '-n', '5']]],
  ['grep -n "foo bar" src/a.ts', [['grep', '-n', 'foo bar', 'src/a.ts']]],
  ["grep -rn 'a$b*' src", [['grep', '-rn', 'a$b*', 'src']]],
  ['git diff | head -n 20', [['git', 'diff'], ['head', '-n', '20']]],
  ['npm test && git status || git diff; ls', [['npm', 'test'], ['git', 'status'], ['git', 'diff'], ['ls']]],
  ['npm test\ngit status\n', [['npm', 'test'], ['git', 'status']]],
  ['git commit -m "fix: two\nlines"', [['git', 'commit', '-m', 'fix: two\nlines']]],
  ['git log --format="%h %s" HEAD~3..HEAD', [['git', 'log', '--format=%h %s', 'HEAD~3..HEAD']]],
  ['"git" st\'at\'us', [['git', 'status']]],
  ['echo ""', [['echo', '']]],
  ['git diff \\\n  --stat', [['git', 'diff', '--stat']]],
  ['ls src/été', [['ls', 'src/été']]],
  ['git show a#b', [['git', 'show', 'a#b']]],
  // An ANSI-C string is its characters: `cut -d $'\t'` splits at tabs.
  ["cut -d $'\\t' -f2 a.tsv", [['cut', '-d', '\t', '-f2', 'a.tsv']]],
  // A backslash makes the next character plain and goes (bash's quote removal).
  ['g\\it status', [['git', 'status']]],
  ['echo a\\ b \\#c d\\\\e', [['echo', 'a b', '#c', 'd\\e']]],
  ["find . -name \\*.ts -exec wc -l {} \\;", [['find', '.', '-name', '*.ts', '-exec', 'wc', '-l', '{}', ';']]],
  // Inside double quotes only before $ ` " \ and newline; elsewhere it stays.
  ['echo "a\\"b" "\\$x \\` \\\\ \\n"', [['echo', 'a"b', '$x ` \\ \\n']]],
  // Braces bash does not expand (no ',' or '..' sequence inside) are text.
  ['git log @{u}..HEAD', [['git', 'log', '@{u}..HEAD']]],
  ['git reset HEAD@{1} && git show stash@{0} {a} {}', [['git', 'reset', 'HEAD@{1}'], ['git', 'show', 'stash@{0}', '{a}', '{}']]],
  ["echo '{a,b}' \\{a,b} {1..x}", [['echo', '{a,b}', '{a,b}', '{1..x}']]],
  ['', []],
];

const refused: Array<[string, RegExp]> = [
  ['echo $(id)', /command substitution/],
  ['echo `id`', /command substitution/],
  ['echo "$(id)"', /command substitution/],
  ['cat <(ls)', /process substitution/],
  ['echo $HOME', /variable expansion/],
  ['echo "$HOME"', /variable expansion/],
  ['echo ${HOME}', /parameter expansion/],
  ['echo $((1+1))', /arithmetic expansion/],
  ['FOO=1 git status', /variable assignment/],
  ['export A=1', /declaration/],
  ['ls > $OUT', /variable expansion/],
  ['ls {fd}> out', /names a variable bash assigns a descriptor to/],
  ['ls {fd}>out', /names a variable bash assigns a descriptor to/],
  ['cat 0<> f', /does not parse|redirection/],
  ['cat <<EOF\nx\nEOF', /unquoted delimiter/],
  ['cat <<EOF\n$(id)\nEOF', /command substitution|unquoted delimiter/],
  ['cat <<< $x', /variable expansion/],
  ['cat 3< f', /redirection/],
  ['(git status)', /subshell/],
  ['{ git status; }', /group/],
  ['f() { ls; }', /function definition/],
  ['git status &', /background/],
  ['git status & rm -rf x', /background/],
  ['ls |& cat', /\|&/],
  ['! git status', /negation/],
  ['if true; then ls; fi', /if statement/],
  ['for a in b; do ls; done', /for loop/],
  ['[[ -f x ]]', /test command/],
  ['(( 1 ))', /arithmetic command/],
  ["echo $'\\x00'", /ANSI-C string .* holds a NUL/],
  ['echo $"x"', /\$/],
  ['ls *.ts', /'\*'/],
  ['ls a?', /'\?'/],
  ['ls [ab]', /'\['/],
  ['echo {a,b}', /'\{'/],
  // tree-sitter-bash reads one word, bash two (`{` and `}`).
  ['echo { }', /contains ' '/],
  ['cat ~/.ssh/id_rsa', /tilde/],
  ['echo a=~/x', /tilde/],
  // bash would read the next character with the backslash; the parser ended the word before it.
  ['echo a\\', /does not parse|ends in a backslash/],
  ['echo "a$"', /'\$'/],
  ['echo {a,b}x', /brace expansion.*write each word out/],
  ['{rm,-rf,build}', /starts with the word '\{rm,-rf,build\}'.*write the command's words out/],
  ['ls; {a} x', /starts with the word '\{a\}'/],
  ['coproc cat', /keyword/],
  ['then ls', /keyword/],
  ['git status;;', /;;/],
  ['git status\\\n#;touch x', /line continuation/],
  ['git diff --\\\noutput=x', /line continuation/],
  ['echo "unterminated', /does not parse/],
  ['ls &&', /does not parse|incomplete/],
];

describe('analyzeShellCommand', () => {
  it.each(literal)('reduces %j to literal argv', async (command, expected) => {
    const result = await analyzeShellCommand(command);
    expect(result).toMatchObject({ ok: true });
    if (result.ok) expect(result.commands.map((c) => c.argv)).toEqual(expected);
  });

  it.each(refused)('refuses %j', async (command, reason) => {
    const result = await analyzeShellCommand(command);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});

describe('screenShellCommand', () => {
  const cases: Array<[string, string, RegExp | null]> = [
    ['plain', 'git status && npm test\n', null],
    ['tab', 'git\tstatus', null],
    ['over 10,000 characters', `echo ${'a'.repeat(10_000)}`, /longer than 10000/],
    ['NUL', 'git status\0rm', /NUL/],
    ['lone CR', 'git status\rrm -rf x', /carriage return/],
    ['CRLF', 'git status\r\n', /carriage return/],
    ['escape', 'echo \x1b[31m', /control character U\+001B/],
    ['zero-width space', 'git\u200b status', /U\+200B/],
    ['right-to-left override', 'ls \u202Etxt.exe', /U\+202E/],
    ['BOM', '\ufeffls', /U\+FEFF/],
    ['no-break space', 'git\u00a0status', /U\+00A0/],
    ['ideographic space', 'git\u3000status', /U\+3000/],
    ['full-width ampersands', 'git status ＆＆ rm -rf x', /full-width.*'&'/],
    ['full-width bar', 'git log ｜ sh', /full-width.*'\|'/],
    ['full-width semicolon', 'ls；rm x', /full-width/],
    ['greek question mark', 'ls \u037e rm x', /look-alike/],
  ];
  it.each(cases)('%s', (_name, command, expected) => {
    const result = screenShellCommand(command);
    if (expected === null) expect(result).toBeNull();
    else expect(result).toMatch(expected);
  });
});
