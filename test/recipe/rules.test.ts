import { describe, expect, it } from 'vitest';
import { ruleProblem as patternProblem, ruleKind, splitCliRule } from '../../src/recipe/rules.js';

describe('rule patterns a recipe may use', () => {
  it.each([
    ['shell', 'git diff *'],
    ['shell', 'npm test'],
    ['shell', 'git  log  *'],
    ['edit', 'src/**'],
    ['write_file', 'docs/*.md'],
    ['read_file', '{a,b}/*.ts'],
    ['web_fetch', 'docs.python.org'],
    ['web_fetch', '*.python.org'],
    ['web_fetch', 'localhost:8080'],
    ['web_fetch', '[::1]:3000'],
    ['web_fetch', 'example.org\u3002'],
    ['shell', "git commit -m 'x'"],
    ['shell', 'git commit -m "fix: typo" *'],
    ['read_file', 'secret/'],
    ['edit', 'src/*/'],
    ['edit', '.'],
    ['edit', './'],
    ['shell', "'/opt/My Tools/bin/deploy' *"],
    ['shell', "git 'push' *"],
    ['shell', "git commit -m 'WIP: more work'"],
  ])('%s: %j is accepted', (tool, pattern) => {
    expect(patternProblem(tool, pattern)).toBeNull();
  });

  it.each([
    ['shell', 'git * diff', "'*' may only be the last word"],
    ['shell', 'git diff*', "'*' may only be the last word"],
    ['shell', '*', 'write the bare `- shell`'],
    ['shell', 'npm test && rm -rf /', "contains '&'"],
    ['shell', 'echo $HOME', "contains '$'"],
    ['shell', 'cat a > b', "contains a redirection '>'"],
    ['shell', '   ', 'empty pattern'],
    ['edit', '/etc/passwd', 'relative to the workspace'],
    ['edit', '~/.ssh/*', 'relative to the workspace'],
    ['read_file', 'src/../../secrets', 'leaves the workspace'],
    ['web_fetch', 'https://docs.python.org/3/', 'is a URL'],
    ['web_fetch', 'docs.python.org/3', 'is not a host'],
    // An address has no subdomains: the allow rule would approve no fetch.
    ['web_fetch', '*.127.0.0.1', '127.0.0.1 is an IP address, which has no subdomains: write "127.0.0.1"'],
    ['web_fetch', '*.0x7f.1:8080', '127.0.0.1 is an IP address, which has no subdomains'],
    ['edit', '!secret/**', 'negated'],
    ['edit', 'src/./a.ts', "a '.' or empty segment"],
    ['edit', 'src//a.ts', "a '.' or empty segment"],
    ['todo_write', 'x', 'takes no pattern'],
    ['github__add_labels', 'x', 'takes no pattern'],
    // Rules no command can match: as deny rules they would refuse nothing.
    ['shell', "'git push *'", "the program 'git push *' holds a space inside quotes"],
    ['shell', '"git push" origin', "the program 'git push' holds a space inside quotes"],
    ['shell', "'rm\t-rf' *", 'holds a space inside quotes'],
    ['shell', 'git "push *"', "the '*' at the end of the quoted word 'push *' is a literal star"],
    ['shell', "git push 'origin *'", 'is a literal star inside quotes'],
    ['shell', "git 'a\0b'", 'NUL'],
    ['read_file', "'secret/**'", 'is wrapped in quotes'],
    // Pasted from a web page: a no-break or zero-width space, named so it can be found.
    ['shell', 'npm\u00a0test', 'contains U+00A0, an invisible or space-like character that bash does not read as a space'],
    ['shell', 'npm test\u200b', 'contains U+200B'],
    ['edit', '"src/a.ts"', 'is wrapped in quotes'],
  ])('%s: %j is refused (%s)', (tool, pattern, fragment) => {
    expect(patternProblem(tool, pattern)).toContain(fragment);
  });

  it('says how each tool is matched', () => {
    expect(['shell', 'edit', 'ls', 'web_fetch', 'task', 'gh__x'].map(ruleKind)).toEqual(['shell', 'path', 'path', 'host', 'name', 'name']);
  });

  it('splits CLI rules on the first colon', () => {
    expect(splitCliRule('shell:git diff *')).toEqual({ tool: 'shell', pattern: 'git diff *' });
    expect(splitCliRule('web_fetch:localhost:8080')).toEqual({ tool: 'web_fetch', pattern: 'localhost:8080' });
    expect(splitCliRule('read_file')).toEqual({ tool: 'read_file', pattern: null });
  });
});
