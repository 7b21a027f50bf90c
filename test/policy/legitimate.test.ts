// What a well-behaved model does every day must still pass under the same policies the attack
// corpus runs against, with the rule that allowed it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workspace } from '../../src/util/workspace.js';
import { decide } from '../../src/policy/decide.js';
import { fetches, makeFixture, parseRule, reads, shell, writes, type CallMaker, type Fixture } from './fixture.js';
import { ANY_SHELL, ARCHIVES, AUTO, BROAD, BUILTINS, ELSEWHERE, FILE_TOOLS, FILES, LINKS, MAIN, MEANING, TOOLCHAIN, type PolicySpec } from './policies.js';

type Legit = [name: string, policy: PolicySpec, call: CallMaker, rule: string | null];

/** Build tools that run the repository's own scripts, allowed whole. */
const MAIN_PLUS: PolicySpec = { mode: 'allowlist', allow: ['shell: node *', 'shell: npm *'], deny: [] };
/** Programs whose words include text that looks like a path: separators, patterns, messages, what echo prints. */
const TEXT_WORDS: PolicySpec = {
  mode: 'allowlist',
  allow: ['echo', 'printf', 'cut', 'awk', 'sort', 'paste', 'tr', 'basename', 'dirname', 'grep', 'rg', 'git', 'jq', 'go', 'diff', 'ls'].map((name) => `shell: ${name} *`),
  deny: [],
};
const RUNNERS: PolicySpec = { mode: 'allowlist', allow: ['shell: npm *', 'shell: go *', 'shell: git *', 'shell: find *', 'shell: head *', 'shell: xargs *', 'shell: wc *'], deny: [] };

