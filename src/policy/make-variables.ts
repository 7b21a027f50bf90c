// make's command-line variable definitions, which run commands as make reads them: `x!=CMD` runs
// CMD with the shell at once, any `$(shell CMD)` in a definition (its value, or its name:
// `x$(shell CMD):=1`) is expanded, whatever the operator (`:=`, `::=`, `+=`, `?=`, `=`), and a value
// is pasted into the recipe lines the shell runs (`CC='curl … | sh'`, `SHELL='sh -c CMD'`).
// GNU make takes any word holding an assignment operator as a definition, with blanks around it
// and a name of almost any characters (`my-var`, `.SHELLFLAGS`): the deny rules check what such a
// word runs (shell-hidden-runners.ts), the allowlist refuses it (shell-guards.ts).
import type { GuardFinding } from './shell-guards.js';

export interface MakeDefinition {
  name: string;
  operator: string;
  value: string;
}

/** `word` as make reads a command-line variable definition, or null when it is a target or an option. */
export function makeDefinition(word: string): MakeDefinition | null {
  if (word.startsWith('-')) return null;
  const match = /^(.*?)\s*(:::=|::=|:=|!=|\?=|\+=|=)[ \t]*(.*)$/s.exec(word);
  if (!match || match[1]!.trim() === '') return null;
  return { name: match[1]!.trim(), operator: match[2]!, value: match[3]! };
}

/** Characters with which a value read into a recipe line is more than words to the shell. */
const SHELL_CHARACTERS = /[;&|<>`\n]|\$\(|\$\{/;

/** The variables that pick the program every recipe line runs with, and its options. */
const RECIPE_SHELL = new Set(['SHELL', '.SHELLFLAGS', 'MAKESHELL']);

/** For the deny rules: what a definition runs, as scripts to check (its whole text where a name expands). */
export function makeDefinitionScripts(argv: readonly string[]): string[] {
  return argv.slice(1).flatMap((word) => {
    const definition = makeDefinition(word);
    if (definition === null) return [];
    // A `$` or backquote in the name: make expands it, and no script of ours reads as it does.
    if (/[$`]/.test(definition.name)) return [word];
    if (definition.operator === '!=') return [definition.value];
    return /[\s;&|<>()$`]/.test(definition.value) ? [definition.value] : [];
  });
}

/**
 * For the deny rules: the command make runs each recipe line with when the line sets SHELL
 * (`make SHELL=rm .SHELLFLAGS=-rf` runs `rm -rf LINE` for every line of the makefile), or null.
 * Without .SHELLFLAGS on the line, its flags are the makefile's or the environment's, which the
 * line does not show: any words may follow.
 */
export function makeRecipeShell(argv: readonly string[]): { argv: string[]; openEnded: boolean } | null {
  if (!/^g?make$/.test((argv[0] ?? '').split('/').pop()!)) return null;
  let shell: string | null = null;
  let flags: string | null = null;
  for (const word of argv.slice(1)) {
    const definition = makeDefinition(word);
    if (definition?.name === 'SHELL') shell = definition.value;
    if (definition?.name === '.SHELLFLAGS') flags = definition.value;
  }
  if (shell === null) return null;
  const words = `${shell} ${flags ?? ''}`.split(/\s+/).filter((word) => word !== '');
  return words.length === 0 ? null : { argv: words, openEnded: flags === null };
}

/** For the allowlist: definitions that run a command no word of the line names as a program. */
export function makeDefinitionFindings(argv: readonly string[]): GuardFinding[] {
  const findings: GuardFinding[] = [];
  argv.forEach((word, index) => {
    if (index === 0) return;
    const definition = makeDefinition(word);
    if (definition === null) return;
    const guard = `${argv[0]} VAR${definition.operator}`;
    if (definition.operator === '!=') {
      findings.push({ index, guard, kind: 'scripts', message: `${argv[0]} runs the value of '${definition.name} !=' with the shell as it starts` });
    } else if (word.includes('$')) {
      findings.push({ index, guard, kind: 'scripts', message: `${argv[0]} expands the '$' in '${word}', and $(shell …) there runs a command` });
    } else if (SHELL_CHARACTERS.test(definition.value)) {
      findings.push({ index, guard, kind: 'scripts', message: `${argv[0]} pastes the value of ${definition.name} into the recipe lines the shell runs, where its shell characters run commands` });
    } else if (RECIPE_SHELL.has(definition.name) && /[\s'"\\]/.test(definition.value)) {
      findings.push({ index, guard, kind: 'scripts', message: `${argv[0]}'s ${definition.name} says what runs every recipe line, and '${definition.value}' is more than a program's name` });
    }
  });
  return findings;
}
