// Arguments of an allowed command that name files must stay inside the workspace, like the file
// tools' paths. Path-like words (absolute, with a `/` anywhere, starting with `~`) and words that
// name an existing entry (which may be a symbolic link leading out) are resolved through the
// workspace from every directory the command may run in, each `..` after the link before it as
// the kernel takes it (Workspace.resolvePhysically): a file that does not exist yet under a
// symbolic link the repository ships (`cp x out/new` with `out` leading out) is outside too. Protected paths (.git, workflows, the
// recipe, the run output) are as closed to shell as to the file tools: the policy cannot tell
// whether `cp x .git/config` reads or writes a word, so any word reaching one is refused unless
// the allow rule that matched spells the protected path out itself.
import fs from 'node:fs';
import path from 'node:path';
import type { PathPattern } from '../recipe/rules.js';
import type { Workspace } from '../util/workspace.js';
import { patternNamesPrefix, protectedPrefix } from './protected-paths.js';
import type { ShellCommand, ShellRedirect } from './shell-analyze.js';
import { clip } from './clip.js';
import { bindMountHosts, optionValues, pathCandidates as candidates } from './shell-options.js';
import { followedLinkProblem, followsLinks } from './shell-follow-links.js';
import { makesNoLinks } from './link-makers.js';
import { nonPathArguments } from './shell-operands.js';
import { extractsNames } from './shell-extractors.js';
import { wordDirectories } from './command-directories.js';
import { unseenWriteProblem } from './unseen-writes.js';
import { commandWords } from './shell-opened.js';
import { namesPrinted, type PipedNames } from './piped-names.js';
import { inputNamesProblem, nameReader } from './input-names.js';
import { oddNameProblem } from './odd-names.js';


/** A deny rule of the file tools, as redirections are held to it: a path glob, or null for the bare tool. */
export interface WriteDenyRule {
  source: string;
  matcher: PathPattern | null;
}

/** Files outside the workspace a redirection may name: the bit bucket and the command's own streams. */
const HARMLESS_DEVICES: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);


interface Scope {
  current: string[];
  chain: string[] | null;
  pipeline: string[];
  start: string[];
}

/**
 * Tracks the directories each command of a line may run in. `cd sub && ls` runs `ls` in `sub`
 * only; after `;` or `||` (where cd may have failed or been skipped) and in a pipeline (a
 * subshell), a command may run in any directory seen so far.
 */
export class ShellDirectories {
  /** Every directory a command of the line may have run in: redirections are checked from all. */
  private readonly all: string[];
  private scope: Scope;
  private readonly outer: Scope[] = [];
  /** The first command of the line that may make symbolic links, and what it and later such commands name. */
  private linkMaker: string | null = null;
  private readonly named = new Map<string, string>();
  /** Directories the command being checked takes words from besides where it runs (command-directories.ts). */
  private further: ReadonlySet<string> = new Set();
  /** The words that name those directories (`-C DIR`): taken from where the command runs only. */
  private fromHere: ReadonlySet<number> = new Set();
  /** Commands begun so far, nested scripts included: when each command of the line starts. */
  private begun = 0;
  /** Commands that create entries under names their archive or commit holds (shell-extractors.ts), with when they start. */
  private readonly extractors: Array<{ at: number; text: string }> = [];
  /** What the command begun last prints, as names xargs may read (piped-names.ts), and what the one begun now reads. */
  private printed: PipedNames | null = null;
  private feeding: PipedNames | null = null;
  /** What each `bash -c` script entered reads: its commands share the stdin of the shell. */
  private readonly scriptInputs: Array<PipedNames | null> = [];

  constructor(
    private readonly workspace: Workspace,
    private readonly start: string,
    /** Workspace-relative protected prefixes beyond .git and workflows (protectedPrefixes()). */
    private readonly protectedExtra: readonly string[] = [],
    /** The write_file/edit deny rules, which a redirection that writes must respect too. */
    private readonly writeDenyRules: readonly WriteDenyRule[] = [],
  ) {
    this.all = [start];
    this.scope = { current: [start], chain: null, pipeline: [start], start: [start] };
  }

