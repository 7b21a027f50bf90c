// The words of a command that its program may open as paths, read with opened-table.ts: operands
// that are files, values of options that are files, and, through wrappers (`timeout 60 cat f`,
// `xargs cat f`, `find -exec cat f`), those of the command they run. Where the grammar is not
// known the reading errs toward a file: an option the table does not list takes no value, so
// the word after it is an operand, and a program the table does not know may open any word that
// is no option and no `NAME=VALUE` setting.
import path from 'node:path';
import { ownEntry } from './shell-options.js';
import { GIT_GRAMMARS, GIT_SECOND_OPERAND, WORD_GRAMMARS, type WordGrammar } from './opened-table.js';

export interface CommandWords {
  /** Index in argv -> the names the program may open from that word (the word, or its value). */
  opened: Map<number, string[]>;
  /** Indexes in argv where a command run by a wrapper starts. */
  runs: number[];
}

const base = (word: string | undefined) => path.posix.basename(word ?? '');

/** Whether opened-table.ts knows the program: a wrapper it does not know may run any of its words. */
export function knowsWords(program: string): boolean {
  return ownEntry(WORD_GRAMMARS, base(program)) !== undefined || base(program) === 'find' || base(program) === 'dd';
}

/** What `argv` may open, and the commands it runs. */
export function commandWords(argv: readonly string[]): CommandWords {
  const words: CommandWords = { opened: new Map(), runs: [] };
  if (argv.length > 0) read(argv, 0, argv.length, words);
  return words;
}

function hold(words: CommandWords, index: number, name: string | undefined): void {
  // `{}` stands for names find and xargs supply as the line runs.
  if (name === undefined || name === '' || name === '{}') return;
  const names = words.opened.get(index) ?? [];
  words.opened.set(index, [...names, name]);
}

const SETTING = /^[A-Za-z_][A-Za-z0-9_]*=/;

function read(argv: readonly string[], start: number, end: number, words: CommandWords): void {
  const program = base(argv[start]);
  if (program === 'find') return readFind(argv, start, end, words);
  if (program === 'dd') return readDd(argv, start, end, words);
  if (program === 'git') return readGit(argv, start, end, words);
  const grammar = ownEntry(WORD_GRAMMARS, program);
  if (!grammar) {
    for (let i = start + 1, options = true; i < end; i++) {
      const word = argv[i]!;
      if (options && word === '--') options = false;
      else if (!(options && word.startsWith('-') && word !== '-') && !SETTING.test(word)) hold(words, i, word);
    }
    return;
  }
  readGrammar(argv, start, end, words, grammar, program);
}

function readGrammar(argv: readonly string[], start: number, end: number, words: CommandWords, g: WordGrammar, program: string): void {
  const valuedLong = [...(g.valuedLong ?? []), ...Object.keys(g.pairs ?? {})];
  const files = new Set(g.fileValues ?? []);
  const given = new Set<string>();
  const isSetting = (index: number) => g.settings === true && SETTING.test(argv[index]!);
  const leading = () => (g.leading && !g.leading.unless?.some((option) => given.has(option)) ? g.leading.count : 0);
  /** Operands, settings left out; where an option made the rest names (`jq --args`), and whether one ended the words. */
  const operands: number[] = [];
  let namedFrom = end;
  let last = false;
  let options = true;
  for (let i = start + 1; i < end && !last; i++) {
    const word = argv[i]!;
    if (options && word === '--') {
      options = false;
      continue;
    }
    if (options && word.startsWith('--')) {
      const eq = word.indexOf('=');
      // Spelled out in full: a prefix GNU getopt would take (`--li 5`) is read as a flag, so the word after it is an operand.
      const name = eq < 0 ? word : word.slice(0, eq);
      given.add(name);
      const pair = g.pairs && Object.hasOwn(g.pairs, name) ? g.pairs[name] : undefined;
      if (pair !== undefined) {
        i += 2;
        if (pair) hold(words, i, argv[i]);
      } else if (valuedLong.includes(name)) {
        if (eq >= 0 && files.has(name)) hold(words, i, word.slice(eq + 1));
        else if (eq < 0 && files.has(name)) hold(words, i + 1, argv[i + 1]);
        if (eq < 0) i++;
      }
      if (g.namedOperands?.includes(name)) namedFrom = Math.min(namedFrom, i);
      last = g.lastOption?.includes(name) ?? false;
      continue;
    }
    if (options && word.startsWith('-') && word !== '-') {
      for (let c = 1; c < word.length; c++) {
        const option = `-${word[c]}`;
        given.add(option);
        if (g.namedOperands?.includes(option)) namedFrom = Math.min(namedFrom, i);
        if (g.lastOption?.includes(option)) last = true;
        if (g.attached?.includes(word[c]!)) break;
        if (g.valued?.includes(word[c]!)) {
          const attached = word.slice(c + 1);
          if (attached === '') i++;
          if (files.has(option)) hold(words, i, attached === '' ? argv[i] : attached);
          break;
        }
      }
      continue;
    }
    if (isSetting(i)) continue;
    operands.push(i);
    // A wrapper's command and an interpreter's script end its own options and words.
    if ((g.operands === 'command' || g.operands === 'script') && operands.length > leading()) break;
  }
  if (last) return;
  const rest = operands.slice(program === 'chmod' ? chmodMode(argv, start, end, operands) : leading()).filter((o) => o < namedFrom);
  const first = rest[0];
  if (first === undefined) return;
  if (g.operands === 'command') {
    words.runs.push(first);
    read(argv, first, end, words);
  } else if (g.operands === 'script') {
    hold(words, first, argv[first]);
  } else if (g.operands === 'files') {
    for (const o of rest) hold(words, o, argv[o]);
  }
}

