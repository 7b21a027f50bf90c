// $GITHUB_OUTPUT: `name<<DELIMITER`, the value, `DELIMITER`. A fixed delimiter could appear in a
// value (the model writes the final answer) and end it early, letting the rest set other
// outputs; so each value gets a fresh random delimiter, checked against the value.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

export function formatOutput(name: string, value: string, randomDelimiter: () => string = defaultDelimiter): string {
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) throw new Error(`invalid output name "${name}"`);
  let delimiter = randomDelimiter();
  for (let tries = 0; value.includes(delimiter); tries++) {
    if (tries === 10) throw new Error(`output ${name}: could not find a delimiter absent from its value`);
    delimiter = randomDelimiter();
  }
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

function defaultDelimiter(): string {
  return `ghadelimiter_${randomBytes(16).toString('hex')}`;
}

/** Appends every output in one write, so a reader never sees half of them. */
export function writeOutputs(file: string, outputs: Record<string, string>): void {
  const text = Object.entries(outputs)
    .map(([name, value]) => formatOutput(name, value))
    .join('');
  fs.appendFileSync(file, text);
}
