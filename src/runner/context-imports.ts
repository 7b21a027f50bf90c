// `@path` imports in context files, as Claude Code reads them in CLAUDE.md and Gemini CLI (and Qwen
// Code) in GEMINI.md: a word `@docs/style.md` on its own brings that file in, relative to the file
// that names it. Words inside code (a fenced block, a `code span`) are examples, not imports; an
// address (me@example.com) is not one either, since the `@` must start the word.

/** How deep imports are followed: an import of an import ... five hops from the file the run found (Claude Code's limit). */
export const MAX_IMPORT_DEPTH = 5;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)[\s\S]*?\1/g;
/** `@` at the start of a word, then the path up to a blank or a bracket that closes around it. */
const IMPORT = /(?:^|[\s(\[])@([^\s()[\]<>"'`]+)/g;
/** What ends a sentence after the path, not part of it: "see @docs/a.md." */
const TRAILING = /[.,;:!?]+$/;

/** The paths a context file's text imports, in the order they are written, each once. */
export function importedPaths(text: string): string[] {
  const found = new Set<string>();
  let fence: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const open = FENCE.exec(line);
    if (fence !== null) {
      // A fence ends at a line of the same character, at least as long.
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && line.trim() === open[1]) fence = null;
      continue;
    }
    if (open) {
      fence = open[1]!;
      continue;
    }
    for (const m of line.replace(CODE_SPAN, ' ').matchAll(IMPORT)) {
      const path = m[1]!.replace(TRAILING, '');
      if (path) found.add(path);
    }
  }
  return [...found];
}

/**
 * Whether a missing import is worth a warning: a Markdown file was meant (`@docs/style.md`), where
 * `@octocat` or `@types/node` in prose names a person or a package, not a file.
 */
export function looksLikeFileImport(path: string): boolean {
  return /\.(md|mdx|markdown|txt)$/i.test(path);
}
