// Workflow commands and the output file: what the runner reads must be exactly what was meant,
// whatever text the model or a repository put in a value.
import { describe, expect, it } from 'vitest';
import { formatOutput } from '../../src/action/output-file.js';
import { command, escapeData, escapeProperty, maskCommands, stopCommands } from '../../src/action/workflow-commands.js';
import { parseOutputFile } from './harness.js';

describe('workflow commands', () => {
  it.each([
    ['plain', 'plain', 'plain'],
    ['two\nlines', 'two%0Alines', 'two%0Alines'],
    ['cr\r\nlf', 'cr%0D%0Alf', 'cr%0D%0Alf'],
    ['100%', '100%25', '100%25'],
    ['a: b, c', 'a: b, c', 'a%3A b%2C c'],
    ['%0A literal', '%250A literal', '%250A literal'],
  ])('escapes %j for data and properties', (input, data, property) => {
    expect(escapeData(input)).toBe(data);
    expect(escapeProperty(input)).toBe(property);
  });

  it('keeps a message on one line, so it cannot start a command of its own', () => {
    const line = command('warning', 'denied\n::add-mask::x\n::error::forged', { title: 'policy: denied, shell' });
    expect(line).toBe('::warning title=policy%3A denied%2C shell::denied%0A::add-mask::x%0A::error::forged\n');
    expect(line.split('\n')).toHaveLength(2);
  });

  it('masks each line of a secret, trimmed and as given', () => {
    expect(maskCommands('key-123 ')).toBe('::add-mask::key-123 \n::add-mask::key-123\n');
    expect(maskCommands('line-one\nline-two\n')).toBe('::add-mask::line-one\n::add-mask::line-two\n');
  });

  it('stops commands with a fresh random token each time', () => {
    const a = stopCommands();
    const b = stopCommands();
    expect(a.stop).toMatch(/^::stop-commands::unattended-[0-9a-f]{32}\n$/);
    expect(a.resume).toBe(`::${a.stop.slice('::stop-commands::'.length, -1)}::\n`);
    expect(a.stop).not.toBe(b.stop);
  });
});

describe('output file', () => {
  it('writes name<<DELIMITER blocks that the runner reads back exactly', () => {
    const values = { summary: 'line one\nline two\n\nname=value\nother<<EOF', empty: '', 'exit-code': '0' };
    const text = Object.entries(values)
      .map(([k, v]) => formatOutput(k, v))
      .join('');
    expect(parseOutputFile(text)).toEqual(values);
    expect(text).toMatch(/^summary<<ghadelimiter_[0-9a-f]{32}\n/);
  });

  it('never uses a delimiter that occurs in the value', () => {
    const delimiters = ['ghadelimiter_a', 'ghadelimiter_a', 'ghadelimiter_b'];
    const text = formatOutput('summary', 'x\nghadelimiter_a\nset=evil', () => delimiters.shift()!);
    expect(text).toBe('summary<<ghadelimiter_b\nx\nghadelimiter_a\nset=evil\nghadelimiter_b\n');
    expect(parseOutputFile(text)).toEqual({ summary: 'x\nghadelimiter_a\nset=evil' });
  });

  it('refuses an output name the runner would misread', () => {
    expect(() => formatOutput('bad name', 'v')).toThrow(/invalid output name/);
    expect(() => formatOutput('a<<b', 'v')).toThrow(/invalid output name/);
  });
});
