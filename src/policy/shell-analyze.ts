// Reduce a shell command to a sequence of literal commands, or say why it cannot be.
// The walk is an allowlist of tree-sitter-bash node shapes: a node it does not know denies, so a
// construct the grammar adds later, or one this file forgot, can only make the policy stricter.
import type { Node } from 'web-tree-sitter';
import { SHELL_KEYWORDS } from '../recipe/rules.js';
import { parseShell } from './shell-parse.js';
import { screenShellCommand } from './shell-screen.js';
import { continuationProblem } from './shell-continuations.js';
import { readRedirect, type ShellRedirect } from './shell-redirects.js';
import { literalWord, type ShellWord } from './shell-words.js';
import { clip } from './clip.js';

export type { ShellWord } from './shell-words.js';
export type { ShellRedirect } from './shell-redirects.js';

/** One simple command of the sequence, with its words as bash would pass them (quotes removed). */
export interface ShellCommand {
  argv: string[];
  words: ShellWord[];
  /** The command as written, for reasons. */
  text: string;
  /**
   * What joins it to the command before it: 'start' for the first, ';' after `;` or a newline.
   * `piped` when its output goes to the next command through `|`. Commands come in source order.
   */
  connector?: Connector;
  piped?: boolean;
}

export type Connector = 'start' | ';' | '&&' | '||' | '|';

/** A redirection of the line, with the index in `commands` of the command it belongs to (-1 for none). */
export type PlacedRedirect = ShellRedirect & { command: number };

/** `redirects`: every redirection of the line, each with its command. */
export type ShellAnalysis = { ok: true; commands: ShellCommand[]; redirects: PlacedRedirect[] } | { ok: false; reason: string };

/** Nesting deeper than this (hundreds of chained operators) is refused rather than walked. */
const MAX_DEPTH = 1000;

const STATEMENT_TYPES = new Set(['command', 'pipeline', 'list']);
/** Operators allowed between statements, per parent node type. `&`, `;;`, `|&` are absent on purpose. */
const OPERATORS: Record<string, ReadonlySet<string>> = {
  program: new Set([';']),
  list: new Set(['&&', '||']),
  pipeline: new Set(['|']),
};

/**
 * Reserved words bash recognises in command position (shared with the rule grammar).
 * tree-sitter-bash parses some of them (`coproc`, `then`, ...) as ordinary command names, so an
 * unquoted one is refused here. `time` is absent: it is a wrapper, trusted only through a rule
 * that names it.
 */
const RESERVED_WORDS = SHELL_KEYWORDS;

/** Names for the constructs the walk refuses, so reasons read as sentences. */
const CONSTRUCTS: Record<string, string> = {
  command_substitution: 'command substitution',
  process_substitution: 'process substitution',
  simple_expansion: 'variable expansion',
  expansion: 'parameter expansion',
  arithmetic_expansion: 'arithmetic expansion',
  variable_assignment: 'a variable assignment',
  variable_assignments: 'variable assignments',
  declaration_command: 'a declaration (export/declare/local/readonly/typeset)',
  unset_command: 'unset',
  redirected_statement: 'a redirection',
  file_redirect: 'a redirection',
  heredoc_redirect: 'a heredoc',
  herestring_redirect: 'a here-string',
  subshell: 'a subshell',
  compound_statement: 'a command group or arithmetic command',
  function_definition: 'a function definition',
  negated_command: "negation with '!'",
  if_statement: 'an if statement',
  for_statement: 'a for loop',
  c_style_for_statement: 'a for loop',
  while_statement: 'a while loop',
  case_statement: 'a case statement',
  test_command: 'a test command ([ ] or [[ ]])',
  ansi_c_string: "an ANSI-C string ($'...')",
  translated_string: 'a translated string ($"...")',
  comment: 'a comment',
  brace_expression: 'brace expansion',
  '&': "a background job ('&')",
  '|&': "a '|&' pipe",
  ';;': "';;'",
  $: "a '$' that bash may expand",
};

/**
 * `globs`: an argument may hold an unquoted glob, kept as its pattern (ShellWord.glob) for the
 * caller to expand against the files (shell-globs.ts); without it such a word is refused.
 */
