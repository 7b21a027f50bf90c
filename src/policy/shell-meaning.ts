// Commands and deny-rule patterns read for what their options mean (option-table.ts), so a deny
// rule matches every spelling of what it names: clusters (`-rfv` holds `-r` and `-f`), long
// options and their unambiguous prefixes (`--forc`), synonyms (`-R`, `--recursive`), options that
// imply others (`git branch -D`), and operands that carry a meaning (`git push origin +main`).
// Programs without a table are read the common way (letters of a cluster, `--name[=value]`), and
// everything is compared case-insensitively where the table cannot tell: deny rules err towards
// matching.
import path from 'node:path';
import { PROGRAM_OPTIONS, type OptionGroup, type ProgramOptions } from './option-table.js';
import { ownEntry } from './shell-options.js';

export interface Meaning {
  program: string;
  subcommand: string | null;
  /** Canonical option names (a group's first spelling), or `-x`/`--name` for programs without a table. */
  options: Set<string>;
  /** Long options of programs without a table, as written (a rule's `--force` is met by `--forc`). */
  longs: string[];
  /** Operands, lower-cased; words a table could not read are kept here too. */
  operands: string[];
}

interface Spelling {
  group: OptionGroup;
  value: 'none' | 'required' | 'optional';
}

/** A word's spellings per table, built once. */
const spellingCache = new WeakMap<ProgramOptions, Map<string, Spelling>>();

function spellingsOf(table: ProgramOptions): Map<string, Spelling> {
  let map = spellingCache.get(table);
  if (!map) {
    map = new Map();
    for (const group of table.groups) {
      for (const raw of group.spellings) {
        const value = raw.endsWith('=?') ? 'optional' : raw.endsWith('=') ? 'required' : 'none';
        map.set(raw.replace(/=\??$/, ''), { group, value });
      }
    }
    spellingCache.set(table, map);
  }
  return map;
}

const canonical = (group: OptionGroup) => group.spellings[0]!.replace(/=\??$/, '');

/**
 * `side`: a rule is read strictly (a word the table does not know stays a literal operand the
 * command must contain); a command generously (an unknown word is an operand and its letters
 * count as options too), so that a rule can only match more, never less.
 */
export function readMeaning(argv: readonly string[], side: 'rule' | 'command'): Meaning | null {
  const [first, ...rest] = argv;
  if (first === undefined) return null;
  const program = path.posix.basename(first).toLowerCase();
  const meaning: Meaning = { program, subcommand: null, options: new Set(), longs: [], operands: [] };
  const table = ownEntry(PROGRAM_OPTIONS, program);
  read(rest, table ?? null, meaning, side);
  return meaning;
}

function read(words: readonly string[], table: ProgramOptions | null, meaning: Meaning, side: 'rule' | 'command'): void {
  const spellings = table ? spellingsOf(table) : null;
  // A rule naming an option that implies others (`branch -D`) asks for what it implies, so that
  // `--delete --force` meets it; a command has both.
  const add = (group: OptionGroup) => {
    if (side === 'command' || !group.implies?.length) meaning.options.add(canonical(group));
    for (const implied of group.implies ?? []) meaning.options.add(implied);
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') {
      meaning.operands.push(...words.slice(i + 1).map((w) => w.toLowerCase()));
      return;
    }
    if (word.startsWith('--') && word.length > 2) {
      const [name, attached] = splitValue(word);
      // A command's `--name=value` also offers the value as a word, as a rule may write it apart.
      if (attached !== null && side === 'command') meaning.operands.push(attached.toLowerCase());
      if (!spellings) {
        meaning.options.add(name.toLowerCase());
        meaning.longs.push(name.toLowerCase());
        continue;
      }
      const found = resolveLong(name, spellings, side);
      if (found.length === 0) {
        meaning.operands.push(word.toLowerCase());
        continue;
      }
      for (const spelling of found) add(spelling.group);
      if (attached === null && found.length === 1 && found[0]!.value === 'required') i++;
      continue;
    }
    if (word.startsWith('-') && word.length > 1 && !/^-\d+$/.test(word)) {
      if (!spellings) {
        for (const letter of word.slice(1)) meaning.options.add(`-${letter.toLowerCase()}`);
        continue;
      }
      if (table!.wordOptions) {
        const spelling = spellings.get(word);
        if (spelling) add(spelling.group);
        else meaning.operands.push(word.toLowerCase());
        continue;
      }
      const skipNext = readCluster(word, spellings, meaning, side, add);
      if (skipNext) i++;
      continue;
    }
    if (table?.subcommands && meaning.subcommand === null) {
      meaning.subcommand = word.toLowerCase();
      const sub = ownEntry(table.subcommands, meaning.subcommand);
      read(words.slice(i + 1), sub ?? null, meaning, side);
      return;
    }
    meaning.operands.push(word.toLowerCase());
    // What else the operand names goes right after it, so that a rule's words still meet it in order.
    if (side === 'command' && table?.operandWords) meaning.operands.push(...table.operandWords(word.toLowerCase()));
    for (const { pattern, means } of table?.operandMeanings ?? []) if (pattern.test(word)) meaning.options.add(means);
  }
}

/** `-rfv`, `-n5`, `-C dir`: returns true when the option's value is the next word. */
function readCluster(word: string, spellings: Map<string, Spelling>, meaning: Meaning, side: 'rule' | 'command', add: (g: OptionGroup) => void): boolean {
  const found: OptionGroup[] = [];
  let unknown = false;
  for (let c = 1; c < word.length; c++) {
    const spelling = spellings.get(`-${word[c]}`);
    if (!spelling) {
      unknown = true;
      continue;
    }
    found.push(spelling.group);
    if (spelling.value === 'optional') break;
    if (spelling.value === 'required') {
      if (c === word.length - 1 && !unknown) {
        found.forEach(add);
        return true;
      }
      break;
    }
  }
  if (unknown) {
    // A word the table cannot read (chmod's `-x` is a mode): the rule keeps it as a literal word;
    // a command offers it both ways.
    meaning.operands.push(word.toLowerCase());
    if (side === 'rule') return false;
  }
  found.forEach(add);
  return false;
}

/** The spellings `--name` may stand for: exact, or every long option it is a prefix of (getopt_long, git). */
function resolveLong(name: string, spellings: Map<string, Spelling>, side: 'rule' | 'command'): Spelling[] {
  const exact = spellings.get(name);
  if (exact) return [exact];
  if (side === 'rule') return [];
  // An ambiguous prefix is an error to getopt; a deny rule reads it as every option it might be.
  return [...spellings].filter(([spelling]) => spelling.startsWith('--') && spelling.startsWith(name)).map(([, s]) => s);
}

function splitValue(word: string): [string, string | null] {
  const eq = word.indexOf('=');
  return eq < 0 ? [word, null] : [word.slice(0, eq), word.slice(eq + 1)];
}

/** True when the command means at least what the rule says: same program (and subcommand), every option, every operand in order. */
export function meaningCovers(command: Meaning, rule: Meaning): boolean {
  if (command.program !== rule.program) return false;
  if (rule.subcommand !== null && command.subcommand !== rule.subcommand) return false;
  for (const option of rule.options) {
    if (command.options.has(option)) continue;
    // Without a table, `--forc` may be `--force`: any long option the command abbreviates.
    if (option.startsWith('--') && command.longs.some((long) => long.length > 2 && option.startsWith(long))) continue;
    return false;
  }
  let at = 0;
  for (const operand of rule.operands) {
    at = command.operands.indexOf(operand, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}
