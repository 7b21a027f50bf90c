// Text from a model or a tool is inert on a terminal; colour only where asked for or seen.
import { WriteStream } from 'node:tty';
import { describe, expect, it } from 'vitest';
import { colorEnabled, painter, terminalSafe, type ColorStream } from '../../src/util/terminal.js';

const ESC = '\x1b';

describe('terminalSafe', () => {
  it.each([
    ['clear screen and home (CSI)', `${ESC}[2J${ESC}[Hhello`, 'hello'],
    ['colour (SGR) around words', `${ESC}[31;1mred${ESC}[0m text`, 'red text'],
    ['window title (OSC ended by BEL)', `${ESC}]0;pwned${ESC}\\${ESC}]2;x\x07title`, 'title'],
    ['a hyperlink (OSC 8 ended by ST)', `see ${ESC}]8;;https://evil.example${ESC}\\docs${ESC}]8;;${ESC}\\ now`, 'see docs now'],
    ['device control string (DCS)', `a${ESC}Pq#0;2;0;0;0${ESC}\\b`, 'ab'],
    ['8-bit CSI and OSC (C1)', 'a\x9b2Jb\x9d0;t\x07c', 'abc'],
    ['cursor up and erase line: rewriting a denial', `✗ shell: rm -rf / — denied${ESC}[1A${ESC}[2K✓ all fine`, '✗ shell: rm -rf / — denied✓ all fine'],
    ['carriage return, backspace, bell, DEL, NUL', 'denied\rallowed\b\x07\x7f\x00!', 'deniedallowed!'],
    ['single-character ESC sequences (reset, charset)', `${ESC}c${ESC}(0x${ESC}7y`, 'xy'],
    ['an unterminated OSC stops at the line end', `${ESC}]0;title\nnext line`, '\nnext line'],
    ['bidi overrides and isolates that reorder the line', 'call \u202edeineD\u202c ok \u2067x\u2069 \u202ay\u202c', 'call deineD ok x y'],
  ])('strips %s', (_what, input, expected) => {
    expect(terminalSafe(input)).toBe(expected);
  });

  it('keeps line feeds, tabs and every printable character, non-Latin scripts and emoji included', () => {
    const text = 'a\tb\nc — café, 日本語, Ελληνικά, שלום, مرحبا, 🚀 👩‍💻 [x] ~ ` \\ {}';
    expect(terminalSafe(text)).toBe(text);
  });

  it('leaves nothing a terminal would act on in hostile input', () => {
    const hostile = Array.from({ length: 2000 }, (_, i) => String.fromCharCode(i % 256)).join('') + `${ESC}[${'9;'.repeat(5000)}`;
    expect(terminalSafe(hostile)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });
});

describe('colorEnabled', () => {
  const tty = { isTTY: true, hasColors: () => true };
  const pipe = { isTTY: false };
  it.each<[string, ColorStream, Record<string, string>, boolean]>([
    ['a terminal', tty, {}, true],
    ['a pipe', pipe, {}, false],
    ['NO_COLOR on a terminal', tty, { NO_COLOR: '1' }, false],
    ['an empty NO_COLOR (means unset)', tty, { NO_COLOR: '' }, true],
    ['TERM=dumb', tty, { TERM: 'dumb' }, false],
    ['FORCE_COLOR on a pipe', pipe, { FORCE_COLOR: '1' }, true],
    ['FORCE_COLOR over NO_COLOR', pipe, { FORCE_COLOR: '', NO_COLOR: '1' }, true],
    ['FORCE_COLOR=0 on a terminal', tty, { FORCE_COLOR: '0' }, false],
    ['FORCE_COLOR=false on a terminal', tty, { FORCE_COLOR: 'false' }, false],
    ['a terminal that has no colours', { isTTY: true, hasColors: () => false }, {}, false],
  ])('%s', (_what, stream, env, expected) => {
    expect(colorEnabled(stream, env)).toBe(expected);
  });

  it("an empty NO_COLOR means unset with node's own check of the terminal too (which takes any NO_COLOR for set)", () => {
    const terminal: ColorStream = { isTTY: true, hasColors: (env?: object) => WriteStream.prototype.hasColors.call({}, env as never) };
    expect(colorEnabled(terminal, { TERM: 'xterm-256color', NO_COLOR: '' })).toBe(true);
    expect(colorEnabled(terminal, { TERM: 'xterm-256color', NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(terminal, { TERM: 'xterm-256color' })).toBe(true);
  });

  it('colours through styleText when on, and not at all when off', () => {
    expect(painter(true)('ok', '✓')).toBe(`${ESC}[32m✓${ESC}[39m`);
    expect(painter(false)('ok', '✓')).toBe('✓');
  });
});
