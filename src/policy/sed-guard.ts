// sed edits files in place (-i) and its scripts can run commands (`e`, `s///e`) and read or
// write any file (`r`, `R`, `w`, `W`, `s///w`). The script is scanned with a small parser of
// GNU sed syntax that accepts only what it understands: anything else is refused.
import type { GuardFinding } from './shell-guards.js';
import { longOption } from './shell-options.js';

const LONG_OPTIONS = ['--in-place', '--file', '--expression', '--line-length'];

export function sedGuard(argv: string[]): GuardFinding[] {
  const { scripts, inPlace: edits, files } = readSed(argv);
  const findings = [...edits.map(inPlace), ...files.map(scriptFile)].sort((a, b) => a.index - b.index);
  for (const script of scripts) {
    const problem = sedScriptProblem(script.text);
    if (problem) findings.push({ index: script.index, guard: 'sed script', message: `the sed script '${script.text}' ${problem}` });
  }
  return findings;
}

/**
 * For deny rules, why sed may run a command, or null: its `e` command and `s///e` flag run text
 * of its input, and a script file (`-f`) or a script the parser does not know may hold them.
 */
export function sedRunsCommand(argv: readonly string[]): string | null {
  const { scripts, files } = readSed(argv);
  if (files.length > 0) return 'it runs a sed script from a file (-f), which may run commands (e, s///e) that cannot be checked';
  for (const script of scripts) {
    const problem = sedScriptProblem(script.text, false);
    if (problem) return `the sed script '${script.text}' ${problem}`;
  }
  return null;
}

/** Its scripts and where -i and -f stand. */
function readSed(argv: readonly string[]): { scripts: Array<{ text: string; index: number }>; inPlace: number[]; files: number[] } {
  const scripts: Array<{ text: string; index: number }> = [];
  const edits: number[] = [];
  const files: number[] = [];
  let operands = false;
  let firstOperand: { text: string; index: number } | null = null;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (operands || arg === '-' || !arg.startsWith('-')) {
      if (!firstOperand) firstOperand = { text: arg, index: i };
      continue;
    }
    if (arg === '--') {
      operands = true;
    } else if (arg.startsWith('--')) {
      const [given, value] = splitLong(arg);
      const name = longOption(given, LONG_OPTIONS);
      if (name === '--in-place') edits.push(i);
      else if (name === '--file') files.push(i);
      else if (name === '--expression') {
        const text = value ?? argv[++i];
        if (text !== undefined) scripts.push({ text, index: i });
      } else if (name === '--line-length' && value === undefined) i++;
    } else {
      // A cluster of short options: -n, -E, -ne 'script', -i.bak, -f file, -l 80.
      for (let c = 1; c < arg.length; c++) {
        const flag = arg[c];
        if (flag === 'i') {
          edits.push(i);
          break;
        }
        if (flag === 'f') {
          files.push(i);
          if (c === arg.length - 1) i++;
          break;
        }
        if (flag === 'e' || flag === 'l') {
          const attached = arg.slice(c + 1);
          const text = attached !== '' ? attached : argv[++i];
          if (flag === 'e' && text !== undefined) scripts.push({ text, index: i });
          break;
        }
      }
    }
  }
  // Without -e or -f, the first operand is the script.
  if (scripts.length === 0 && files.length === 0 && firstOperand) scripts.push(firstOperand);
  return { scripts, inPlace: edits, files };
}