  /** Called before each command is judged: where it may run, from what joins it to the one before. */
  begin(command: ShellCommand): void {
    const s = this.scope;
    const connector = command.connector ?? ';';
    if (connector === 'start') {
      s.current = s.start;
      s.chain = null;
    } else if (connector === '&&') {
      s.current = s.chain ?? [...this.all];
    } else if (connector === '|') {
      s.current = s.pipeline;
    } else {
      s.current = [...this.all];
      s.chain = null;
    }
    if (connector !== '|') s.pipeline = s.current;
    this.begun++;
    // The runner's shells get no stdin: a command reads what the one before it in a pipeline prints, or its script's stdin.
    this.feeding = connector === '|' ? this.printed : (this.scriptInputs.at(-1) ?? null);
    // Until check() reads it (a script, a command no rule needed), it may print anything.
    this.printed = { kind: 'unknown', what: `the output of '${clip(command.text)}'` };
  }

  /** When the command begun last starts, for checkRedirect. */
  get started(): number {
    return this.begun;
  }

  /** `bash -c 'script'`: its commands run where the shell does, and its cd stays inside it. */
  enterScript(): void {
    this.outer.push(this.scope);
    this.scriptInputs.push(this.feeding);
    const here = this.scope.current;
    this.scope = { current: here, chain: null, pipeline: here, start: here };
  }

  leaveScript(): void {
    this.scope = this.outer.pop() ?? this.scope;
    this.scriptInputs.pop();
    this.printed = { kind: 'unknown', what: 'the output of a script' };
  }

  private get directories(): string[] {
    return this.scope.current;
  }

  /** Why `p` reaches a protected path from one of the directories (no rule spells one out for a guard), or null. */
  protectedPath(program: string, p: string): string | null {
    return this.protectedProblem(program, p, p, []);
  }

  /** Why `p` leads outside the workspace from one of the directories, or null. */
  outsideWorkspace(p: string, directories: readonly string[] = this.directories): string | null {
    for (const directory of directories) {
      const resolved = this.workspace.resolvePhysically(directory, p);
      if (!resolved.ok) return resolved.reason + this.from(directory);
    }
    return null;
  }

  /** A path for reasons: relative to the workspace root when inside it. */
  private shown(p: string): string {
    const relative = path.relative(this.workspace.root, p);
    return relative === '' ? '.' : relative.startsWith('..') ? p : relative;
  }

  /** Names the directory a word was taken from, when an earlier cd led there. */
  private from(directory: string): string {
    if (directory === this.start) return '';
    const relative = path.relative(this.workspace.root, directory) || '.';
    if (this.further.has(directory)) return ` (taken from '${relative}', where the command's -C, its repository's top or a link's directory is)`;
    return ` (taken from '${relative}', where an earlier cd of the line leads)`;
  }

  /**
   * A problem with a path argument of `command`, or null. `ruleWords` are the words of the allow
   * rule that matched: only they can open a protected path. Records `cd` targets for later commands.
   */
  check(command: ShellCommand, ruleWords: readonly string[] = [], stdinFile: string | null = null, stdinText: string | null = null): string | null {
    const input: PipedNames | null = stdinText !== null ? { kind: 'words', text: stdinText } : stdinFile !== null ? { kind: 'unknown', what: `the text of '${stdinFile}'` } : this.feeding;
    this.printed = namesPrinted(command.argv, input);
    // Words taken from another directory too (`tar -C`, `git -C`, ln -s's target): checked from each.
    const current = this.scope.current;
    const elsewhere = wordDirectories(command.argv, current, this.workspace.root);
    const further = elsewhere.directories.filter((directory) => !current.includes(directory));
    if (further.length) this.scope.current = [...current, ...further];
    this.further = new Set(further);
    this.fromHere = elsewhere.fromHere;
    let problem: string | null;
    try {
      problem =
        this.checkArguments(command, ruleWords, input) ??
        unseenWriteProblem(command.argv, stdinFile, {
          workspace: this.workspace,
          protectedExtra: this.protectedExtra,
          runDirectories: this.directories.filter((directory) => !this.further.has(directory)),
          further: [...this.further],
          from: (directory) => this.from(directory),
          shown: (p) => this.shown(p),
        });
    } finally {
      this.scope.current = current;
      this.further = new Set();
      this.fromHere = new Set();
    }
    const linkless = makesNoLinks(command.argv);
    if (!this.linkMaker && !linkless) this.linkMaker = command.text;
    if (extractsNames(command.argv)) this.extractors.push({ at: this.begun, text: command.text });
    if (!linkless) this.recordNames(command);
    return problem;
  }