const legitimate: Legit[] = [
  // Build tools and builtins allowed for their work, doing it.
  ['make test', TOOLCHAIN, shell('make -j4 test'), 'shell: make *'],
  ['split by lines', TOOLCHAIN, shell('split -l 100 src/a.ts part-'), 'shell: split *'],
  ['strace to a file', TOOLCHAIN, shell('strace -f -o trace.txt true'), 'shell: strace *'],
  ['gcc compiles', TOOLCHAIN, shell('gcc -O2 -o a src/a.c'), 'shell: gcc *'],
  ['sqlite3 queries', TOOLCHAIN, shell('sqlite3 db "select 1"'), 'shell: sqlite3 *'],
  ['printf prints', BUILTINS, shell("printf '%s\\n' x"), 'shell: printf *'],
  ['printf -v a plain name', BUILTINS, shell("printf -v out '%s' x"), 'shell: printf *'],
  ['test -f', BUILTINS, shell('test -f src/a.ts'), 'shell: test *'],
  ...(
    [
      ["sed 's/[/]/x/' src/a.ts", 'sed'], ["sed 's/[]/]/x/g' src/a.ts", 'sed'], ["sed -n '/[[:space:]]x/p' src/a.ts", 'sed'], ['grep -rn foo src -i', 'grep'], ["grep foo src/a.ts --include='*.ts'", 'grep'], ["sed -n '1,5p' src/a.ts", 'sed'], ['sort -u src/a.ts', 'sort'],
      ['zip -ry o.zip src', 'zip'], ['zip -r o.zip src', 'zip'], ['diff -r src docs', 'diff'], ['diff -r --no-dereference . src', 'diff'], ['du -sh src', 'du'],
      ["awk '{print $1}' src/a.ts", 'awk'], ["awk '$1 > 5 {print $2}' src/a.ts", 'awk'], ['git status', 'git'], ['git lfs pull', 'git'], ['git log -n 3', 'git'],
      ['jq .name docs/guide.md', 'jq'], ['tar -czf o.tgz src', 'tar'], ['xz -k src/a.ts', 'xz'], ['install -m 644 src/a.ts out.ts', 'install'],
    ] as const
  ).map(([command, program]): Legit => [`file tools for their work: ${command}`, FILE_TOOLS, shell(command), `shell: ${program} *`]),
  ['git status', MAIN, shell('git status'), 'shell: git status'],
  ['git diff --stat', MAIN, shell('git diff --stat'), 'shell: git diff *'],
  ['git diff alone matches git diff *', MAIN, shell('git diff'), 'shell: git diff *'],
  ['git log --oneline -n 5', MAIN, shell('git log --oneline -n 5'), 'shell: git log *'],
  ['git log with a quoted format', MAIN, shell("git log --format='%h %s' -n 3"), 'shell: git log *'],
  ['git log over a range', MAIN, shell('git log HEAD~3..HEAD -- src/a.ts'), 'shell: git log *'],
  ['git commit with a quoted message', MAIN, shell('git commit -m "fix: typo in README"'), 'shell: git commit -m *'],
  ['npm test', MAIN, shell('npm test'), 'shell: npm test'],
  ['quoted grep arguments', MAIN, shell('grep -n "foo bar" src/a.ts'), 'shell: grep *'],
  ['grep with a single-quoted regex', MAIN, shell("grep -rnE 'a|b$' src"), 'shell: grep *'],
  ['grep -r of the whole workspace: it does not follow links', MAIN, shell('grep -rn TODO .'), 'shell: grep *'],
  ['grep -R of a tree with no link leading out', MAIN, shell('grep -Rn TODO src'), 'shell: grep *'],
  ['pipe between allowed commands', MAIN, shell('git diff | head -n 20'), 'shell: git diff *, shell: head *'],
  ['&& sequence', MAIN, shell('npm run lint && npm test'), 'shell: npm run lint, shell: npm test'],
  // A subcommand or script name is no file: a later command of the same tool may repeat it, and a
  // Go package pattern names its directory (the link check reads `./...` as `.`).
  ['two npm scripts in a row', RUNNERS, shell('npm run lint && npm run test'), 'shell: npm *'],
  ['npm test twice', RUNNERS, shell('npm test && npm test'), 'shell: npm *'],
  ['go vet then go test over every package', RUNNERS, shell('go vet ./... && go test ./...'), 'shell: go *'],
  ['go build then the tests of one tree', RUNNERS, shell('go build ./... && go test ./src/...'), 'shell: go *'],
  // Commands that only read, list or write the index make no link: later words need no second call.
  ['git add . then commit', RUNNERS, shell('git add . && git commit -m wip'), 'shell: git *'],
  ['a new path after git add', ARCHIVES, shell('git add . && cat build/new.txt'), 'shell: git *, shell: cat *'],
  ['git diff twice', RUNNERS, shell('git diff --stat && git diff src/a.ts'), 'shell: git *'],
  ['git stash around the tests', RUNNERS, shell('git stash && npm test && git stash pop'), 'shell: git *, shell: npm *'],
  ['find lists, head cuts', RUNNERS, shell('find . -name "*.ts" -not -path "./node_modules/*" | head -20'), 'shell: find *, shell: head *'],
  ['find lists, xargs counts', RUNNERS, shell("find . -type f -name '*.md' | xargs wc -l"), 'shell: find *, shell: xargs *'],
  // Braces bash does not expand are text: git's reflog and upstream names.
  ['git log of what is not pushed yet', MAIN, shell('git log --oneline @{u}..HEAD'), 'shell: git log *'],
  ['git diff against the reflog', MAIN, shell('git diff HEAD@{1} --stat'), 'shell: git diff *'],
  ['git stash show', RUNNERS, shell('git stash show -p stash@{0} && git rev-parse --abbrev-ref @{upstream}'), 'shell: git *'],
  // A backslash makes the next character plain, as bash's quote removal does.
  ['grep with an escaped alternation', MAIN, shell('grep -rn foo\\|bar src'), 'shell: grep *'],
  ['a file name with an escaped space', MAIN, shell('cat docs/guide.md src/a\\ b.ts'), 'shell: cat *'],
  ['find with an escaped glob and ;', RUNNERS, shell('find src -name \\*.ts -newer src/a.ts | head -n 3'), 'shell: find *, shell: head *'],
  ['an escaped quote inside double quotes', MAIN, shell('git commit -m "fix \\"quoted\\" names"'), 'shell: git commit -m *'],
  // Words the program never opens are not paths, however they look: what echo prints, a separator,
  // a pattern, a message, a name and its value for jq, a test's name pattern.
  ...(
    [
      ['echo /etc/passwd', 'echo'], ["printf '%s\\n' ../elsewhere/x", 'printf'], ['cut -d/ -f2 src/a.ts', 'cut'], ["awk -F/ '{print $1}' src/a.ts", 'awk'],
      ['sort -t/ -k2 src/a.ts', 'sort'], ['sort -rt / -k2 src/a.ts', 'sort'], ['paste -d/ src/a.ts src/a.ts', 'paste'], ["tr '/' '_' < src/a.ts", 'tr'],
      ['basename /usr/lib/libx.so', 'basename'], ['dirname ../a/b', 'dirname'], ['grep -rn -e /api/v1 src', 'grep'], ["rg -g '/dist/**' -e /x src", 'rg'],
      ["git log -S /api/v1 --oneline", 'git'], ["git log --author=/x --grep='fix ../x'", 'git'], ["git tag -a v1 -m '../x handling'", 'git'],
      ["git notes add -m '/etc/hosts is read now'", 'git'], ["git stash push -m '/tmp is full'", 'git'], ["git grep -n '/etc/hosts' src", 'git'], ["git grep -e ../x", 'git'],
      ["jq --arg path /etc/x '.a' docs/guide.md", 'jq'], ["go test -v -run '/sub$' ./...", 'go'], ["diff -I /x src/a.ts docs/guide.md", 'diff'], ["ls -I '/x' src", 'ls'],
    ] as const
  ).map(([command, program]): Legit => [`text, not a path: ${command}`, TEXT_WORDS, shell(command), `shell: ${program} *`]),
  // `{}` is no brace expansion (it needs a comma or `..` inside): a plain word for xargs -I and find.
  // true, false and : alone do nothing: the usual `|| true` needs no rule of its own.
  // An option is no file: the same option in a later command goes through no link.
  ['two versions in a row', MAIN_PLUS, shell('node --version && npm --version'), 'shell: node *, shell: npm *'],
  ['make twice with the same option', TOOLCHAIN, shell('make -j4 && make -j4 test'), 'shell: make *'],
  ['the tests, then their status', MAIN, shell('npm test; echo "exit: $?"'), 'shell: npm test, shell: echo *'],
  ['tests whose failure is not the point', RUNNERS, shell('npm test || true'), 'shell: npm *'],
  ['a no-op after the tests', RUNNERS, shell('npm test; :'), 'shell: npm *'],
  ['xargs -I {} with {} inside words', RUNNERS, shell('find src -name "*.ts" | xargs -I {} wc -l {} {}.ts'), 'shell: find *, shell: xargs *'],
  ['multi-line sequence', MAIN, shell('git status\nnpm test\ngit diff --stat\n'), 'shell: git status, shell: npm test, shell: git diff *'],
  ['line continuation', MAIN, shell('git log \\\n  --oneline'), 'shell: git log *'],
  ['line continuation after an operator', MAIN, shell('git diff --stat |\\\n  head -n 5'), 'shell: git diff *, shell: head *'],
  ['line continuation before the blank', MAIN, shell('git log\\\n  --oneline'), 'shell: git log *'],
  ['cd into a subdirectory', MAIN, shell('cd src && ls'), 'shell: cd *, shell: ls *'],
  ['a directory parameter inside', MAIN, shell('ls', 'src'), 'shell: ls *'],
  ['relative path argument', MAIN, shell('cat src/a.ts'), 'shell: cat *'],
  ['.. that stays inside', MAIN, shell('cat ../src/a.ts', 'docs'), 'shell: cat *'],
  ['echo with a quoted string', MAIN, shell('echo "all done"'), 'shell: echo *'],
  ['sed printing lines', BROAD, shell("sed -n '1,20p' src/a.ts"), 'shell: sed *'],
  ['sed substitution to stdout', BROAD, shell("sed -e 's/foo/bar/g; /^$/d' src/a.ts"), 'shell: sed *'],
  ['find by name', BROAD, shell('find src -name a.ts -type f'), 'shell: find *'],
  ['ripgrep', BROAD, shell('rg -n --hidden foo src'), 'shell: rg *'],
  ['awk field', BROAD, shell("awk -F: '$1 > 5 {print $2}' src/a.ts"), 'shell: awk *'],
  ['git diff --text is not an abbreviation of --textconv', MAIN, shell('git diff --text'), 'shell: git diff *'],
  ['awk with a | field separator', BROAD, shell("awk -F'|' '{print $1}' src/a.ts"), 'shell: awk *'],
  ['git -C inside the workspace', BROAD, shell('git -C src log -n 1'), 'shell: git *'],
  ['git --no-pager', BROAD, shell('git --no-pager show HEAD --stat'), 'shell: git *'],
  ['git config --get', BROAD, shell('git config --get user.name'), 'shell: git *'],
  // One key and nothing to set: git reads it, as --get does.
  ['git config KEY', BROAD, shell('git config user.email'), 'shell: git *'],
  ['git config --global KEY', BROAD, shell('git config --global user.name'), 'shell: git *'],
  // find's patterns are matched against names it finds: a link or a protected name in one is no path.
  ['find past a directory by its path pattern', BROAD, shell("find . -name '*.ts' -not -path './link-out/*'"), 'shell: find *'],
  ['find pruning .git', BROAD, shell('find . -path ./.git -prune -o -type f -print'), 'shell: find *'],
  ['npm run with args', BROAD, shell('npm run build -- --watch=false'), 'shell: npm *'],
  // Words with a '/' are resolved as paths: what is not a path, or stays inside, is still fine.
  ['npm run lint', MAIN, shell('npm run lint'), 'shell: npm run lint'],
  ['git log with a / in its format', BROAD, shell('git log --format=%H/%s -n 3'), 'shell: git *'],
  ['git checkout of a remote branch', BROAD, shell('git checkout -b fix origin/main'), 'shell: git *'],
  ['sed script with slashes', BROAD, shell("sed -n 's/a/b/p' src/a.ts"), 'shell: sed *'],
  ['curl of a URL', FILES, shell("curl -sS -o docs/page.html 'https://example.org/a/b?c=d/e'"), 'shell: curl *'],
  ['cp to a new file in a new directory', FILES, shell('cp src/a.ts src/new/dir/b.ts'), 'shell: cp *'],
  ['cp -t with a separate value', FILES, shell('cp -v -t docs src/a.ts'), 'shell: cp *'],
  ['cp -vt./dir inside', FILES, shell('cp -vt./docs src/a.ts'), 'shell: cp *'],
  ['touch a new file', FILES, shell('touch src/new.ts'), 'shell: touch *'],
  ['mkdir -p a new tree', FILES, shell('mkdir -p src/x/y/z'), 'shell: mkdir *'],
  ['tee into a new file', FILES, shell('tee docs/log.txt'), 'shell: tee *'],
  ['dd inside', FILES, shell('dd if=src/a.ts of=docs/copy.ts bs=1k'), 'shell: dd *'],
  ['gcc with separate -I values', FILES, shell('gcc -I include/x -o build/a src/a.c'), 'shell: gcc *'],
  ['node -r ./file', FILES, shell('node -r./src/register.js src/a.ts'), 'shell: node *'],
  // '..' after a real directory is what it was; after a link inside the workspace, where the link leads.
  ['.. after a real directory', MAIN, shell('cat src/../docs/guide.md'), 'shell: cat *'],
  ['.. after a link into .git that stays out of it', MAIN, shell('cat git-link/../src/a.ts'), 'shell: cat *'],
  // Commands that make no links leave later paths to be checked as they are.
  ['mkdir, then cp into the new directory', FILES, shell('mkdir -p build && cp src/a.ts build/x'), 'shell: mkdir *, shell: cp *'],
  ['npm test && git status', MAIN, shell('npm test && git status'), 'shell: npm test, shell: git status'],
  ['touch, then cat the new file', LINKS, shell('touch new.txt && cat new.txt'), 'shell: touch *, shell: cat *'],
  ['an existing path after a command that may make links', LINKS, shell('npm test && cat src/a.ts'), 'shell: npm test, shell: cat *'],
  ['ln alone', LINKS, shell('ln -s src/a.ts alias.ts'), 'shell: ln *'],
  // An extractor alone, its own redirection, and what follows it that is no new file.
  ['tar xf alone', ARCHIVES, shell('tar xf x.tar'), 'shell: tar *'],
  ['tar -xf into a directory', ARCHIVES, shell('tar -xf x.tar -C docs'), 'shell: tar *'],
  ['unzip alone', ARCHIVES, shell('unzip -o x.zip'), 'shell: unzip *'],
  ['unzip into a directory', ARCHIVES, shell('unzip -o x.zip -d docs'), 'shell: unzip *'],
  ...(
    [
      ['cd src && tar -C .. -cf o.tar docs', 'cd *, shell: tar *'], ['git -C src log -n 1', 'git *'], ['cd src && git blame -- a.ts', 'cd *, shell: git *'],
      ['ln -s src/a.ts docs/a.ts', 'ln *'], ['cd docs && ln -s ../src/a.ts a.ts', 'cd *, shell: ln *'], ['git checkout-index --prefix=build/ -a', 'git *'],
      ['tar -xif x.tar', 'tar *'], ['patch -p1 < x.diff', 'patch *'], ['patch -p1 -i x.diff', 'patch *'], ['patch -p2 -d src < x.diff', 'patch *'], ['git apply x.diff', 'git *'], ['git apply --check workflow.diff', 'git *'], ['tar -x --file=x.tar', 'tar *'], ['cp -r docs build', 'cp *'], ['mv src/a.ts docs/', 'mv *'], ['rsync -a src/ build/', 'rsync *'], ['find . -name "*.ts"', 'find *'], ['sha256sum src/a.ts', 'sha256sum *'], ['file src/a.ts', 'file *'], ['gzip -k src/a.ts', 'gzip *'],
    ] as const
  ).map(([command, rule]): Legit => [`words from elsewhere, inside: ${command}`, ELSEWHERE, shell(command), `shell: ${rule}`]),
  ['tar xvf with its listing redirected', ARCHIVES, shell('tar xvf x.tar > files.txt'), 'shell: tar *'],
  ['tar xf, then ls', ARCHIVES, shell('tar xf x.tar && ls -la'), 'shell: tar *, shell: ls *'],
  ['git checkout, then git words', ARCHIVES, shell('git checkout main && git pull --rebase && git log --oneline -n 5'), 'shell: git *'],
  ['git checkout -b, then npm test', ARCHIVES, shell('git checkout -b fix && npm test'), 'shell: git *, shell: npm test'],
  ['git checkout, then echo', ARCHIVES, shell('git checkout main && echo done'), 'shell: git *, shell: echo *'],
  ['a redirection before the extractor', ARCHIVES, shell('npm test > test.log && tar xf x.tar'), 'shell: npm test, shell: tar *'],
  ['a new bare name before the extractor', ARCHIVES, shell('cat f; tar xf x.tar'), 'shell: cat *, shell: tar *'],
  // Modes of an extractor that write no file of the work tree: a later new name is no link it made.
  ...[
    'tar czf out.tgz src', 'tar tzf x.tgz', 'tar -xOzf x.tgz pkg/package.json', 'unzip -l x.zip', 'unzip -v x.zip', 'unzip -t x.zip', 'unzip -p x.zip a',
    'unzip -Z x.zip', 'git checkout -b fix', 'git checkout -B fix', 'git switch -c feature/x', 'git reset --soft HEAD~1', 'git reset --mixed HEAD~1',
    'git stash list', 'git stash show -p', 'git bisect log', 'git worktree list', 'git submodule status', 'git restore --staged src/a.ts', 'git apply --check x.patch',
  ].map((extractor): Legit => {
    const program = extractor.startsWith('git') ? 'git' : extractor.split(' ')[0]!;
    return [`${extractor}, then a new file`, ARCHIVES, shell(`${extractor} && npm test > test.log && cat test.log`), `shell: ${program} *, shell: npm test, shell: cat *`];
  }),
  // After an extractor, words that no program opens as a path: option values, modes, settings,
  // patterns and filters, code, modules, the words xargs hands a program that only prints them,
  // subcommands, the directory the line is in. (A file it opens, new or not, is refused: the
  // archive may put a link in its place; test/policy/attacks.test.ts.)
  ...(
    [
      ['timeout 60 npm test', 'timeout *'], ['nice -n 10 npm test', 'nice *'], ['date +%F', 'date *'],
      ['env CI=1 npm test', 'env *'], ['pytest -k add', 'pytest *'], ['python3 -m pytest', 'python3 *'], ["python3 -c 'print(1)'", 'python3 *'],
      ["node -e 'console.log(1)'", 'node *'], ['ls | xargs echo', 'ls *, shell: xargs *'], ['pip install requests', 'pip *'], ['mvn test', 'mvn *'],
      ['./gradlew test', './gradlew *'], ['dotnet test', 'dotnet *'], ['docker build -t app .', 'docker *'], ['mkdir -p build newdir', 'mkdir *'],
      ['ls .', 'ls *'], ["find . -name '*.ts' -type f", 'find *'], ['rg -t ts add', 'rg *'],
    ] as const
  ).map(([command, rule]): Legit => [`tar xf, then ${command}`, ARCHIVES, shell(`tar xf x.tar && ${command}`), `shell: tar *, shell: ${rule}`]),
  // After an extractor: walks that do not follow links, and git words that are revisions, pathspecs, messages.
  ...(
    [
      ['grep -r secret .', 'grep *'], ['git add .', 'git *'], ['git add -A', 'git *'], ['git status', 'git *'],
      ['git log -1', 'git *'], ['git log -n 5 --stat main', 'git *'], ["git commit -m 'import vendor'", 'git *'], ['git diff HEAD~1 -- src', 'git *'],
      ['git format-patch -1', 'git *'], ['git tag -a v1 -m release', 'git *'],
      ['git blame -L 1,5 src/a.ts', 'git *'], ['git config --get user.name', 'git *'],
    ] as const
  ).map(([command, rule]): Legit => [`tar xf, then ${command}`, ARCHIVES, shell(`tar xf x.tar && ${command}`), `shell: tar *, shell: ${rule}`]),
  ['git checkout, then git status', ARCHIVES, shell('git checkout topic && git status'), 'shell: git *'],
  ['git pull, then git log -1', ARCHIVES, shell('git pull && git log -1'), 'shell: git *'],
  ['grep -R alone', ARCHIVES, shell('grep -R export src'), 'shell: grep *'],
  // After cd X &&, words are taken from X.
  ['cd src && cat ../docs/guide.md', MAIN, shell('cd src && cat ../docs/guide.md'), 'shell: cd *, shell: cat *'],
  ['cd twice', MAIN, shell('cd src && cd ../docs && cat ../src/a.ts'), 'shell: cd *, shell: cat *'],
  ['cd, then a pipeline', MAIN, shell('cd src && cat ../docs/guide.md | head -n 1'), 'shell: cd *, shell: cat *, shell: head *'],
  ['cd inside bash -c', MAIN, shell("bash -c 'cd src && cat ../docs/guide.md'"), 'shell: cd *, shell: cat *'],
  // Arguments that are text, not files.
  ['cat /dev/null', MAIN, shell('cat /dev/null'), 'shell: cat *'],
  ['git log -p -- /dev/null', MAIN, shell('git log -p -- /dev/null'), 'shell: git log *'],
  ['grep a pattern with slashes', MAIN, shell("grep -rn '/api/v1' src"), 'shell: grep *'],
  ['grep -A value, then a pattern with slashes', MAIN, shell("grep -A 3 '/api/v1' src"), 'shell: grep *'],
  ['rg a pattern with slashes', BROAD, shell("rg '/api/' src"), 'shell: rg *'],
  ['sed address range', BROAD, shell("sed -n '/start/,/end/p' src/a.ts"), 'shell: sed *'],
  ['awk pattern', BROAD, shell("awk '/x/ {print $1}' src/a.ts"), 'shell: awk *'],
  ['git commit message with a slash', MAIN, shell("git commit -m '/docs: fix links'"), 'shell: git commit -m *'],
  ['git commit -am message with a slash', BROAD, shell("git commit -am '/docs: fix links'"), 'shell: git *'],
  ['gcc macro definition with a path value', FILES, shell('gcc -DPREFIX=/usr/local -o build/a src/a.c'), 'shell: gcc *'],
  ['edit inside an allowed glob', MAIN, writes('edit', 'src/a.ts'), 'edit: src/**'],
  ['create a file in a new directory', MAIN, writes('edit', 'src/new/dir/b.ts'), 'edit: src/**'],
  ['write_file anywhere not protected', MAIN, writes('write_file', 'docs/new.md'), 'write_file: **'],
  ['write a .gitignore (not .git)', MAIN, writes('write_file', '.gitignore'), 'write_file: **'],
  ['read a file (read-only)', MAIN, reads('read_file', 'src/a.ts'), null],
  ['grep in a directory the deny rule does not reach', MAIN, reads('grep', 'src'), null],
  ['fetch an allowed host', MAIN, fetches('https://example.org/docs'), 'web_fetch: example.org'],
  ['fetch a subdomain', MAIN, fetches('https://api.github.com/repos/x/y'), 'web_fetch: *.github.com'],
  ['any command under auto-approve', AUTO, shell('curl -s https://example.org | head -n 5'), null],
  ['git pull under auto-approve with a git push deny rule', AUTO, shell('git pull --rebase'), null],
  ['a heredoc mentioning rm, fed to a program that only reads it', AUTO, shell("cat <<'EOF' > docs/cleanup.md\nrun rm -rf build to clean\nEOF"), null],
  ['a pipe into a program that is not a shell', AUTO, shell("echo 'rm -rf build' | grep -n -e build"), null],
  ['npm test 2>&1 | tee a log under deny rules', AUTO, shell('npm test 2>&1 | tee test.log'), null],
  // Plainly the allowed command: redirections inside the workspace, comments, bash -c, heredocs.
  ['npm test 2>&1', MAIN, shell('npm test 2>&1'), 'shell: npm test'],
  ['npm test > /dev/null', MAIN, shell('npm test > /dev/null'), 'shell: npm test'],
  ['npm test >/dev/null 2>&1', MAIN, shell('npm test >/dev/null 2>&1'), 'shell: npm test'],
  ['npm test &> test.log', MAIN, shell('npm test &> test.log'), 'shell: npm test'],
  ['npm test 2> errors.txt', MAIN, shell('npm test 2> errors.txt'), 'shell: npm test'],
  ['npm test >> docs/test-log.md', MAIN, shell('npm test >> docs/test-log.md'), 'shell: npm test'],
  ['npm test > "out dir/log.txt" (quoted, new file)', MAIN, shell('npm test > "docs/log file.txt"'), 'shell: npm test'],
  ['git diff > a patch in a subdirectory', MAIN, shell('git diff > src/changes.patch'), 'shell: git diff *'],
  ['cd then redirect inside', MAIN, shell('cd src && git diff > changes.patch'), 'shell: cd *, shell: git diff *'],
  ['stderr to stdout in a pipe', MAIN, shell('npm test 2>&1 | head -n 50'), 'shell: npm test, shell: head *'],
  ['stdout to stderr', MAIN, shell('echo done >&2'), 'shell: echo *'],
  ['close stderr', MAIN, shell('npm test 2>&-'), 'shell: npm test'],
  ['input from a workspace file', MAIN, shell('head -n 3 < src/a.ts'), 'shell: head *'],
  ['a trailing comment', MAIN, shell('npm test # all of them'), 'shell: npm test'],
  ['a comment line between commands', MAIN, shell('# first the tests\nnpm test\n# then lint\nnpm run lint'), 'shell: npm test, shell: npm run lint'],
  ['a comment after &&', MAIN, shell('npm test && # and then\nnpm run lint'), 'shell: npm test, shell: npm run lint'],
  ["bash -c 'npm test'", MAIN, shell("bash -c 'npm test'"), 'shell: npm test'],
  ['sh -c "npm test"', MAIN, shell('sh -c "npm test"'), 'shell: npm test'],
  ['bash -ec with a sequence', MAIN, shell("bash -ec 'npm run lint && npm test'"), 'shell: npm run lint, shell: npm test'],
  ['bash -o pipefail -c with a pipe', MAIN, shell("bash -o pipefail -c 'git diff | head -n 5'"), 'shell: git diff *, shell: head *'],
  ['bash -c with a redirect inside', MAIN, shell("bash -c 'npm test 2>&1'"), 'shell: npm test'],
  ['bash -c inside sh -c', MAIN, shell(`sh -c "bash -c 'npm test'"`), 'shell: npm test'],
  ['bash -c -- script', MAIN, shell("bash -c -- 'npm test'"), 'shell: npm test'],
  ['npm test 2>/dev/stderr', MAIN, shell('npm test > /dev/stderr'), 'shell: npm test'],
  ['dash -c', MAIN, shell("dash -c 'git status'"), 'shell: git status'],
  ['a quoted heredoc fed to an allowed command', MAIN, shell("cat <<'EOF'\nhello $USER $(id)\nEOF"), 'shell: cat *'],
  ['a quoted heredoc written to a workspace file', MAIN, shell("cat <<'EOF' > docs/notes.md\n# Notes\n`code` and $HOME stay literal\nEOF"), 'shell: cat *'],
  ['a double-quoted heredoc delimiter', MAIN, shell('cat <<"END"\nx\nEND'), 'shell: cat *'],
  ['a heredoc with <<- and a pipe', MAIN, shell("cat <<-'EOF' | head -n 1\n\tone\n\ttwo\n\tEOF"), 'shell: cat *, shell: head *'],
  ['a here-string', MAIN, shell("grep -c x <<< 'a x b'"), 'shell: grep *'],
  // A bare `- shell` rule approves whatever parses, expansions and control flow included.
  ['bare shell: a loop with expansions', ANY_SHELL, shell('for f in src/*.ts; do wc -l "$f"; done'), 'shell'],
  ['bare shell: substitution and redirection', ANY_SHELL, shell('echo "$(date)" > /tmp/stamp 2>&1'), 'shell'],
  ['bare shell: a 50 kB heredoc writing a file', ANY_SHELL, shell(`cat > docs/big.md <<EOF\n${'line of text\n'.repeat(4000)}EOF`), 'shell'],
  ['bare shell: a heredoc', ANY_SHELL, shell('cat <<EOF\nhello $USER\nEOF'), 'shell'],
  // Deny rules by meaning refuse what the rule means, and nothing that means less.
  ...unaffected([
    'rm -r build', 'rm -f notes.txt', 'rm -i -r build', 'rm -r -- -f', 'rm -dv empty',
    'git push origin main', 'git push --follow-tags origin main', 'git push -u origin topic', 'git push origin feature:main', 'git push --dry-run',
    'git reset --soft HEAD~1', 'git reset HEAD src/a.ts', 'git reset -q',
    'git clean -n -d -x', 'git clean -fd',
    'git branch -d merged', 'git branch -m old new', 'git branch --delete merged',
    'chmod 644 src/a.ts', 'chmod -v 644 src/a.ts', 'chmod -r src/a.ts', 'chmod u+x script.sh',
    'find . -name a.ts -print', 'find src -newer src/a.ts', 'find . -name "*-delete*"',
    'sed -n 1p src/a.ts', "sed -e 's/a/b/' src/a.ts", "sed -E 's/a+/b/' src/a.ts", "sed -e '/-i/d' src/a.ts",
    'cp src/a.ts b.ts', 'cp -f src/a.ts b.ts', 'cp -p src/a.ts b.ts',
    'shred -z -n 3 old.img', 'docker-compose down', 'docker-compose down --rmi local', 'docker-compose up --volumes-from x',
    "git -c alias.st='status -s' st", "git -c core.quotepath=off status",
    'prlimit --nofile=64 npm test', 'setarch x86_64 rm -r build', "sg staff -c 'rm -r build'", "su -c 'git push origin main'",
    'python3 -c "import os; print(os.getcwd())"', "grep -rn 'rm -rf' src", 'bash scripts/build.sh', "sh -c 'cat' < src/a.ts",
    "bash scripts/build.sh <<< 'yes'", 'printf rm -rf',
    'echo rm -rf /', 'grep -rf patterns.txt src', "git commit -m 'rm -rf build'", 'printf "%s" --force',
    'git submodule update --init', 'git submodule foreach git pull', "git submodule foreach 'git fetch && git status'", 'git rebase main',
    'git rebase -i --autosquash main', "git rebase --exec 'npm test' main", 'git bisect run npm test', 'git -c core.pager=cat log',
    "git -c core.pager='less -R' log", "git -c user.name='A B' -c user.email=a@b.c commit -m x", "git -c log.format='%h (%s)' log",
    '-c protocol.file.allow=always submodule update --init'.replace(/^/, 'git '), "git config user.name 'Jane Doe'", "git config alias.st 'status -s'",
    'git config --get alias.x', "git config --get-regexp alias '!'", 'git log --cc', "git fetch --upload-pack='git-upload-pack' origin",
    'setarch x86_64 make', 'setarch x86_64 -R ./run.sh < src/a.ts', 'setarch x86_64 bash scripts/build.sh', 'uname -m | grep -q x86_64',
    'cat package.json | grep script', 'ps aux | grep su', 'sudo -u root make < src/a.ts', 'ssh -o BatchMode=yes host make < src/a.ts',
    'parallel echo ::: a b', 'echo a | parallel echo', 'unshare -r make < src/a.ts', 'runuser -u nobody -- make < src/a.ts',
    "script -qc 'make' /dev/null < src/a.ts", "su -c 'make' < src/a.ts", 'chroot / make < src/a.ts',
    "node -e 'console.log(1)'", "grep -c 'foo(' src/a.ts", "stat -c '%n %s' src/a.ts", "jq -c 'map(.x)' data.json",
    "psql -c 'SELECT count(*) FROM t'", "npx -c 'npm test'", "npm exec -c 'eslint src'", "ash -c 'npm test'", 'cat notes.txt | grep -w rc',
    'npm run translate -- --lang es', "bash5.2 -c 'make'",
    // After npx's package name or npm's `--`, a -c is the program's own (prettier --check, mocha --config).
    "npx prettier -c 'src/**/*.ts'", "npm exec -- prettier -c 'src/**/*.ts'", "npx mocha -c 'test/**/*.spec.js'", "npx --yes prettier -c 'src/**/*.ts'",
    "npx -p typescript tsc -c 'x('", "npx -- eslint -c 'a b('",
    // A program that never runs its words searches for a name: shells and wrappers given no command alike.
    'ps aux | grep ash', 'cat README.md | grep -i hush', 'ls | grep posh', 'ls | grep pwsh', 'ls | grep sh1', 'ls | grep bash5',
    'ps aux | grep bash', "git log --format=%an | sort | uniq -c | grep -i ash", 'cat words.txt | /usr/bin/grep -w yash',
    "find . -name '*.ts' | xargs grep -l script", 'git ls-files | xargs grep -l su', "find src -name '*.ts' | xargs grep -n parallel",
    'git ls-files | xargs grep -l unshare', 'git ls-files | xargs -0 -n1 grep -n x86_64', 'ls | xargs -r grep -l i386', 'ls | xargs -I % grep -l pkexec %',
    "git ls-files | xargs grep -l 'foo (bar'", 'ls | xargs wc -l sh', 'ps aux | grep -v grep | grep hush',
    // xargs with a fixed program, its replace string only that program's argument; sed without e; sort without a shell to compress.
    "find . -name '*.ts' | xargs grep -l foo", 'git ls-files | xargs wc -l', "ls | xargs -I '{}' echo '{}'", 'ls | xargs -I % mv % %.bak',
    'ls | xargs -I % touch %.done', 'git ls-files | xargs -I X npx eslint X', 'xargs -n1 echo < src/a.ts', 'ls | xargs', 'ls | xargs -I X env',
    'ls | xargs timeout 5 grep foo', 'ls | xargs -n1 timeout 5 npm test', 'ls | xargs env CI=1 npm test', 'ls | xargs nice -n 5 wc -l',
    'ls | xargs sudo -u root grep foo', "xargs env <<< 'ls -l'", "ls | xargs -0 -I X sh -c 'npm test'",
    "sed -e 's/a/b/' src/a.ts", "sed -n '1,5p' src/a.ts", "sed -E 's/(a|b)+/c/g' src/a.ts", "sed '/^#/d;s/ *$//' src/a.ts",
    "echo x | sed 's/x/y/w out.txt'", "git log | sed -n '/^commit/p'", 'sort -u src/a.ts', 'sort -k2 src/a.ts',
    'sort -S 64K --compress-program=gzip src/a.ts', "git log --format=%an | sort | uniq -c",
    // hash without -p only looks names up or forgets them.
    'hash -r && npm test', 'hash git && git status',
    // Labels and branches: the join-all-lines idiom, a branch with no label, a label before a block.
    "sed -n ':a;N;$!ba;s/\\n/ /g;p' src/a.ts", "sed -e ':a' -e 'N' -e '$!ba' -e 's/\\n/,/g' src/a.ts", "sed ':top /x/{s/x/y/;b top}' src/a.ts", "sed 'b;p' src/a.ts",
    // git submodule foreach's own variables, printed.
    "git submodule foreach 'echo $name'", "git submodule foreach --quiet 'echo $displaypath'", `git submodule foreach 'echo "\${sm_path}: $sha1" && git status'`,
    "git submodule foreach 'printf %s $toplevel'", "git submodule foreach echo '$name'",
  ]),
  // Lines handed to a shell that read as plain commands; watch -x runs its words without one.
  ...unaffected([
    'watch -n 5 git status', "watch -n1 'ls | wc -l'", "flock /tmp/l -c 'npm ci'", 'ssh host uptime', "su -c 'make install'",
    "script -qc 'npm test' /dev/null", "watch -x 'echo;rm' -rf build", 'sudo -s npm ci', 'tmux ls', "tmux new -d -s dev 'npm run dev'",
    'tmux kill-session -t dev', 'at -l', 'npm run batch', 'git log --author at', 'make screen',
  ]),
  // Builtins that set plain names, settings no program runs, options that run nothing, git's own spellings.
  ...unaffected([
    'read -r line < src/a.ts', "printf -v out '%s' x", 'mapfile -t lines < src/a.ts', 'read -r -a words <<< "a b"', 'test -f src/a.ts', 'test -v HOME',
    "trap - EXIT", "trap '' INT", 'trap -p', 'env CI=1 npm test', 'env -u HOME npm test', 'env NODE_ENV=production npm run build', 'sudo -u nobody npm test',
    'make -j4 test', 'make -C src', 'tar xzf a.tgz', 'tar -czf out.tgz src', 'zip -r out.zip src', 'split -l 100 src/a.ts part-', 'ssh -o BatchMode=yes host uptime',
    'git -c help.autocorrect=0 status', 'git -c color.ui=never log', 'git send-pack --help', 'git-upload-pack --help', 'strace -f -o trace.txt true',
    'gcc -O2 -o a src/a.c', 'sqlite3 db.sqlite "select 1"', 'apt-get install -y gdb vim', 'set -euo pipefail; npm test', 'set -x; npm test',
    'env CC=clang make', "make CFLAGS='-O2 -g' all", 'git clone -c core.autocrlf=false https://example.org/r.git x', 'history', 'compgen -W "a b" a',
    'make -f build.mk all', 'ninja -C build',
  ]),
  // GNU parallel with its command in the line: inputs from a pipe, a file or the line are quoted words.
  ...unaffected([
    "find . -name '*.log' | parallel gzip", "find . -name '*.log' | parallel gzip -9 '{}'", "parallel -j4 gzip '{}' :::: list.txt",
    "parallel 'echo {} | wc -c' ::: a b", "find . -name '*.log' | parallel 'gzip -9 {}'", 'parallel --pipe wc -l < list.txt',
    'parallel echo ::: a b ::: c d', "parallel -k 'echo {1} {2}' ::: a ::: b",
  ]),
];