function splitLong(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

function inPlace(index: number): GuardFinding {
  return { index, guard: 'sed -i', message: 'sed -i edits files in place, outside the file tools and their path rules' };
}

function scriptFile(index: number): GuardFinding {
  return { index, guard: 'sed -f', message: 'sed -f runs a script from a file, which cannot be checked' };
}

const SIMPLE_COMMANDS = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
const COUNT_COMMANDS = new Set(['q', 'Q', 'l', 'L']);
const LABEL_COMMANDS = new Set([':', 'b', 't', 'T', 'v']);
const TEXT_COMMANDS = new Set(['a', 'i', 'c']);
const DANGEROUS: Record<string, string> = {
  e: "runs a command ('e')",
  r: "reads a file ('r')",
  R: "reads a file ('R')",
  w: "writes a file ('w')",
  W: "writes a file ('W')",
};
const S_FLAGS = /^[gpiImM0-9]$/;

/**
 * Why the script may run commands or touch files, or null when it only edits the stream; with
 * `files` false, only why it may run commands (reading and writing files is no deny rule's business).
 */
export function sedScriptProblem(script: string, files = true): string | null {
  let pos = 0;
  const peek = () => script[pos];
  const skip = (chars: string) => {
    while (pos < script.length && chars.includes(script[pos]!)) pos++;
  };
  const readDelimited = (delimiter: string, regex = false): boolean => {
    while (pos < script.length) {
      const char = script[pos++]!;
      if (char === '\\') pos++;
      else if (regex && char === '[') skipBracket();
      else if (char === delimiter) return true;
    }
    return false;
  };
  // A bracket expression holds the delimiter as itself: GNU sed reads `s/[/]/x/` as one regex `[/]`.
  const skipBracket = () => {
    if (peek() === '^') pos++;
    if (peek() === ']') pos++;
    while (pos < script.length) {
      const char = script[pos++]!;
      if (char === ']') return;
      // [:alpha:], [=a=], [.-.]: their own closing pair, which a ']' inside does not end.
      if (char === '[' && ':=.'.includes(peek() ?? '')) {
        const kind = script[pos++]!;
        const close = script.indexOf(`${kind}]`, pos);
        if (close >= 0) pos = close + 2;
      }
    }
  };
  const readAddress = (): boolean => {
    const char = peek();
    if (char === undefined) return true;
    if (/[0-9]/.test(char)) {
      skip('0123456789');
      if (peek() === '~') {
        pos++;
        skip('0123456789');
      }
    } else if (char === '$') pos++;
    else if (char === '/' || char === '\\') {
      pos++;
      const delimiter = char === '\\' ? script[pos++] : '/';
      if (delimiter === undefined || !readDelimited(delimiter, true)) return false;
      skip('IM');
    } else if (char === '+' || char === '~') {
      pos++;
      skip('0123456789');
    }
    return true;
  };

  while (pos < script.length) {
    skip(' \t\n;');
    if (pos >= script.length) break;
    if (peek() === '#') {
      while (pos < script.length && peek() !== '\n') pos++;
      continue;
    }
    if (!readAddress()) return 'has an unterminated address';
    if (peek() === ',') {
      pos++;
      if (!readAddress()) return 'has an unterminated address';
    }
    skip(' \t!');
    const command = script[pos++];
    if (command === undefined) return 'ends after an address';
    if (command === '{' || command === '}') continue;
    const danger = DANGEROUS[command];
    if (danger && (files || command === 'e')) return danger;
    if (danger) {
      // The file name runs to the end of the line.
      while (pos < script.length && peek() !== '\n') pos++;
      continue;
    }
    if (SIMPLE_COMMANDS.has(command)) {
      // nothing to read
    } else if (COUNT_COMMANDS.has(command)) {
      skip(' \t');
      skip('0123456789');
    } else if (LABEL_COMMANDS.has(command)) {
      // A label (or v's version) ends at a blank, ';' or a newline, and GNU sed reads what follows
      // as the next command: `:a e rm -rf d` and `v 4.2 w /tmp/x` run `e` and `w` (sed 4.9). Read
      // as the rest of the line, the label hid them.
      skip(' \t');
      while (pos < script.length && !' \t\n;'.includes(peek()!)) pos++;
      continue;
    } else if (TEXT_COMMANDS.has(command)) {
      // One-line text runs to the end of the line (and may continue with a backslash).
      while (pos < script.length && peek() !== '\n') {
        if (peek() === '\\') pos++;
        pos++;
      }
    } else if (command === 's' || command === 'y') {
      const delimiter = script[pos++];
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return `has a malformed '${command}' command`;
      if (!readDelimited(delimiter, command === 's') || !readDelimited(delimiter)) return `has an unterminated '${command}' command`;
      while (command === 's' && pos < script.length && !' \t\n;}'.includes(peek()!)) {
        const flag = script[pos++]!;
        if (flag === 'e') return "runs the replacement as a command ('s///e')";
        if (flag === 'w' && files) return "writes a file ('s///w')";
        if (flag === 'w') {
          while (pos < script.length && peek() !== '\n') pos++;
          break;
        }
        if (!S_FLAGS.test(flag)) return `has an unknown 's' flag '${flag}'`;
      }
    } else {
      return `has a command the policy does not know ('${command}')`;
    }
    skip(' \t');
    const next = peek();
    if (next !== undefined && !'\n;}#'.includes(next)) return `has unexpected text after '${command}'`;
  }
  return null;
}