const MODE = /^([0-7]{1,4}|[ugoa]*([-+=]([rwxXst]*|[ugo]))+(,[ugoa]*([-+=]([rwxXst]*|[ugo]))+)*)$/;

/** chmod's first operand is its mode, unless a mode came as an option word (`chmod -x f`) or --reference gave it. */
function chmodMode(argv: readonly string[], start: number, end: number, operands: readonly number[]): number {
  const first = operands[0];
  if (first === undefined || !MODE.test(argv[first]!)) return 0;
  const words = argv.slice(start + 1, end);
  return words.some((word) => /^-[rwxXst]+$/.test(word) || word.startsWith('--reference')) ? 0 : 1;
}

/** find's predicates with a value that is no file, and those whose value is a file. */
const FIND_NAMES: ReadonlySet<string> = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-type', '-xtype', '-maxdepth', '-mindepth',
  '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-size', '-perm', '-user', '-group', '-uid', '-gid', '-links', '-inum', '-fstype', '-used',
  '-printf', '-regextype', '-context',
]);
const FIND_FILES: ReadonlySet<string> = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-fprint', '-fprint0', '-fls', '-files0-from']);
const FIND_EXEC: ReadonlySet<string> = new Set(['-exec', '-execdir', '-ok', '-okdir']);

function readFind(argv: readonly string[], start: number, end: number, words: CommandWords): void {
  let i = start + 1;
  for (; i < end && /^-([HLP]|O\d*|D)$/.test(argv[i]!); i++) if (argv[i] === '-D') i++;
  // The starting points come before the first word of the expression.
  for (; i < end && !/^[-(!),]/.test(argv[i]!); i++) hold(words, i, argv[i]);
  for (; i < end; i++) {
    const word = argv[i]!;
    if (FIND_EXEC.has(word)) {
      let stop = i + 1;
      while (stop < end && argv[stop] !== ';' && argv[stop] !== '+') stop++;
      if (stop > i + 1) {
        words.runs.push(i + 1);
        read(argv, i + 1, stop, words);
      }
      i = stop;
    } else if (FIND_NAMES.has(word)) i++;
    else if (FIND_FILES.has(word)) hold(words, ++i, argv[i]);
    else if (word === '-fprintf') hold(words, ++i, argv[i]), i++;
    else if (/^-newer[aBcm][aBcmt]$/.test(word)) {
      i++;
      if (!word.endsWith('t')) hold(words, i, argv[i]);
    } else if (!/^[-(!),]/.test(word)) hold(words, i, word);
  }
}

/** dd opens the values of if= and of=; its other operands are settings. */
function readDd(argv: readonly string[], start: number, end: number, words: CommandWords): void {
  for (let i = start + 1; i < end; i++) {
    const word = argv[i]!;
    const file = /^(?:if|of)=(.*)$/s.exec(word);
    if (file) hold(words, i, file[1]);
    else if (!word.includes('=') && !word.startsWith('-')) hold(words, i, word);
  }
}

/** git's global options whose value is no file, and those whose value is a directory or file it opens. */
const GIT_GLOBAL_NAMES: ReadonlySet<string> = new Set(['-c', '--namespace', '--config-env', '--super-prefix', '--attr-source', '--list-cmds']);
const GIT_GLOBAL_FILES: ReadonlySet<string> = new Set(['-C', '--git-dir', '--work-tree', '--exec-path']);

/**
 * git: the values of -C, --git-dir, --work-tree and --exec-path, then what its subcommand opens
 * (GIT_GRAMMARS). After `-C DIR` the subcommand's relative names are taken inside DIR.
 */
function readGit(argv: readonly string[], start: number, end: number, words: CommandWords): void {
  let i = start + 1;
  const within: string[] = [];
  for (; i < end && argv[i]!.startsWith('-'); i++) {
    const word = argv[i]!;
    const eq = word.indexOf('=');
    const name = word.startsWith('--') && eq >= 0 ? word.slice(0, eq) : word;
    if (GIT_GLOBAL_FILES.has(name)) {
      const value = name !== word ? word.slice(eq + 1) : argv[++i];
      hold(words, i, value === undefined ? undefined : path.posix.join(...within, value));
      if (name === '-C' && value !== undefined) within.push(value);
    } else if (GIT_GLOBAL_NAMES.has(name) && name === word) i++;
  }
  if (i >= end) return;
  const subcommand = argv[i]!;
  const inner: CommandWords = { opened: new Map(), runs: [] };
  const grammar = ownEntry(GIT_GRAMMARS, subcommand);
  if (grammar) readGrammar(argv, i, end, inner, grammar, `git-${subcommand}`);
  if (GIT_SECOND_OPERAND.has(subcommand)) {
    const operands = argv.slice(i + 1, end).flatMap((word, k) => (word.startsWith('-') ? [] : [i + 1 + k]));
    const second = operands[1];
    if (second !== undefined) hold(inner, second, argv[second]);
  }
  for (const [index, names] of inner.opened) {
    for (const name of names) hold(words, index, within.length > 0 && !path.posix.isAbsolute(name) ? path.posix.join(...within, name) : name);
  }
}
