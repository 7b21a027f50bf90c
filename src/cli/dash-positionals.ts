// A command's file or directory argument that starts with a dash (`unattended convert -x`,
// `report -x`): yargs reads the word as a flag, then says only "Missing required argument: recipe",
// never why the word typed there did not count. The hint names the word and how to give it: as
// `./-x`, which no parser takes for a flag (these commands leave the words after `--` unread, so `-- -x` is no way).

/** What to say beside yargs' "missing argument" message for a dash word typed as the argument; null when there is none. */
export function dashPositionalHint(message: string, argv: readonly string[], knownFlags: readonly string[]): string | null {
  if (!/^(Missing required argument|Not enough non-option arguments)/.test(message)) return null;
  const known = new Set(knownFlags);
  const isKnown = (word: string): boolean => {
    const long = /^--([^=]+)/.exec(word)?.[1];
    if (long !== undefined) return known.has(long) || known.has(long.replace(/^no-/, ''));
    return [...word.slice(1)].every((letter) => known.has(letter));
  };
  let afterDashes = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      afterDashes = true;
      continue;
    }
    if (!word.startsWith('-') || word === '-') continue;
    if (!afterDashes && isKnown(word)) continue;
    const where = afterDashes ? ', after -- as well (this command leaves the words after -- unread)' : '';
    return `${word}: a word that starts with a dash is read as a flag${where}; if ${word} is the file or directory, write ./${word}`;
  }
  return null;
}
