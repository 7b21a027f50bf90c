// sed edits files in place (-i) and its scripts can run commands (`e`, `s///e`) and read or
// write any file (`r`, `R`, `w`, `W`, `s///w`). The script is scanned with a small parser of
// GNU sed syntax that accepts only what it understands: anything else is refused.
import type { GuardFinding } from './shell-guards.js';
import { longOption } from './shell-options.js';

const LONG_OPTIONS = ['--in-place', '--file', '--expression', '--line-length'];

export function sedGuard(argv: string[]): GuardFinding[] {
  const findings: GuardFinding[] = [];
  const scripts: Array<{ text: string; index: number }> = [];
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
      if (name === '--in-place') findings.push(inPlace(i));
      else if (name === '--file') findings.push(scriptFile(i));
      else if (name === '--expression') {
        const text = value ?? argv[++i];
        if (text !== undefined) scripts.push({ text, index: i });
      } else if (name === '--line-length' && value === undefined) i++;
    } else {
      // A cluster of short options: -n, -E, -ne 'script', -i.bak, -f file, -l 80.
      for (let c = 1; c < arg.length; c++) {
        const flag = arg[c];
        if (flag === 'i') {
          findings.push(inPlace(i));
          break;
        }
        if (flag === 'f') {
          findings.push(scriptFile(i));
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
  // Without -e, the first operand is the script.
  if (scripts.length === 0 && firstOperand) scripts.push(firstOperand);
  for (const script of scripts) {
    const problem = sedScriptProblem(script.text);
    if (problem) findings.push({ index: script.index, guard: 'sed script', message: `the sed script '${script.text}' ${problem}` });
  }
  return findings;
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

/** Why the script may run commands or touch files, or null when it only edits the stream. */
export function sedScriptProblem(script: string): string | null {
  let pos = 0;
  const peek = () => script[pos];
  const skip = (chars: string) => {
    while (pos < script.length && chars.includes(script[pos]!)) pos++;
  };
  const readDelimited = (delimiter: string): boolean => {
    while (pos < script.length) {
      const char = script[pos++]!;
      if (char === '\\') pos++;
      else if (char === delimiter) return true;
    }
    return false;
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
      if (delimiter === undefined || !readDelimited(delimiter)) return false;
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
    if (danger) return danger;
    if (SIMPLE_COMMANDS.has(command)) {
      // nothing to read
    } else if (COUNT_COMMANDS.has(command)) {
      skip(' \t');
      skip('0123456789');
    } else if (LABEL_COMMANDS.has(command) || TEXT_COMMANDS.has(command)) {
      // Labels and one-line text run to the end of the line (text may continue with a backslash).
      while (pos < script.length && peek() !== '\n' && !(LABEL_COMMANDS.has(command) && peek() === ';')) {
        if (peek() === '\\') pos++;
        pos++;
      }
    } else if (command === 's' || command === 'y') {
      const delimiter = script[pos++];
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return `has a malformed '${command}' command`;
      if (!readDelimited(delimiter) || !readDelimited(delimiter)) return `has an unterminated '${command}' command`;
      while (command === 's' && pos < script.length && !' \t\n;}'.includes(peek()!)) {
        const flag = script[pos++]!;
        if (flag === 'e') return "runs the replacement as a command ('s///e')";
        if (flag === 'w') return "writes a file ('s///w')";
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
