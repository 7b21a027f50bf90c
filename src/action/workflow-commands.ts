// GitHub Actions workflow commands (`::name key=value::data` lines on stdout). Every value written
// here may carry text the model or a repository chose, so it is escaped: a newline in a message
// must never start a line the runner would read as a command of its own.
import { randomBytes } from 'node:crypto';

/** Escaping for the data part, as @actions/core does. */
export function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escaping for property values, which also end at ',' and '::'. */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function command(name: string, data: string, properties: Record<string, string> = {}): string {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}=${escapeProperty(v)}`)
    .join(',');
  return `::${name}${props ? ` ${props}` : ''}::${escapeData(data)}\n`;
}

/**
 * Mask lines for a secret: one per non-empty line, since the runner matches masks line by line.
 * Each line is masked as given and trimmed (a key pasted with a trailing space is still a key).
 */
export function maskCommands(secret: string): string {
  const values = new Set<string>();
  for (const line of secret.split(/\r?\n/)) {
    if (line) values.add(line);
    if (line.trim()) values.add(line.trim());
  }
  return [...values].map((v) => command('add-mask', v)).join('');
}

/**
 * Suspends command processing until `resume` is printed: what the run prints (the model's answer,
 * tool descriptions) cannot issue commands such as `::add-mask::`, `::error::` or `::stop-commands::`.
 * The token is random, so the run cannot guess it to resume processing early.
 */
export function stopCommands(): { stop: string; resume: string } {
  const token = `unattended-${randomBytes(16).toString('hex')}`;
  return { stop: `::stop-commands::${token}\n`, resume: `::${token}::\n` };
}
