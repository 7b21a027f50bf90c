// gh aliases, for deny rules. `gh alias set co '!rm -rf d'` (or `--shell`) makes a later `gh co`
// run `rm -rf d` with sh, and `gh alias set m 'pr merge'` makes `gh m 1` run `gh pr merge 1`: no
// word of that later line names what runs. So an alias the line writes is checked as if it ran
// (what it runs is refused where it is written), and `gh NAME` is checked as what gh's
// configuration (config.yml's `aliases:`) expands it to. `gh alias import` brings in aliases
// unseen: refused. gh's editor, pager and browser, which `gh config set` writes, are programs a
// later call runs: checked where written too. `gh extension install|create|exec` sets up or runs a
// program no rule sees: refused. What was set up before the run counts too: the browser config.yml
// already names is checked with every gh call (`--web`, `gh browse` start it; gh starts its editor
// and pager only at a terminal, which no call has), and `gh NAME` naming an installed extension is
// refused. Only read when deny rules exist and the line runs gh.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzeShellCommand } from './shell-analyze.js';
import { deniableCommands, type DenyCandidate } from './shell-rules.js';
import { yaml } from '../util/yaml.js';

type Expanded = { ok: true; candidates: DenyCandidate[] } | { ok: false; reason: string };

const isGh = (word: string | undefined) => path.posix.basename(word ?? '').toLowerCase() === 'gh';

/** `candidates` and every command the gh aliases they write or call expand to, or why that cannot be told. */
export async function withGhAliases(candidates: readonly DenyCandidate[]): Promise<Expanded> {
  const calls = candidates.flatMap(({ argv }) => argv.flatMap((word, i) => (isGh(word) ? [argv.slice(i)] : [])));
  if (calls.length === 0) return { ok: true, candidates: [...candidates] };
  const all = [...candidates];
  let configured: Configured | { problem: string } | null = null;
  for (const gh of calls) {
    const scripts: Array<[script: string, source: string]> = [];
    // An extension is a program gh runs as `gh NAME`, fetched or written out of sight: no deny rule sees what it runs.
    const [group, action] = gh.slice(1).filter((word) => !word.startsWith('-'));
    if (/^ext(ension)?s?$/.test(group ?? '') && /^(install|create|exec)$/.test(action ?? '')) {
      return { ok: false, reason: `'gh ${group} ${action}' sets up or runs a gh extension, a program whose commands cannot be checked against the deny rules` };
    }
    if (gh[1] === 'alias' && gh[2] === 'import') return { ok: false, reason: "'gh alias import' brings in gh aliases that later gh calls run, which cannot be checked; set each with 'gh alias set'" };
    if (gh[1] === 'alias' && gh[2] === 'set') {
      const words = gh.slice(3);
      const shell = words.some((word) => word === '--shell' || word === '-s');
      const [name, value] = words.filter((word) => word === '-' || !word.startsWith('-'));
      // `-` reads the expansion from stdin, out of sight.
      if (value === '-') return { ok: false, reason: `'gh alias set ${name} -' reads what the alias runs from stdin, which cannot be checked; give it in the line` };
      if (name !== undefined && value !== undefined) scripts.push([script(value, shell, []), `the gh alias '${name}' the line writes, '${value}'`]);
    } else if (gh[1] === 'config' && gh[2] === 'set') {
      // The editor, pager and browser are programs later gh calls run: checked where written.
      const words = gh.slice(3).filter((word, i, all) => !word.startsWith('-') && !/^(-h|--host)$/.test(all[i - 1] ?? ''));
      const [key, value] = words;
      if (key !== undefined && value !== undefined && /^(editor|pager|browser)$/i.test(key)) scripts.push([value, `gh's ${key} the line sets, '${value}'`]);
    } else if (gh[1] !== undefined && /^[\w-]+$/.test(gh[1])) {
      configured ??= readConfiguredAliases();
      if ('problem' in configured) return { ok: false, reason: configured.problem };
      const value = configured.aliases.get(gh[1]);
      if (value !== undefined) scripts.push([script(value, false, gh.slice(2)), `the gh alias '${gh[1]}' from gh's configuration, '${value}'`]);
      // gh runs an installed extension for a name that is none of its own commands (which no extension may take).
      else if (existsSync(path.join(extensionsDirectory(), `gh-${gh[1]}`))) {
        return { ok: false, reason: `'gh ${gh[1]}' runs the installed gh extension gh-${gh[1]}, a program whose commands cannot be checked against the deny rules` };
      }
      // The browser set before the run: any gh call may start it (--web, gh browse).
      for (const program of configured.browsers) scripts.push([program, `gh's browser from gh's configuration, '${program}'`]);
    }
    for (const [text, source] of scripts) {
      const analysis = await analyzeShellCommand(text);
      if (!analysis.ok) return { ok: false, reason: `${source} runs what cannot be checked: ${analysis.reason}` };
      const nested = await deniableCommands(analysis, 1);
      if (!nested.ok) return { ok: false, reason: `${source} runs what cannot be checked: ${nested.reason}` };
      all.push(...nested.candidates);
    }
  }
  return { ok: true, candidates: all };
}

/** What gh runs for an alias: with `!` (or set with --shell) a sh script given the words as "$@", else `gh VALUE WORDS`. */
function script(value: string, shell: boolean, rest: readonly string[]): string {
  const words = rest.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  if (shell || value.startsWith('!')) return `${value.replace(/^!/, '')} ${words}`.trim();
  return `gh ${value} ${words}`.trim();
}

interface Configured {
  aliases: Map<string, string>;
  /** The browsers config.yml names, at the top and for each host. */
  browsers: string[];
}

/** Where gh installs extensions (XDG_DATA_HOME/gh/extensions, ~/.local/share/gh/extensions). */
function extensionsDirectory(): string {
  return path.join(process.env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share'), 'gh', 'extensions');
}

/** The browser a config.yml section names (an empty value is gh's default). */
function browserOf(section: unknown): string[] {
  const value = section && typeof section === 'object' ? (section as Record<string, unknown>).browser : undefined;
  return typeof value === 'string' && value.trim() !== '' ? [value] : [];
}

/** config.yml's `aliases:` and programs where gh reads it (GH_CONFIG_DIR, XDG_CONFIG_HOME/gh, ~/.config/gh); empty when there is none. */
function readConfiguredAliases(): Configured | { problem: string } {
  const directory = process.env.GH_CONFIG_DIR || path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'gh');
  const file = path.join(directory, 'config.yml');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { aliases: new Map(), browsers: [] };
    return { problem: `gh aliases in '${file}' could not be read (${(error as Error).message}), so what a gh call runs cannot be checked` };
  }
  try {
    const config = yaml().parse(text) as { aliases?: unknown; hosts?: unknown } | null;
    const aliases = config?.aliases;
    const found = new Map<string, string>();
    if (aliases && typeof aliases === 'object') for (const [name, value] of Object.entries(aliases)) if (typeof value === 'string') found.set(name, value);
    const hosts = config?.hosts && typeof config.hosts === 'object' ? Object.values(config.hosts) : [];
    return { aliases: found, browsers: [...browserOf(config), ...hosts.flatMap(browserOf)] };
  } catch (error) {
    return { problem: `gh aliases in '${file}' could not be read (${(error as Error).message}), so what a gh call runs cannot be checked` };
  }
}
