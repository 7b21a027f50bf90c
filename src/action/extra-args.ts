// The `extra-args` input: more `unattended run` arguments, written as one would on a shell line
// (`--tools read_file,grep --append-system-prompt "Answer in French"`). No shell runs: the text is
// split here, with quotes and backslashes understood and nothing expanded ($HOME, globs and
// backticks stay literal), so text from an issue can never become a command.
import { ActionInputError } from './input-error.js';

/** Flags the action sets itself: it reads the report from --out and owns standard input. */
const OWNED_BY_THE_ACTION = ['--out', '--output-format', '--stdin', '--no-stdin'];

export function parseExtraArgs(text: string): string[] {
  const args = splitShellWords(text);
  for (const arg of args) {
    // As the command line reads it: `--outputFormat` is `--output-format` too.
    const name = arg.split('=', 1)[0]!.replace(/(?<=^--.*)[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    if (OWNED_BY_THE_ACTION.includes(name)) {
      throw new ActionInputError(`extra-args: ${name} is set by the action itself (the run's files are in the run-dir output; use stdin-file for standard input)`);
    }
  }
  return args;
}

/** Words of a POSIX shell line: '…' literal, "…" with \" \\ \$ \` escapes, \x outside quotes; no expansion. */
export function splitShellWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new ActionInputError(`extra-args: a single quote at character ${i + 1} is never closed`);
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`\n'.includes(text[j + 1]!)) j++;
        word += text[j];
      }
      if (j >= text.length) throw new ActionInputError(`extra-args: a double quote at character ${i + 1} is never closed`);
      inWord = true;
      i = j;
    } else if (c === '\\') {
      if (i + 1 < text.length && text[i + 1] !== '\n') word += text[i + 1];
      inWord = inWord || text[i + 1] !== '\n';
      i++;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
