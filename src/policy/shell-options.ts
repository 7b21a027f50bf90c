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

/**
 * What an option word may carry as its value: `assigned`, after the `=` of `--opt=value`,
 * `-o=value` or `name=value` (dd's `of=`); `clustered`, after any letter of a short-option cluster
 * (`-vt/dir`, `-S'…'`), since which letter takes a value only the program knows. The callers keep
 * what matters to them: a path (shell-paths.ts), a script (shell-rules.ts).
 */
export function optionValues(word: string): { assigned: string | null; clustered: string[] } {
  const assigned = /^(?:--?)?[A-Za-z0-9][\w-]*=(.*)$/s.exec(word)?.[1] ?? null;
  const clustered: string[] = [];
  const cluster = /^-[A-Za-z0-9]+/.exec(word);
  if (cluster) for (let i = 2; i <= cluster[0].length && i < word.length; i++) clustered.push(word.slice(i));
  return { assigned, clustered };
}

/**
 * The word, plus what it may hold as a path (optionValues): a value that starts
 * with `/`, `.` or `~`, or holds a `/` (`-vt/dir` holds `/dir`, `-olink/x` holds `link/x`).
 */
export function pathCandidates(arg: string): string[] {
  const { assigned, clustered } = optionValues(arg);
  const found = [arg, ...(assigned === null ? [] : [assigned]), ...clustered.filter(mayBePath)];
  // `@f` is the file f to gh api (`-F body=@f`), httpie, curl and response files: `-Fbody=@/etc/passwd`
  // reads /etc/passwd. Kept whatever it looks like: the caller resolves a name that exists (a link).
  // Likewise a `file:` (or npm's `link:`) URL or spec, as npm, pip, git and openssl's `-pass file:f`
  // read it, and the value of a setting inside a value (kubectl's `--from-file=key=/etc/passwd`).
  for (const value of [...found]) {
    const file =
      /^(?:[^=@]*=)?@(.+)$/s.exec(value)?.[1] ??
      /^(?:[^=]*=)?(?:[\w.-]+\+)?(?:file|link):(?:\/\/(?:localhost)?(?=\/))?(.+)$/is.exec(value)?.[1] ??
      (value === assigned ? /^[A-Za-z0-9][\w.-]*=(.+)$/s.exec(value)?.[1] : undefined);
    if (file !== undefined && !found.includes(file)) found.push(file);
  }
  for (const value of [...found]) for (const file of bindMountHosts(value)) if (!found.includes(file)) found.push(file);
  return found;
}

/**
 * The host paths a container engine's bind mount may hold in `value`: docker and podman's
 * `-v HOST:CTR[:opts]` (`..:/h` reads as one name in the workspace) and `--mount
 * type=bind,source=HOST,…`, a comma list whose keys they read in any case and may quote.
 */
export function bindMountHosts(value: string): string[] {
  const host = /^([^:]+):/s.exec(value)?.[1];
  const sources = value.split(',').flatMap((field) => /^"?(?:source|src)=(.+?)"?$/is.exec(field)?.[1] ?? []);
  return [...(host !== undefined && mayBePath(host) ? [host] : []), ...sources];
}

function mayBePath(value: string): boolean {
  return /^[/~.]/.test(value) || value.includes('/');
}
