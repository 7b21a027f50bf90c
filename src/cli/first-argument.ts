// `unattended run X` and `unattended X`: is X a recipe or the prompt? Peers take a positional prompt
// (`claude "…"`, `gemini "…"`, `codex exec "…"`), and so do we, without ever guessing silently:
// an existing file or a *.yaml/*.yml name is a recipe; words that cannot be a path are the prompt;
// a single path-like word that names nothing gets a hint instead of a guess.
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../types/errors.js';
import { closest } from '../recipe/suggest.js';
import { COMMANDS, SUBCOMMANDS } from './command-names.js';

export type FirstArgument = { kind: 'recipe'; file: string } | { kind: 'prompt'; text: string } | { kind: 'none' };

const RECIPE_NAME = /\.ya?ml$/i;
/** One word that reads as a file name or path: `a/b`, `./x`, `~/x`, `notes.md`, `C:\x`. */
const PATH_LIKE = /^(?:[.~]|[A-Za-z]:[\\/])|[\\/]|\.[A-Za-z0-9]{1,8}$/;

/** One word that reads as a path (and so is never taken for a prompt). */
export function looksLikePath(value: string): boolean {
  return !/\s/.test(value) && PATH_LIKE.test(value);
}

/** `words` are the further positional words of an unquoted prompt (`unattended fix the typo`). */
export function classifyFirstArgument(first: string | undefined, words: readonly string[], cwd: string): FirstArgument {
  if (first === undefined || first === '') {
    if (words.length) return { kind: 'prompt', text: words.join(' ') };
    return { kind: 'none' };
  }
  const stat = fs.statSync(path.resolve(cwd, first), { throwIfNoEntry: false });
  const oneWord = !/\s/.test(first);
  // A pipe or device is a recipe too: `unattended run <(cat r.yaml)` names /dev/fd/63, a FIFO,
  // which the recipe reader reads once (validate already took it).
  const readable = stat !== undefined && (stat.isFile() || stat.isFIFO() || stat.isCharacterDevice());
  if (readable || (oneWord && RECIPE_NAME.test(first))) {
    if (words.length) {
      throw new InputError(
        `'${words.join(' ')}' after the recipe ${first} is not understood`,
        `give the task with --prompt "…" (it replaces the recipe's prompt), or quote the whole prompt`,
      );
    }
    return { kind: 'recipe', file: first };
  }
  if (stat?.isDirectory()) {
    throw new InputError(
      `'${first}' is a directory, neither a recipe file nor a prompt`,
      `to work in it, pass --workspace ${first}; give the task with -p "…"`,
    );
  }
  if (words.length === 0 && SLASH_COMMAND.test(first)) throw slashCommand(first, cwd);
  if (words.length === 0 && looksLikePath(first)) {
    throw new InputError(
      `'${first}' looks like a file, but there is none at ${path.resolve(cwd, first)}`,
      `if it is a recipe, check the path; if it is the prompt, pass it with -p '${first}'`,
    );
  }
  const recipe = words.length === 0 && oneWord ? recipeOfThatName(first, cwd) : null;
  if (recipe !== null) {
    throw new InputError(`'${first}' names no file, but the recipe ${recipe} is here`, `to run it: unattended run ${recipe}; if '${first}' is the task: unattended -p '${first}'`);
  }
  return { kind: 'prompt', text: [first, ...words].join(' ') };
}

/** `--recipe` typed (goose's flag, which names the recipe here too), before any `--`. */
export function recipeFlagTyped(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((word) => word === '--recipe' || word.startsWith('--recipe='));
}

/**
 * `--recipe NAME`: a recipe, never the prompt (the positional's rule made `--recipe fix-lint` a
 * run whose prompt was "fix-lint"). A name with no file of its own is looked up as goose looks a
 * recipe up in the current directory, NAME.yaml, NAME.yml or NAME.json; none is refused.
 */
