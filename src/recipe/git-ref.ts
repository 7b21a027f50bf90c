// The branch-name rules of `git check-ref-format`, so a bad git.branch fails before the run
// rather than after an hour of work.

/** Why `name` is not a usable branch name, or null; `shown` is how to quote it to the user. */
export function checkGitRef(name: string, shown = name): string | null {
  const bad = (why: string) => `'${shown}' is not a valid branch name: ${why}`;
  // eslint-disable-next-line no-control-regex
  const special = /[\x00-\x20\x7f~^:?*[\\]/.exec(name);
  if (special) return bad(`it contains ${JSON.stringify(special[0])}`);
  if (name.startsWith('-')) return bad('it starts with -');
  if (name === '@' || name.includes('@{')) return bad('it contains @{ or is @');
  if (name.includes('..')) return bad('it contains ..');
  if (name.endsWith('.')) return bad('it ends with .');
  const parts = name.split('/');
  if (parts.some((p) => p === '')) return bad('it has an empty path component (leading, trailing or double /)');
  if (parts.some((p) => p.startsWith('.') || p.endsWith('.lock'))) return bad('a component starts with . or ends with .lock');
  return null;
}

const SLUG_MAX = 60;

/**
 * The hand-off's branch when the recipe names none: `unattended/` and a slug of the recipe's name,
 * else of its file name. The same recipe gets the same branch on every run, which is what lets a
 * re-run replace its own branch and update its pull request rather than open another.
 */
export function defaultHandoffBranch(recipeName: string | undefined, fileStem: string): string {
  return `unattended/${slug(recipeName ?? '') || slug(fileStem) || 'recipe'}`;
}

/** Lower-case letters, digits, `_` and single `-`: always a valid ref component (no `.`, no `..`, no `.lock`). */
function slug(text: string): string {
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // the accents NFKD split off: é -> e
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return plain.slice(0, SLUG_MAX).replace(/-+$/, '');
}
