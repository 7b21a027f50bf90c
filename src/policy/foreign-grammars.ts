// Strings a program splits into words by a grammar of its own, not the shell's. The deny rules
// read them as bash reads a line (shell-analyze.ts), which agrees with these grammars on blanks and
// quotes but not on backslashes: `env -S` reads `\_` as a blank and `\t` as a tab (`env -S
// 'rm\_-rf\_d'` runs `rm -rf d`), git splits an alias that does not start with `!` dropping a
// backslash before any character, also inside double quotes (`push "--forc\e"` is `push
// --force`), xargs keeps one inside quotes, and a program nobody has listed may do anything. So a
// backslash in such a string leaves its commands unknown, and the command is refused.

/** Why `text`, split into words by `reader`, cannot be read as bash would, or null. */
export function foreignBackslash(text: string, reader: string): string | null {
  if (!text.includes('\\')) return null;
  return `${reader} splits '${text}' into words by a grammar of its own, where a backslash does not mean what it means to bash, so the command it makes cannot be checked; write the string without backslashes (quote what needs it)`;
}
