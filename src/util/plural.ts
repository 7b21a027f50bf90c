/** `1 turn`, `2 turns`: a count as a person reads it. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
