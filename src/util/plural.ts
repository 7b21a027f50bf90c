/** `1 turn`, `2 turns`, `2 matches`: a count as a person reads it. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * `36,000`: an integer with its thousands grouped, as `toLocaleString('en-US')` writes it without
 * waking Intl, whose locale data costs a run ~30 ms of start-up when used at import time.
 */
export function grouped(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  return (n < 0 ? '-' : '') + digits.replace(/\B(?=(\d{3})+$)/g, ',');
}
