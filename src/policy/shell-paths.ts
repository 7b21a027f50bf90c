// Arguments of an allowed command that name files must stay inside the workspace, like the file
// tools' paths. Path-like words (absolute, with a `..` segment, starting with `~`) and words that
// name an existing entry (which may be a symbolic link leading out) are resolved through the
// workspace from every directory the command may run in.
import fs from 'node:fs';
import path from 'node:path';
import type { Workspace } from '../util/workspace.js';
import type { ShellCommand } from './shell-analyze.js';

/** Tracks the directories a sequence may be in: `cd sub && ls` runs `ls` in `sub` (or, if cd fails, not). */
export class ShellDirectories {
  private readonly directories: string[];

  constructor(
    private readonly workspace: Workspace,
    start: string,
  ) {
    this.directories = [start];
  }

  /** Why `p` leads outside the workspace from one of the directories, or null. */
  outsideWorkspace(p: string): string | null {
    for (const directory of this.directories) {
      const resolved = this.workspace.resolve(path.resolve(directory, p));
      if (!resolved.ok) return resolved.reason;
    }
    return null;
  }

  /** A problem with a path argument of `command`, or null. Records `cd` targets for later commands. */
  check(command: ShellCommand): string | null {
    const [program, ...args] = command.argv;
    if (program === 'cd' || program === 'pushd') return this.changeDirectory(program, args);
    if (program === 'popd') return 'popd returns to a directory the policy cannot know';
    for (const arg of args) {
      for (const candidate of candidates(arg)) {
        if (!this.mayNameFile(candidate)) continue;
        const outside = this.outsideWorkspace(candidate);
        if (outside) return `the argument '${arg}' of '${program}' leads outside the workspace: ${outside}`;
      }
    }
    return null;
  }

  private changeDirectory(program: string, args: string[]): string | null {
    const operands = args.filter((arg) => arg !== '--');
    const target = operands[0];
    if (operands.length !== 1 || target === undefined || target.startsWith('-')) {
      return `${program} needs exactly one directory inside the workspace`;
    }
    const outside = this.outsideWorkspace(target);
    if (outside) return `${program} ${target} leads outside the workspace: ${outside}`;
    for (const directory of [...this.directories]) {
      const resolved = this.workspace.resolve(path.resolve(directory, target));
      if (resolved.ok && !this.directories.includes(resolved.path)) this.directories.push(resolved.path);
    }
    return null;
  }

  private mayNameFile(candidate: string): boolean {
    if (candidate === '') return false;
    if (isPathLike(candidate)) return true;
    return this.directories.some((directory) => exists(path.resolve(directory, candidate)));
  }
}

/** The word, plus the value of `--opt=value` and of `-o/path`-style attached options. */
function candidates(arg: string): string[] {
  const found = [arg];
  const assigned = /^--?[A-Za-z0-9][\w-]*=(.*)$/s.exec(arg);
  if (assigned) found.push(assigned[1]!);
  const attached = /^-[A-Za-z]([/~.].*)$/s.exec(arg);
  if (attached) found.push(attached[1]!);
  return found;
}

function isPathLike(word: string): boolean {
  return path.isAbsolute(word) || word.startsWith('~') || word.split('/').includes('..');
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