  private checkArguments(command: ShellCommand, ruleWords: readonly string[], input: PipedNames | null): string | null {
    const [program, ...args] = command.argv;
    if (program === 'cd' || program === 'pushd') return this.changeDirectory(command, args);
    if (program === 'popd') return 'popd returns to a directory the policy cannot know';
    const notPaths = nonPathArguments(command.argv);
    // After an extractor, the names each word may open (shell-opened.ts): a new one may be its
    // link. So may a program run by its path (`./gradlew`), whose words the tables then read.
    const read = this.extractors.length > 0 ? commandWords(command.argv) : null;
    const opened = read?.opened ?? new Map<number, string[]>();
    // What opens the names its input gives it (`xargs cat`, `cpio -o`), or null (input-names.ts).
    const reader = nameReader(command.argv);
    const extractor = this.extractors[0];
    if (extractor && program!.includes('/') && this.directories.some((directory) => !exists(path.resolve(directory, program!)))) {
      return (
        `the program '${program}' does not exist yet, and '${clip(extractor.text)}' earlier in the line may create it as a symbolic link leading anywhere ` +
        `(it writes the names its archive or commit holds); paths are checked before the line runs, so run '${clip(command.text)}' as a call of its own`
      );
    }
    // It, or a command it runs (`xargs grep -R`), follows the links of a tree the extractor may just have filled.
    const follower = extractor && [0, ...read!.runs].find((start) => followsLinks(command.argv.slice(start)));
    if (extractor && follower !== undefined) {
      return (
        `'${command.argv[follower]}' follows symbolic links while it walks a tree, and '${clip(extractor.text)}' earlier in the line may create links there leading anywhere ` +
        `(it writes the names its archive or commit holds); links are checked before the line runs, so run '${clip(command.text)}' as a call of its own`
      );
    }
    if (extractor && reader) {
      return (
        `'${reader}' opens the names it reads, and '${clip(extractor.text)}' earlier in the line may create them as symbolic links leading anywhere ` +
        `(it writes the names its archive or commit holds); paths are checked before the line runs, so run '${clip(command.text)}' as a call of its own`
      );
    }
    if (reader) {
      const problem = inputNamesProblem(command.argv, reader, input, {
        outside: (name) => (this.mayNameFile(name) ? this.outsideWorkspace(name) : null),
        protectedReach: (name) => this.protectedProblem(reader, name, name, ruleWords.slice(1)),
        oddName: (tree, split) => {
          const roots = this.directories.flatMap((directory) => tree.roots.map((root) => path.resolve(directory, root)));
          return oddNameProblem(tree.repository ? [...roots, this.workspace.root] : roots, split, tree.depth, (p) => this.shown(p));
        },
      });
      if (problem) return problem;
    }
    for (const [index, arg] of args.entries()) {
      if (notPaths.has(index + 1) || HARMLESS_DEVICES.has(arg)) continue;
      // A word naming another directory of the command (`-C DIR`) is taken from where it runs only.
      const problem = this.fromHere.has(index + 1) ? this.fromRunDirectories(() => this.checkWord(program!, arg, index, command, ruleWords, opened)) : this.checkWord(program!, arg, index, command, ruleWords, opened);
      if (problem) return problem;
    }
    // A link below a path it walks is no argument, but `grep -R` and the like go where it leads.
    const operands = args.filter((arg, index) => !notPaths.has(index + 1) && !arg.startsWith('-'));
    return followedLinkProblem(command.argv, operands, this.directories, this.workspace);
  }