export async function analyzeShellCommand(command: string, options: { globs?: boolean } = {}): Promise<ShellAnalysis> {
  const screened = screenShellCommand(command);
  if (screened) return { ok: false, reason: screened };
  const parsed = await parseShell(command);
  if (!parsed.ok) return parsed;
  try {
    if (parsed.root.hasError) return { ok: false, reason: braceWordProblem(command, parsed.root) ?? 'it does not parse as a complete bash command' };
    const joined = continuationProblem(command, parsed.root);
    if (joined) return { ok: false, reason: joined };
    const walk = new Walk(command, options.globs ?? false);
    walk.sequence(parsed.root, 0);
    walk.checkCoverage();
    return { ok: true, commands: walk.commands, redirects: walk.redirects };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    return { ok: false, reason: `the command could not be analysed (${(error as Error).message})` };
  } finally {
    parsed.release();
  }
}

/** Longest line a bare `- shell` rule may approve. */
const MAX_SYNTAX_CHECK_LENGTH = 1_000_000;

/**
 * Why bash may not read `command` the way the parser does, or null: screened characters, a
 * parse error, a missing token, a timeout. Looser than analyzeShellCommand (expansions, loops
 * and the like are fine): what a bare `- shell` rule needs before it approves a line.
 */
export async function shellSyntaxProblem(command: string): Promise<string | null> {
  // A bare rule approves long lines too (a file written through a heredoc); the parse has its timeout.
  const screened = screenShellCommand(command, MAX_SYNTAX_CHECK_LENGTH);
  if (screened) return screened;
  const parsed = await parseShell(command);
  if (!parsed.ok) return parsed.reason;
  try {
    if (parsed.root.hasError) return 'it does not parse as a complete bash command';
    return null;
  } finally {
    parsed.release();
  }
}

/**
 * `{rm,-rf,d}` where a command starts: bash reads one word (brace-expanded into `rm -rf d`, or
 * plain text), tree-sitter-bash the start of a group it cannot close. Said so, rather than "does
 * not parse".
 */
function braceWordProblem(source: string, root: Node): string | null {
  const brace = root.descendantsOfType('{').find((node) => node.parent?.type === 'ERROR' && /^[^\s;&|()<>]/.test(source.slice(node.endIndex)));
  if (!brace) return null;
  const word = /^\S*/.exec(source.slice(brace.startIndex))![0];
  return `the command starts with the word '${clip(word)}', which bash reads as a word (brace-expanded where it holds a ',' or a '..' sequence) and the parser as the start of a group: write the command's words out, or quote the word`;
}

class Refusal extends Error {}

function refuse(node: Node): never {
  // A redirected statement is named by its redirection (heredoc, here-string, file).
  const redirect = node.type === 'redirected_statement' ? node.childrenForFieldName('redirect')[0] : undefined;
  const shown = redirect ?? node;
  const what = CONSTRUCTS[shown.type] ?? `the construct '${shown.type}'`;
  throw new Refusal(`it uses ${what}: '${clip(node.text)}'`);
}

class Walk {
  readonly commands: ShellCommand[] = [];
  readonly redirects: PlacedRedirect[] = [];
  /** Source ranges the walk accepted; everything between them must be blank. */
  private readonly covered: Array<[number, number]> = [];
  /** The operator seen since the last command: a newline between statements leaves ';'. */
  private pending: Connector = 'start';

  constructor(
    private readonly source: string,
    private readonly globs: boolean,
  ) {}

  sequence(node: Node, depth: number): void {
    if (depth > MAX_DEPTH) throw new Refusal('it nests operators too deeply');
    const operators = OPERATORS[node.type];
    if (!operators) refuse(node);
    for (const child of node.children) {
      if (child.isMissing) throw new Refusal(`it is incomplete (missing '${child.type}')`);
      if (!child.isNamed) {
        if (!operators.has(child.type)) refuse(child);
        this.cover(child);
        this.pending = child.type as Connector;
        const last = this.commands[this.commands.length - 1];
        if (child.type === '|' && last) last.piped = true;
      } else if (child.type === 'command') {
        this.command(child);
      } else if (child.type === 'comment') {
        // Bash ignores it; tree-sitter only makes one where bash starts a comment (a word's first '#').
        this.cover(child);
      } else if (child.type === 'redirected_statement') {
        this.redirected(child, depth);
      } else if (STATEMENT_TYPES.has(child.type) && child.type !== 'command') {
        // A pipeline inside a list, a list inside a list: same rules, one level down.
        this.sequence(child, depth + 1);
      } else {
        refuse(child);
      }
    }
  }

