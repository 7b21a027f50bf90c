// Unquoted globs, expanded against the files before the deny rules see the line (allow rules
// approve literal commands only: under them a glob stays refused, shell-words.ts). bash replaces
// `rm *.o` by the names it matches before rm runs, and those names are the repository's: a file
// named `-rf` makes `rm *` a `rm -rf`. So the policy reads the same directory bash will and judges
// the words bash will pass (glob-match.ts). That holds only when nothing changes the directory
// between the check and the expansion: the call runs right after its check, alone (loop/calls.ts),
// but an earlier command of the same line, or one beside it in a pipeline, may make or rename
// files first; a glob is expanded only where every such command is one that writes nothing.
import path from 'node:path';
import type { ShellAnalysis, ShellCommand } from './shell-analyze.js';
import { expandGlob, MAX_GLOB_ENTRIES } from './glob-match.js';

/** Programs that create, rename or remove no file and change no directory (bare names, without a redirection). */
const WRITE_NOTHING: ReadonlySet<string> = new Set([
  'ls', 'cat', 'grep', 'egrep', 'fgrep', 'wc', 'head', 'echo', 'printf', 'pwd', 'true', 'false', ':', 'test', '[',
]);

/** `analysis` (read with globs) with each glob replaced by the words bash passes, or why that cannot be told. */
export async function expandLineGlobs(analysis: ShellAnalysis, directory: string): Promise<ShellAnalysis> {
  if (!analysis.ok || !analysis.commands.some(hasGlob)) return analysis;
  const budget = { entries: MAX_GLOB_ENTRIES };
  const commands: ShellCommand[] = [];
  for (const [index, command] of analysis.commands.entries()) {
    if (!hasGlob(command)) {
      commands.push(command);
      continue;
    }
    const writer = writerBefore(analysis, index);
    if (writer !== null) {
      const glob = command.words.find((word) => word.glob !== undefined)!.value;
      return { ok: false, reason: `the glob '${glob}' is expanded when '${command.text}' starts, and '${writer}', which runs before or beside it, may make or rename files first, so the names it stands for cannot be seen before the line runs; run the glob in a call of its own, or name the files` };
    }
    const words: ShellCommand['words'] = [];
    for (const word of command.words) {
      if (word.glob === undefined) {
        words.push(word);
        continue;
      }
      const expanded = expandGlob(word.glob, word.value, path.resolve(directory), budget);
      if (!expanded.ok) return { ok: false, reason: `the glob '${word.value}' cannot be expanded as bash would: ${expanded.reason}` };
      // A name bash puts there is one word, never a keyword, never expanded again.
      for (const value of expanded.words) words.push({ value, quoted: true });
    }
    commands.push({ ...command, words, argv: words.map((word) => word.value) });
  }
  return { ...analysis, commands };
}

function hasGlob(command: ShellCommand): boolean {
  return command.words.some((word) => word.glob !== undefined);
}

/** The text of a command that runs before or beside `analysis.commands[index]` and may write files, or null. */
function writerBefore(analysis: Extract<ShellAnalysis, { ok: true }>, index: number): string | null {
  const { commands, redirects } = analysis;
  // Beside it: the rest of its pipeline starts at the same time.
  let end = index + 1;
  while (end < commands.length && commands[end]!.connector === '|') end++;
  for (let i = 0; i < end; i++) {
    if (i === index) continue;
    const command = commands[i]!;
    const redirected = redirects.some((redirect) => redirect.command === i && redirect.kind === 'write');
    if (redirected || !WRITE_NOTHING.has(command.argv[0] ?? '') || command.words[0]?.quoted) return command.text;
  }
  return null;
}