  /** One argument (argv[index + 1]) of `command`: where it may lead, what made it earlier in the line, protected paths. */
  private checkWord(program: string, arg: string, index: number, command: ShellCommand, ruleWords: readonly string[], opened: ReadonlyMap<number, string[]>): string | null {
    const opens = opened.get(index + 1) ?? [];
    const named = packagePatternDirectory(arg);
    // An option (`--version`) is no file, unless a `--` before it made it an operand: another
    // command of the line naming the same option makes no link there.
    const option = arg.startsWith('-') && !command.argv.slice(1, index + 1).includes('--');
    for (const candidate of new Set([...this.candidates(arg).map(packagePatternDirectory), ...opens])) {
      if (candidate === '') continue;
      const later = option && candidate === arg ? null : this.madeEarlier(program, arg, candidate, command.text, opens.includes(candidate), /^-/.test(command.argv[index] ?? ''));
      if (later) return later;
      if (this.mayNameFile(candidate)) {
        const outside = this.outsideWorkspace(candidate);
        if (outside && candidate === named) return `the argument '${arg}' of '${program}' leads outside the workspace: ${outside}`;
        const how = arg.includes(`@${candidate}`)
          ? "with '@'"
          : /(?:file|link):/i.test(arg) && arg.endsWith(candidate)
            ? 'in a file: or link: URL'
            : [arg, ...candidates(arg)].some((word) => bindMountHosts(word).includes(candidate))
              ? "as a bind mount's host path (docker, podman)"
              : null;
        if (outside && how) return `the argument '${arg}' of '${program}' may name the file '${candidate}' ${how}, which leads outside the workspace: ${outside}`;
        if (outside) {
          return (
            `the argument '${arg}' of '${program}' may hold the path '${candidate}' (the value of an option in it), which leads outside ` +
            `the workspace: ${outside}. If it is not a path, write the option and its value as separate words`
          );
        }
      }
      const refused = this.protectedProblem(program, arg, candidate, ruleWords.slice(1));
      if (refused) return refused;
    }
    return null;
  }

  /** `check` with the command's further directories (`-C`, its repository's top) set aside. */
  private fromRunDirectories(check: () => string | null): string | null {
    const current = this.scope.current;
    this.scope.current = current.filter((directory) => !this.further.has(directory));
    try {
      return check();
    } finally {
      this.scope.current = current;
    }
  }

  /**
   * Paths are checked before the line runs. After a command that may make symbolic links, a path
   * that does not exist yet, or that goes through what such a command named, may lead anywhere
   * by the time a later command uses it (`ln -s /x up && touch up/f`): it is refused.
   */
  private madeEarlier(program: string, arg: string, candidate: string, text: string, opens: boolean, afterOption = false): string | null {
    if (this.linkMaker === null || HARMLESS_DEVICES.has(candidate)) return null;
    const pathLike = isPathLike(candidate);
    const split = `; paths are checked before the line runs, so run '${clip(text)}' as a call of its own, where it is checked against what exists then`;
    for (const directory of this.directories) {
      const lexical = path.resolve(directory, candidate);
      const physical = this.workspace.resolvePhysically(directory, candidate);
      for (const [named, by] of this.named) {
        if ([lexical, physical.ok ? physical.path : null].some((p) => p !== null && (p === named || p.startsWith(named + path.sep)))) {
          return `the argument '${arg}' of '${program}' goes through '${this.shown(named)}', which '${clip(by)}' earlier in the line names and may make a symbolic link leading anywhere${split}`;
        }
      }
      if (pathLike && !exists(path.isAbsolute(candidate) ? candidate : `${directory}/${candidate}`)) {
        return `the argument '${arg}' of '${program}' names '${candidate}', which does not exist yet, and '${clip(this.linkMaker)}' earlier in the line may create it or a directory on its way as a symbolic link leading anywhere${split}`;
      }
      // After an extractor, a name the program opens may be an entry its archive or commit holds:
      // a new one, or one that exists now, which the extractor replaces (tar and git checkout put
      // a link where a file or a directory was). A bare word the program does not open is no file
      // (`npm test && git status`, `head -n 5`).
      const extractor = this.extractors[0];
      if (extractor && opens && !isCurrentDirectory(candidate)) {
        // A value of an option the tables do not know is read as an operand: attached, it is not.
        const attach = afterOption ? `. If '${candidate}' is the value of the option before it, not a file, attach it to the option (-n5, --name=value)` : '';
        const what = exists(path.resolve(directory, candidate)) ? 'which exists now, and $ may replace it with' : 'which does not exist yet, and $ may create it as';
        return (
          `the argument '${arg}' of '${program}' names '${candidate}', ${what.replace('$', `'${clip(extractor.text)}' earlier in the line`)} ` +
          `a symbolic link leading anywhere (it writes the names its archive or commit holds)${split}${attach}`
        );
      }
    }
    return null;
  }