  /** `cmd > file`, `cmd 2>&1`, `cmd <<'EOF'`: the command, and each redirection read on its own. */
  private redirected(node: Node, depth: number): void {
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i)!;
      const field = node.fieldNameForChild(i);
      if (field === 'body' && child.type === 'command') this.command(child);
      else if (field === 'body' && (child.type === 'pipeline' || child.type === 'list')) this.sequence(child, depth + 1);
      else if (field === 'redirect') this.redirect(child, depth);
      else refuse(child.type === 'ERROR' ? node : child);
    }
  }

  private redirect(node: Node, depth: number): void {
    const result = readRedirect(node);
    if (!result.ok) {
      if (result.construct) refuse(result.construct);
      throw new Refusal(result.reason ? `it uses a redirection the policy does not accept: ${result.reason}` : `it uses ${CONSTRUCTS[node.type] ?? 'a redirection'}: '${clip(node.text)}'`);
    }
    // A redirection is read after its command is recorded (also one around a heredoc's pipeline: `cat <<'EOF' | head > f`).
    const command = this.commands.length - 1;
    this.redirects.push(...result.redirects.map((redirect) => ({ ...redirect, command })));
    this.cover(node);
    for (const nested of result.nested) this.sequence(nested, depth + 1);
  }

  private command(node: Node): void {
    const words: ShellWord[] = [];
    let previous: Node | null = null;
    // Two words with nothing between them are one to bash: tree-sitter-bash splits `}\}` or `a{\;` so.
    const adjacent = (word: Node) => {
      if (previous && previous.endIndex === word.startIndex) {
        throw new Refusal(`the parser splits '${clip(this.source.slice(previous.startIndex, word.endIndex))}' into two words where bash reads one: quote it`);
      }
      previous = word;
    };
    // Read after the command is recorded: a heredoc's redirection may hold the commands after it (`cat <<'EOF' | head`).
    const redirects: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i)!;
      const field = node.fieldNameForChild(i);
      if (field === 'redirect' && words.length > 0) {
        redirects.push(child);
      } else if (child.type === 'command_name' && words.length === 0) {
        if (child.childCount !== 1) refuse(child);
        adjacent(child);
        words.push(this.word(child.child(0)!, false));
      } else if (field === 'argument' && words.length > 0) {
        adjacent(child);
        words.push(this.word(child, this.globs));
      } else {
        refuse(child);
      }
    }
    const first = words[0];
    if (!first) refuse(node);
    if (!first.quoted && RESERVED_WORDS.has(first.value)) {
      throw new Refusal(`bash treats '${first.value}' as a keyword there: '${clip(node.text)}'`);
    }
    this.commands.push({ argv: words.map((w) => w.value), words, text: node.text, connector: this.pending });
    this.pending = ';';
    for (const redirect of redirects) this.redirect(redirect, 0);
  }

  private word(node: Node, globs: boolean): ShellWord {
    // `ls {fd}>out`: bash reads `{fd}` right before a redirection as the name of a variable to
    // hold a new descriptor, no word of the command; tree-sitter-bash reads an argument.
    if (node.text.startsWith('{') && node.text.endsWith('}') && /^[<>]/.test(this.source.slice(node.endIndex))) {
      throw new Refusal(`the word '${clip(node.text)}' right before a redirection names a variable bash assigns a descriptor to ('{var}>'), which the policy does not accept: put a space before the redirection if '${clip(node.text)}' is an argument`);
    }
    const result = literalWord(node, globs);
    if (!result.ok) {
      if (result.construct) refuse(result.construct);
      throw new Refusal(result.reason);
    }
    this.cover(node);
    return result.word;
  }

  private cover(node: Node): void {
    this.covered.push([node.startIndex, node.endIndex]);
  }

  /**
   * Belt and braces against a parser that silently skips input: every character outside the
   * accepted nodes must be a space, tab, newline or a line continuation (which
   * continuationProblem has already found joins no words).
   */
  checkCoverage(): void {
    const ranges = [...this.covered].sort((a, b) => a[0] - b[0]);
    let position = 0;
    for (const [start, end] of ranges) {
      if (start > position) this.checkGap(position, start);
      position = Math.max(position, end);
    }
    this.checkGap(position, this.source.length);
  }

  private checkGap(start: number, end: number): void {
    const gap = this.source.slice(start, end).replace(/\\\n/g, '');
    if (!/[^ \t\n]/.test(gap)) return;
    // tree-sitter-bash drops a lone `-` right before a heredoc (`cat - <<'EOF'`): say how to write it.
    if (gap.trim() === '-' && /^[ \t]*<</.test(this.source.slice(end))) {
      throw new Refusal("the parser loses a lone '-' right before a heredoc: leave it out where the program reads stdin anyway (`python3 <<'EOF'`), or attach it to its option (`git commit -F- <<'EOF'`)");
    }
    throw new Refusal(`the parser did not account for '${clip(gap.trim())}'`);
  }
}
