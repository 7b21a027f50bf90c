/** `1 turn`, `2 turns`, `2 matches`: a count as a person reads it. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