  private recordNames(command: ShellCommand): void {
    for (const arg of command.argv.slice(1)) {
      for (const candidate of this.candidates(arg)) {
        if (candidate === '' || HARMLESS_DEVICES.has(candidate)) continue;
        for (const directory of this.directories) {
          for (const p of [path.resolve(directory, candidate), this.workspace.resolvePhysically(directory, candidate)]) {
            const key = typeof p === 'string' ? p : p.ok ? p.path : null;
            if (key !== null && !this.named.has(key)) this.named.set(key, command.text);
          }
        }
      }
    }
  }

  /** Any word may name a file that does not exist yet (`cp x .git/hooks/pre-commit`), so every word is resolved. */
  private protectedProblem(program: string, arg: string, candidate: string, ruleWords: readonly string[]): string | null {
    for (const directory of this.directories) {
      const resolved = this.workspace.resolvePhysically(directory, candidate);
      if (!resolved.ok) continue; // words that cannot be resolved cannot reach a protected path either
      const prefix = protectedPrefix(resolved.relative, this.protectedExtra);
      if (prefix === null || this.ruleNames(ruleWords, prefix, directory)) continue;
      return (
        `the argument '${arg}' of '${program}' reaches '${resolved.relative || '.'}', which is protected ('${prefix || '.'}' is ` +
        `never touched by shell, even to read, unless the allow rule that matches the command spells it out)${this.from(directory)}`
      );
    }
    return null;
  }

  private ruleNames(ruleWords: readonly string[], prefix: string, directory: string): boolean {
    return ruleWords.some((word) =>
      candidates(word).some((candidate) => {
        if (candidate === '') return false;
        if (patternNamesPrefix(candidate, prefix)) return true;
        const resolved = this.workspace.resolvePhysically(directory, candidate);
        return resolved.ok && patternNamesPrefix(resolved.relative, prefix);
      }),
    );
  }

  /**
   * A problem with a redirection, or null. Files written or read must be inside the workspace and
   * outside protected paths (whatever the rule says: a rule names a command, not where its output
   * goes); `/dev/null` and the command's own `/dev/stdout` and `/dev/stderr` are always fine.
   * Redirections are checked from every directory the line may be in.
   */
  checkRedirect(redirect: ShellRedirect, openedAt = 0): string | null {
    if (redirect.kind !== 'write' && redirect.kind !== 'read') return null;
    if (HARMLESS_DEVICES.has(redirect.path)) return null;
    const verb = redirect.kind === 'write' ? 'writes' : 'reads';
    if (redirect.path === '') return `the redirection '${redirect.text}' names no file`;
    const outside = this.outsideWorkspace(redirect.path, this.all);
    if (outside) return `the redirection '${redirect.text}' ${verb} outside the workspace: ${outside}`;
    for (const directory of this.all) {
      const resolved = this.workspace.resolvePhysically(directory, redirect.path);
      if (!resolved.ok) return `the redirection '${redirect.text}' ${verb} '${redirect.path}': ${resolved.reason}`;
      const lexical = path.resolve(directory, redirect.path);
      for (const [named, by] of this.named) {
        if ([lexical, resolved.path].some((p) => p === named || p.startsWith(named + path.sep))) {
          return (
            `the redirection '${redirect.text}' ${verb} through '${this.shown(named)}', which '${clip(by)}' in the line names and may make a symbolic ` +
            `link leading anywhere; paths are checked before the line runs, so redirect in a call of its own`
          );
        }
      }
      // Bash opens it as its command starts: after an extractor that ran before, the name, or a
      // directory on its way, may be a link the extractor created or put in place of what was there.
      const extractor = this.extractors.find((e) => e.at < openedAt);
      if (extractor) {
        const what = exists(path.resolve(directory, redirect.path)) ? 'which exists now, and $ may replace it, or a directory on its way, with' : 'which does not exist yet, and $ may create it as';
        return (
          `the redirection '${redirect.text}' ${verb} '${redirect.path}', ${what.replace('$', `'${clip(extractor.text)}' earlier in the line`)} ` +
          `a symbolic link leading anywhere (it writes the names its archive or commit holds); paths are checked before the line runs, so redirect in a call of its own`
        );
      }
      const prefix = protectedPrefix(resolved.relative, this.protectedExtra);
      if (prefix !== null) return `the redirection '${redirect.text}' ${verb} '${resolved.relative || '.'}', which is protected ('${prefix || '.'}' is never touched by shell redirections)`;
      if (redirect.kind === 'write') {
        const rule = this.writeDenyRules.find((r) => r.matcher === null || (resolved.relative !== '' && r.matcher.matchNoCase(resolved.relative)));
        if (rule) return `the redirection '${redirect.text}' writes '${resolved.relative}', which the deny rule '${rule.source}' refuses`;
      }
    }
    return null;
  }