export function recipeFlagArgument(value: string, words: readonly string[], cwd: string): FirstArgument {
  const stat = fs.statSync(path.resolve(cwd, value), { throwIfNoEntry: false });
  let file = value;
  // A directory of that name (a recipe's workspace beside it, `demo/` and demo.yaml) is not the recipe.
  if (!RECIPE_NAME.test(value) && !/\.json$/i.test(value) && (stat === undefined || stat.isDirectory())) {
    const names = ['.yaml', '.yml', '.json'].map((ext) => `${value}${ext}`);
    const found = names.find((name) => fs.statSync(path.resolve(cwd, name), { throwIfNoEntry: false })?.isFile());
    if (found === undefined && stat === undefined) {
      throw new InputError(
        `--recipe ${value}: no recipe there (looked for ${[value, ...names].join(', ')} in ${cwd})`,
        `name the recipe file (unattended run path/to/recipe.yaml); a task is given with -p '…'`,
      );
    }
    file = found ?? value;
  }
  const first = classifyFirstArgument(file, words, cwd);
  return first.kind === 'recipe' ? first : { kind: 'recipe', file };
}

/**
 * One word with no file of its own beside a recipe of that name (`unattended fix-lint`, with
 * fix-lint.yaml here): the recipe's name typed without its extension, as `goose run --recipe
 * fix-lint` takes it, more likely than a task of one word; neither is guessed.
 */
function recipeOfThatName(first: string, cwd: string): string | null {
  return ['.yaml', '.yml'].map((ext) => `${first}${ext}`).find((name) => fs.statSync(path.resolve(cwd, name), { throwIfNoEntry: false })?.isFile()) ?? null;
}

/** `/review`, `/git:commit`: a slash command, as `claude -p "/review"` and Gemini CLI run them. */
const SLASH_COMMAND = /^\/[A-Za-z][\w-]*(?::[\w-]+)*$/;

/** Where Claude Code, Gemini CLI and Qwen Code keep a project's custom command of that name (`a:b` is `a/b`). */
const CUSTOM_COMMAND_FILES = ['.claude/commands/NAME.md', '.gemini/commands/NAME.toml', '.qwen/commands/NAME.toml', '.qwen/commands/NAME.md'];

/**
 * `unattended /review`: no file of that name, and no slash commands here. The path hint alone ("pass
 * it with -p '/review'") would send the model the bare word, without the command's text the user
 * meant; so the refusal says what runs a custom command's text here, naming its file when the
 * repository has one.
 */
function slashCommand(first: string, cwd: string): InputError {
  const name = first.slice(1).replaceAll(':', '/');
  const file = CUSTOM_COMMAND_FILES.map((f) => f.replace('NAME', name)).find((f) => fs.statSync(path.resolve(cwd, f), { throwIfNoEntry: false })?.isFile());
  const how = !file
    ? `give the task itself: unattended -p '…' (a recipe keeps a task to run again: unattended run task.yaml)`
    : file.endsWith('.md')
      ? `its text is the prompt here: unattended -p "$(cat ${file})"`
      : `the prompt = '…' of ${file} is the prompt here: unattended -p '…' (or a recipe's prompt:)`;
  return new InputError(
    `'${first}' names no file (none at ${path.resolve(cwd, first)}), and unattended has no slash commands${file ? ` (${file} is a custom command of another agent)` : ''}`,
    `${how}; if it is a recipe, check the path`,
  );
}

/**
 * With no command named (`unattended WORD …`), a first word a letter or two off a command, alone
 * or before a recipe file, is a mistyped command (`unattended valdiate recipe.yaml`), not a task:
 * as a prompt it would start a paid run. Refused with the likely command; a prompt that means it
 * is given with -p.
 */
export function refuseMistypedCommand(first: string | undefined, words: readonly string[], cwd: string): void {
  if (first === undefined || /\s/.test(first) || looksLikePath(first)) return;
  const next = words[0];
  // What follows a command: nothing, a recipe or run directory, or a subcommand (`policy check`).
  if (next !== undefined && !RECIPE_NAME.test(next) && !SUBCOMMANDS.has(next) && !fs.existsSync(path.resolve(cwd, next))) return;
  // One letter off for a short word (`revert` is no `report`), two for a long one (`valdiate`).
  const command = closest(first, COMMANDS, first.length < 7 ? 1 : 2);
  if (command === null) return;
  const whole = [first, ...words].join(' ');
  throw new InputError(`'${first}' is not a command (did you mean '${command}'?)`, `for that: unattended ${[command, ...words].join(' ')}; for a task: unattended -p '${whole}'`);
}

/**
 * Other agents' management commands (`claude mcp list`, `gemini extensions list`, `claude doctor`,
 * `goose session list`), typed here from habit: taken as a prompt, `unattended mcp list` started a
 * paid run on the task "mcp list". Each with the words that may follow it.
 */