/** Commands that only look like what a MEANING deny rule names. */
function unaffected(commands: string[]): Legit[] {
  return commands.map((command): Legit => [`not what a deny rule means: ${command}`, MEANING, shell(command), null]);
}

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

describe(`legitimate calls (${legitimate.length})`, () => {
  it('has at least 20 cases', () => expect(legitimate.length).toBeGreaterThanOrEqual(20));

  it.each(legitimate)('%s: allowed', async (_name, policy, makeCall, rule) => {
    const decision = await decide(makeCall(fixture), fixture.context(policy.mode, policy.allow, policy.deny));
    expect(decision).toMatchObject({ decision: 'allow', rule });
    expect(decision.reason.length).toBeGreaterThan(10);
  });
});

describe("the workspace's own repository, wherever it lives", () => {
  it('a worktree (its .git a file pointing elsewhere) and a submodule (under .git/modules) are git to use', async () => {
    const main = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'policy-worktree-')));
    try {
      execFileSync('git', ['init', '-q', path.join(main, 'repo')]);
      execFileSync('git', ['-C', path.join(main, 'repo'), '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x']);
      execFileSync('git', ['-C', path.join(main, 'repo'), 'worktree', 'add', '-q', path.join(main, 'wt')]);
      // A submodule's git directory is under the main repository's; a repository made in the tree is not the workspace's.
      fs.mkdirSync(path.join(main, 'wt', 'sub'));
      fs.mkdirSync(path.join(main, 'repo', '.git', 'modules', 'sub'), { recursive: true });
      fs.writeFileSync(path.join(main, 'wt', 'sub', '.git'), `gitdir: ${path.join(main, 'repo', '.git', 'modules', 'sub')}\n`);
      execFileSync('git', ['init', '-q', '--bare', path.join(main, 'wt', 'made')]);
      const workspace = Workspace.open(path.join(main, 'wt'));
      const context = { workspace, policy: { mode: 'allowlist' as const, allow: [parseRule('shell: git *')], deny: [] }, protectedPaths: [] };
      const call = (command: string) => shell(command)({ root: workspace.root } as Fixture);
      expect((await decide(call('git status'), context)).decision).toBe('allow');
      expect((await decide(call('git log -n 1'), context)).decision).toBe('allow');
      expect((await decide(call('git -C sub status'), context)).decision).toBe('allow');
      expect(await decide(call('git -C made log'), context)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/repository at 'made', not the workspace's own/) });
    } finally {
      fs.rmSync(main, { recursive: true, force: true });
    }
  });
});
