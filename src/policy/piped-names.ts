// The names xargs (and parallel) read as the line runs, as far as the policy can know them before.
// `echo /etc/passwd | xargs cat` opens /etc/passwd though no word of cat names it, and
// `cat list.txt | xargs rm` removes what a file of the repository lists: the path checks see
// neither. So under allowlist a program that opens the names it reads is allowed only when they
// are known:
// - `words`: exactly the text of literal words (`echo`, `printf` with a plain format, a here-string
//   or quoted heredoc), checked as paths like any argument;
// - `tree`: names a lister printed of entries below paths the line already checked (`find src`,
//   `git ls-files`, `grep -l`, `rg --files`, `fd`), in whatever order or subset a selector
//   (`sort`, `head`, `grep -v`) keeps. Such a name may be a link the repository ships; the
//   sandbox hides the credentials a link could lead to (README, "Shell commands under allowlist");
// - `unknown`, with what they are: a file's text, a program's output that may say anything
//   (`sed`, `awk`, `jq`, a script), a lister told to print more than names (`find -printf`,
//   `ls -l`'s link targets). Refused.
import path from 'node:path';
import { readXargs } from './xargs-input.js';
import { ownEntry } from './shell-options.js';

/**
 * `tree`: names of entries below `roots` (words of the command, from where it runs; the
 * repository's top too for git), `depth` levels down, NUL-separated when `nul`.
 */
export type PipedNames =
  | { kind: 'words'; text: string }
  | { kind: 'tree'; roots: string[]; repository: boolean; depth: number; nul: boolean }
  | { kind: 'unknown'; what: string };

const base = (word: string | undefined) => path.posix.basename(word ?? '');

/** Programs that print names of entries below their operands, and the options that make them print anything else. */
const LISTERS: Record<string, RegExp> = {
  find: /^-(f?printf|fprint0?|f?ls|exec(dir)?|ok(dir)?)$/,
  ls: /^-[A-Za-z1]*[lngo]|^--(format|dereference|full-time)/,
  fd: /^-[A-Za-z]*[lxX]|^--(list-details|exec|exec-batch|format)/,
  fdfind: /^-[A-Za-z]*[lxX]|^--(list-details|exec|exec-batch|format)/,
};

/** Lines a selector keeps are lines it was given (`grep -o` prints parts of them, so it is not one). */
const SELECTORS: Record<string, RegExp> = {
  sort: /^-[A-Za-z]*o|^--(output|files0-from)/,
  uniq: /^$/,
  head: /^$/,
  tail: /^$/,
  tac: /^$/,
  grep: /^-[A-Za-z]*[ofe]|^--(only-matching|file|regexp|files-with|files-without|count|byte-offset|label)/,
};

/**
 * What `argv` prints as names, given what its stdin holds (`input`: the command before it in a
 * pipeline, a file, a literal text, or null for none: the runner's shells get no stdin).
 */
export function namesPrinted(argv: readonly string[], input: PipedNames | null): PipedNames {
  const program = base(argv[0]);
  const args = argv.slice(1);
  const shown = argv.join(' ');
  if (program === 'echo') {
    let i = 0;
    let escapes = false;
    for (; i < args.length && /^-[neE]+$/.test(args[i]!); i++) escapes ||= args[i]!.includes('e');
    const text = args.slice(i).join(' ');
    return escapes && text.includes('\\') ? { kind: 'unknown', what: `the output of '${shown}'` } : { kind: 'words', text };
  }
  if (program === 'printf') {
    const text = args[0] === '--' ? printfText(args.slice(1)) : printfText(args);
    return text === null ? { kind: 'unknown', what: `the output of '${shown}'` } : { kind: 'words', text };
  }
  const lister = ownEntry(LISTERS, program);
  const tree = (nul: RegExp, depth = Infinity): Extract<PipedNames, { kind: 'tree' }> => ({ kind: 'tree', roots: ['.', ...operandsOf(args)], repository: false, depth, nul: args.some((w) => nul.test(w)) });
  if (lister && !args.some((word) => lister.test(word))) {
    if (program === 'find') return { ...tree(/^-print0$/), roots: startPoints(args) };
    if (program === 'ls') return { ...tree(/^$/, args.some((w) => /^-[A-Za-z1]*R|^--recursive/.test(w)) ? Infinity : 1), roots: operandsOf(args).length ? operandsOf(args) : ['.'] };
    return tree(/^-[A-Za-z]*0|^--print0/);
  }
  if (program === 'git' && gitLists(args)) return { kind: 'tree', roots: [], repository: true, depth: Infinity, nul: args.includes('-z') };
  if ((program === 'grep' || program === 'rg') && args.some((w) => /^(-[A-Za-z]*[lL]|--files(-with(out)?-match(es)?)?)$/.test(w)) && !args.some((w) => /^-[A-Za-z]*o|^--(only-matching|null-data|replace)/.test(w))) {
    return tree(program === 'grep' ? /^-[A-Za-z]*Z|^--null$/ : /^-[A-Za-z]*0|^--null$/);
  }
  // `… | xargs grep -l x` prints the names it was given that hold x.
  if (program === 'xargs') {
    const inner = readXargs(argv, 0);
    const run = inner.program === null ? null : argv.slice(inner.program);
    const printed = run && ['grep', 'rg'].includes(base(run[0])) ? namesPrinted(run, null) : null;
    if (inner.replace === null && inner.argFile === null && printed?.kind === 'tree') return passedOn(input, printed.nul);
  }
  const selector = ownEntry(SELECTORS, program);
  if (selector && !args.some((word) => selector.test(word)) && selects(program, args)) {
    return passedOn(input, args.some((w) => /^-[A-Za-z]*z|^--(zero-terminated|null-data)/.test(w)));
  }
  return { kind: 'unknown', what: `the output of '${shown}'` };
}