const PEER_COMMANDS: Readonly<Record<string, { peer: string; subcommands: readonly string[]; here: string }>> = {
  mcp: {
    peer: "another agent's (Claude Code, Gemini CLI, Codex, goose)",
    subcommands: ['list', 'add', 'add-json', 'add-from-claude-desktop', 'get', 'remove', 'serve', 'reset-project-choices', 'login', 'logout'],
    here: "here MCP servers come with --mcp-config FILE (the mcpServers JSON) or a recipe's mcp_servers, and unattended tools --mcp-config FILE lists the tools a run would offer",
  },
  extensions: {
    peer: "Gemini CLI's",
    subcommands: ['list', 'install', 'uninstall', 'update', 'enable', 'disable', 'link', 'new'],
    here: "here MCP servers come with --mcp-config FILE (the mcpServers JSON) or a recipe's mcp_servers, and unattended tools --mcp-config FILE lists the tools a run would offer",
  },
  doctor: { peer: "Claude Code's", subcommands: [], here: 'here unattended validate RECIPE checks a recipe, and unattended tools [RECIPE] lists the tools a run would offer' },
  config: { peer: "another agent's", subcommands: ['get', 'set', 'list', 'add', 'remove'], here: "here settings are flags (-m NAME, --approval, --sandbox, ...) or a recipe's keys: no config file is read" },
  configure: { peer: "goose's", subcommands: [], here: "here settings are flags (-m NAME, --approval, --sandbox, ...) or a recipe's keys: no config file is read" },
  login: { peer: "another agent's", subcommands: [], here: 'here the key comes from the environment: GEMINI_API_KEY, ANTHROPIC_API_KEY or OPENAI_API_KEY, for the provider that reads it' },
  logout: { peer: "another agent's", subcommands: [], here: 'here the key comes from the environment (GEMINI_API_KEY, ANTHROPIC_API_KEY, OPENAI_API_KEY): unset it' },
  'setup-token': { peer: "Claude Code's", subcommands: [], here: 'here the key comes from the environment: ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)' },
  session: { peer: "goose's", subcommands: ['list', 'remove', 'export'], here: "here each run's record is its directory under .unattended/runs: unattended report RUN_DIR renders one, unattended run --continue RUN_DIR goes on from it" },
  resume: { peer: "Codex's", subcommands: [], here: 'here that is unattended run --continue (the latest run started here), or --continue RUN_DIR' },
  update: { peer: "another agent's (Claude Code, goose)", subcommands: [], here: 'unattended does not update itself: update it as it was installed (npm install -g unattended@latest)' },
  upgrade: { peer: "another agent's", subcommands: [], here: 'unattended does not update itself: update it as it was installed (npm install -g unattended@latest)' },
  info: { peer: "goose's", subcommands: [], here: 'here unattended --version prints the version, and unattended tools [RECIPE] the tools a run would offer' },
};

/**
 * `unattended exec "…"`, Codex's non-interactive command, typed from habit: taken as the prompt it
 * would start a paid run on "exec …". Refused with the command that does it here, as another
 * tool's flags are (peer-flags.ts): the README's rule is that a peer's words are answered, never
 * taken as ours. `resume --last` after it is Codex's --continue.
 */
export function refusePeerCommand(first: string | undefined, words: readonly string[]): void {
  const other = first !== undefined && Object.hasOwn(PEER_COMMANDS, first) ? PEER_COMMANDS[first]! : null;
  // Only the command's own shape (`mcp list`, `doctor` alone): `unattended config the linter` is a task.
  if (other && (words.length === 0 || other.subcommands.includes(words[0]!))) {
    const typed = [first, ...words.slice(0, 1)].join(' ');
    throw new InputError(`'${typed}' is ${other.peer} command, not one of ours: as a prompt it would start a run`, `${other.here} (a task that starts with the word: unattended -p '${[first, ...words].join(' ')}')`);
  }
  if (first !== 'exec') return;
  const quote = (w: string) => (/^[\w./:=@%+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
  const resume = words[0] === 'resume';
  const rest = (resume ? words.slice(1).filter((w) => w !== '--last') : words).map(quote).join(' ');
  const here = resume ? `unattended run --continue${rest ? ` ${rest}` : ''}` : `unattended run${rest ? ` ${rest}` : ' "…"'}`;
  throw new InputError(`'exec' is Codex's command, not one of ours`, `here that is: ${here} (a task that starts with the word: unattended -p 'exec …')`);
}
