// Long options as command-line parsers read them.

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The long option in `options` that `name` stands for. GNU getopt, git and npm accept any
 * unambiguous prefix (`--in-pl` is `--in-place`), so a prefix of three or more characters counts;
 * `exact` lists real options that merely look like such a prefix (git's `--text`).
 */
export function longOption(name: string, options: Iterable<string>, exact: ReadonlySet<string> = NO_NAMES): string | null {
  if (!name.startsWith('--') || name.length < 3 || exact.has(name)) return null;
  for (const option of options) if (option.startsWith(name)) return option;
  return null;
}

/**
 * `table[key]` for the table's own entries only. Keys are words the model wrote: `toString` or
 * `constructor` must not reach Object.prototype.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