/** What a selector or `xargs grep -l` prints of the names it reads: NUL-separated still only when it writes them so. */
function passedOn(input: PipedNames | null, nul: boolean): PipedNames {
  if (input === null) return { kind: 'words', text: '' };
  return input.kind === 'tree' ? { ...input, nul: input.nul && nul } : input;
}

/** Words of a lister that may name a tree it lists (checked as paths elsewhere; one that is no directory is skipped). */
function operandsOf(args: readonly string[]): string[] {
  return args.filter((word) => !word.startsWith('-'));
}

/** find's starting points: the words before its expression ('.' when none). */
function startPoints(args: readonly string[]): string[] {
  let i = 0;
  for (; i < args.length && /^-([HLP]|O\d*|D)$/.test(args[i]!); i++) if (args[i] === '-D') i++;
  const points: string[] = [];
  for (; i < args.length && !/^[-(!),]/.test(args[i]!); i++) points.push(args[i]!);
  return points.length > 0 ? points : ['.'];
}

/** `git ls-files` and `git diff --name-only`: names of the repository's entries and nothing else. */
function gitLists(args: readonly string[]): boolean {
  if (args[0] === 'ls-files') return !args.some((w) => /^-[A-Za-z]*[stuv]|^--(stage|format|debug|eol)/.test(w));
  if (args[0] === 'diff') return args.includes('--name-only') && !args.some((w) => /^--(output|ext-diff|textconv)/.test(w));
  return false;
}

/** Whether a selector reads only its stdin: no operand is a file (grep's first one is its pattern). */
function selects(program: string, args: readonly string[]): boolean {
  const operands = args.filter((word) => !word.startsWith('-'));
  // The value of head's and tail's -n is an option word of its own (`head -n 5`): a number.
  const files = program === 'grep' ? operands.slice(1) : operands.filter((word) => !/^\+?\d+[KMG]?$/.test(word));
  return files.length === 0;
}

/**
 * What `printf FORMAT ARGS…` prints, when the format holds only `%s`, `%%`, `\n`, `\t` and `\\`
 * (the format is reused while arguments are left, as bash does); null for anything else, which
 * the policy does not render (`%b`, octal escapes, widths).
 */
export function printfText(args: readonly string[]): string | null {
  const [format, ...values] = args;
  if (format === undefined) return '';
  let out = '';
  let next = 0;
  do {
    for (let i = 0; i < format.length; i++) {
      const c = format[i]!;
      if (c === '\\') {
        const escape = { n: '\n', t: '\t', '\\': '\\' }[format[++i] ?? ''];
        if (escape === undefined) return null;
        out += escape;
      } else if (c === '%') {
        const spec = format[++i];
        if (spec === '%') out += '%';
        else if (spec === 's') out += values[next++] ?? '';
        else return null;
      } else out += c;
    }
  } while (next > 0 && next < values.length);
  return out;
}

/**
 * The names xargs may make of `text`, read every way its options could split it: blank-separated
 * words with its quotes and backslashes taken out, whole lines (-I, -L, -d '\n'), and the whole text
 * (-0). Null when its quoting is broken (xargs stops there, having run who knows what before).
 */
export function xargsCandidates(text: string): string[] | null {
  const names = new Set<string>();
  for (const line of text.split('\n')) if (line.trim() !== '') names.add(line.replace(/^[ \t]+/, ''));
  if (text.trim() !== '') names.add(text);
  let word = '';
  let quote: string | null = null;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\n') return null;
      else word += c;
    } else if (c === "'" || c === '"') [quote, started] = [c, true];
    else if (c === '\\') [word, started] = [word + (text[++i] ?? ''), true];
    else if (/\s/.test(c)) {
      if (started) names.add(word);
      [word, started] = ['', false];
    } else [word, started] = [word + c, true];
  }
  if (quote) return null;
  if (started) names.add(word);
  return [...names];
}