  private changeDirectory(command: ShellCommand, args: string[]): string | null {
    const program = command.argv[0]!;
    const operands = args.filter((arg) => arg !== '--');
    const target = operands[0];
    // `+N`/`-N` rotate pushd's stack, which the policy cannot know.
    if (operands.length !== 1 || target === undefined || target.startsWith('-') || /^\+\d+$/.test(target)) {
      return `${program} needs exactly one directory inside the workspace`;
    }
    const later = this.madeEarlier(program, target, target, command.text, true);
    if (later) return later;
    const outside = this.outsideWorkspace(target);
    if (outside) return `${program} ${target} leads outside the workspace: ${outside}`;
    const targets: string[] = [];
    for (const directory of this.directories) {
      const resolved = this.workspace.resolvePhysically(directory, target);
      // bash's cd is logical: after `cd link`, `cd ..` goes back above the link, not above its
      // target, and later words are then taken from somewhere the physical path does not say.
      // So a cd target must not go through a symbolic link at all.
      if (resolved.ok && resolved.path !== path.resolve(directory, target)) {
        return `${program} ${target} goes through a symbolic link: bash's cd keeps the link's path, so where '..' leads after it is not what the policy can check; ${program} to '${this.shown(resolved.path)}' instead`;
      }
      if (resolved.ok && !targets.includes(resolved.path)) targets.push(resolved.path);
    }
    for (const t of targets) if (!this.all.includes(t)) this.all.push(t);
    const s = this.scope;
    // `a || cd x && b` may skip the cd and still run b; a cd in a pipeline runs in a subshell.
    const certain = (command.connector === 'start' || command.connector === ';' || command.connector === '&&' || command.connector === undefined) && !command.piped;
    if (certain) s.chain = targets;
    else if (s.chain) s.chain = [...new Set([...s.chain, ...targets])];
    return null;
  }

  private mayNameFile(candidate: string): boolean {
    if (candidate === '') return false;
    if (isPathLike(candidate)) return true;
    return this.directories.some((directory) => exists(path.resolve(directory, candidate)));
  }

  /** candidates(), plus every value in a short-option cluster that names an existing entry (`cp -tout` holds `out`). */
  private candidates(arg: string): string[] {
    const found = candidates(arg);
    // A value without a `/` counts when it names an existing entry (`cp -tout` with `out` a link).
    if (arg.startsWith('-')) {
      for (const value of optionValues(arg).clustered) {
        if (!found.includes(value) && this.directories.some((directory) => exists(path.resolve(directory, value)))) found.push(value);
      }
    }
    return found;
  }
}

/**
 * What a word names as a path when it is used: a Go package pattern (`./...`, `./pkg/...`) names
 * its directory and what is below it, so that directory is what is checked (no file is named `...`).
 */
function packagePatternDirectory(word: string): string {
  if (word === '...') return '.';
  return word.endsWith('/...') ? word.slice(0, -4) || '/' : word;
}

/** Worth resolving whether or not it exists: it names a place, or a file under a directory. */
function isPathLike(word: string): boolean {
  return path.isAbsolute(word) || word.startsWith('~') || word.includes('/');
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** `.` and `./`: the directory the command runs in, which nothing it or an extractor before it does can make a link. */
function isCurrentDirectory(word: string): boolean {
  return /^\.\/*$/.test(word);
}
