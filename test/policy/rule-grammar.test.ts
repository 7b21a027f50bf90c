// The rule grammar reads a shell pattern without the bash parser (so `validate` stays quick and
// synchronous); these tests hold it to the parser: every pattern it accepts means the argv
// tree-sitter-bash reads from the same text, and what the parser refuses, it refuses too.
import { describe, expect, it } from 'vitest';
import { compileRule, makeRule } from '../../src/recipe/rules.js';
import { analyzeShellCommand } from '../../src/policy/shell-analyze.js';
import { hostAllowed, hostDenied, urlTarget } from '../../src/policy/host-rules.js';

const compile = (tool: string, pattern: string | null) => compileRule(makeRule(tool, pattern));

describe('shell patterns mean what bash reads', () => {
  it.each([
    'git diff *',
    'npm test',
    "git commit -m 'fix: typo'",
    'git commit -m "fix: typo" *',
    "grep -n 'a b'\t*",
    "echo ''",
    "echo '*' '?' '$HOME'",
    'ls -la ./src',
    "npm run 'build:prod'",
    'git log --format=%h%n',
    "a'b'\"c\"d",
    'node --max-old-space-size=4096 build.js',
    'python3 -m pytest -k "not slow" *',
    'café --flag=é',
  ])('%j', async (pattern) => {
    const compiled = compile('shell', pattern);
    expect(compiled.ok, compiled.ok ? '' : compiled.reason).toBe(true);
    if (!compiled.ok || compiled.rule.kind !== 'shell') return;
    const prefix = pattern.replace(/\s\*$/, '');
    const parsed = await analyzeShellCommand(prefix);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.commands).toHaveLength(1);
    expect(compiled.rule.matcher.words).toEqual(parsed.commands[0]!.argv);
    expect(compiled.rule.matcher.trailing).toBe(prefix !== pattern);
  });

  it.each([
    'git diff; rm -rf /',
    'npm test | sh',
    'echo $(id)',
    'echo `id`',
    'echo ${HOME}',
    'echo "$HOME"',
    'cat ~/.netrc',
    'cat *.pem',
    'cat {a,b}',
    'echo x > out',
    'FOO=1 npm test',
    'if true',
    'npm test # all',
    "echo 'open",
    '(git status)',
    'echo !x',
    'ls [ab]',
    'ls a?',
  ])('%j is refused, as the policy refuses it as a command', async (pattern) => {
    const compiled = compile('shell', pattern);
    expect(compiled.ok).toBe(false);
    const parsed = await analyzeShellCommand(pattern);
    const sameCommand = parsed.ok && parsed.commands.length === 1 && parsed.commands[0]!.text === pattern.trim();
    // Either bash would not read it as one literal command, or the grammar is stricter on purpose
    // (a keyword or an assignment first, which could never match an analysed command).
    expect(sameCommand).toBe(false);
  });

  // Backslashes and braces bash does not expand: the analysis reads them as bash does; a rule
  // spells its words plainly or quoted, which says the same with no doubt about the reading.
  it.each([
    ['g\\it status', 'git status'],
    ['echo "a\\"b"', `echo 'a"b'`],
    ['git log @{u}..HEAD', "git log '@{u}..HEAD'"],
  ])('%j is refused, though the policy reads it as a command that %j, which the grammar accepts, names', async (pattern, plain) => {
    expect(compile('shell', pattern).ok).toBe(false);
    const plainRule = compile('shell', plain);
    const parsed = await analyzeShellCommand(pattern);
    expect(parsed.ok && plainRule.ok && plainRule.rule.kind === 'shell' && parsed.commands[0]!.argv).toEqual(plainRule.ok && plainRule.rule.kind === 'shell' && plainRule.rule.matcher.words);
  });
});

describe('host patterns', () => {
  const host = (pattern: string) => {
    const compiled = compile('web_fetch', pattern);
    if (!compiled.ok || compiled.rule.kind !== 'host') throw new Error(compiled.ok ? 'not a host rule' : compiled.reason);
    return compiled.rule.matcher;
  };
  const target = (url: string) => urlTarget(url)!;

  it('a port in the rule must be the URL port, the scheme default counting', () => {
    expect(hostAllowed(target('http://localhost:8080/x'), host('localhost:8080'))).toBe(true);
    expect(hostAllowed(target('http://localhost:8081/x'), host('localhost:8080'))).toBe(false);
    expect(hostAllowed(target('https://example.org/'), host('example.org:443'))).toBe(true);
    expect(hostAllowed(target('http://example.org/'), host('example.org:443'))).toBe(false);
    expect(hostAllowed(target('http://example.org:9000/'), host('example.org'))).toBe(true);
    expect(hostDenied(target('http://api.example.org:8443/'), host('*.example.org:8443'))).toBe(true);
    expect(hostDenied(target('http://example.org:8443/'), host('*.example.org:8443'))).toBe(true);
    expect(hostAllowed(target('http://[::1]:3000/'), host('[::1]:3000'))).toBe(true);
  });

  it('names are compared case-insensitively and in their ASCII form', () => {
    expect(hostAllowed(target('https://DOCS.Python.org/'), host('docs.python.ORG.'))).toBe(true);
    expect(hostAllowed(target('https://bücher.example/'), host('bücher.example'))).toBe(true);
    expect(hostAllowed(target('https://xn--bcher-kva.example/'), host('bücher.example'))).toBe(true);
  });

  it.each(['example.org/path', 'user@example.org', 'exa*mple.org', '*example.org', 'example.org:0', 'http://example.org', ''])('%j is refused', (pattern) => {
    expect(compile('web_fetch', pattern).ok).toBe(false);
  });
});

describe('every rule compiles once, with its source and position', () => {
  it('keeps the position the recipe gave', () => {
    const compiled = compileRule(makeRule('edit', 'src/**', { file: 'r.yaml', line: 9, col: 7 }));
    expect(compiled).toMatchObject({ ok: true, rule: { tool: 'edit', kind: 'path', source: 'edit: src/**', position: { file: 'r.yaml', line: 9, col: 7 } } });
  });

  it('bare names and server wildcards match every call; patterns on them are refused', () => {
    expect(compile('github__*', null)).toMatchObject({ ok: true, rule: { kind: 'any' } });
    expect(compile('github__*', 'x')).toMatchObject({ ok: false });
    expect(compile('git*', null)).toMatchObject({ ok: false });
    expect(compile('task', 'x')).toMatchObject({ ok: false });
  });
});
