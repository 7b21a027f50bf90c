// The variables git submodule foreach sets for its command (git-submodule(1)): $name, $sm_path,
// $displaypath, $sha1, $toplevel. `git submodule foreach 'echo $name'` prints them; a command
// line that expands variables cannot otherwise be checked. Their values come from .gitmodules and
// the index, which the model writes: `$name` may be 'rm -rf d' or '-rf', so a value may only be
// printed, never be a program, an option or argument of another program (`rm $name d`), a file
// name of a redirection, or text a shell reads (`sh <<EOF`).
import type { ShellAnalysis } from './shell-analyze.js';

const VARIABLE = /\$(?:\{(name|sm_path|displaypath|sha1|toplevel)\}|(name|sm_path|displaypath|sha1|toplevel)(?![A-Za-z0-9_]))/g;

/** Literal words standing for the values (`__git_submodule_name__`); written in a script itself, one is taken for a value too. */
const VALUE = '__git_submodule_';
const VALUES = /__git_submodule_(name|sm_path|displaypath|sha1|toplevel)__/g;

/** The script with each of these variables replaced by a literal word, and whether there was one. */
export function withSubmoduleValues(script: string): { text: string; replaced: boolean } {
  const text = script.replace(VARIABLE, (_match, braced: string | undefined, bare: string | undefined) => `${VALUE}${braced ?? bare}__`);
  return { text, replaced: text !== script };
}

/** Text with the variables written back, for reasons. */
function restored(text: string): string {
  return text.replace(VALUES, '$$$1');
}

/** Where a value stands in the analysed script other than as words echo or printf prints, or null. */
export function misplacedSubmoduleValue(analysis: Extract<ShellAnalysis, { ok: true }>): string | null {
  for (const command of analysis.commands) {
    const [program, first] = command.argv;
    if (!command.argv.some((word) => word.includes(VALUE))) continue;
    // printf's first word is its format (`printf -v NAME` assigns); echo prints every word.
    const prints = program === 'echo' || (program === 'printf' && first !== undefined && !first.includes(VALUE) && !first.startsWith('-'));
    if (!prints) return restored(command.text);
  }
  for (const redirect of analysis.redirects) {
    if (redirect.text.includes(VALUE) || (redirect.kind === 'input' && redirect.body.includes(VALUE))) return restored(redirect.text);
  }
  return null;
}
