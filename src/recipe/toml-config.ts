// A TOML file where a recipe or an `mcpServers` JSON goes: most likely Codex's `config.toml`
// (`model = …`, `approval_policy = …`, `[mcp_servers.docs]`), which a Codex user reaches for
// first. Read as YAML it is one long string, or a syntax error at line 2 ("unexpected scalar"),
// neither of which says what to write instead: this names the file's kind and the keys here.

/** Settings written `key = value` (YAML writes `key: value`), starting with one or with a `[table]` header. */
export function looksLikeToml(text: string): boolean {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  const setting = (l: string) => /^[A-Za-z0-9_.\-"]+\s*=\s*("|'|\[|\{|true\b|false\b|-?\d)/.test(l);
  const table = (l: string) => /^\[\[?[A-Za-z0-9_.\-"]+\]\]?$/.test(l);
  return lines.length > 0 && (setting(lines[0]!) || table(lines[0]!)) && lines.some(setting);
}

/** The names of a Codex config's `[mcp_servers.NAME]` tables, in order. */
function serverNames(text: string): string[] {
  return [...text.matchAll(/^\s*\[mcp_servers\.("?)([A-Za-z0-9_-]+)\1\]\s*$/gm)].map((m) => m[2]!);
}

/** A Gemini CLI (or Qwen Code) custom command, `.gemini/commands/*.toml`: a top-level `prompt = …`. */
function isCustomCommand(text: string): boolean {
  const top = text.split(/^\s*\[/m)[0] ?? '';
  return /^\s*prompt\s*=/m.test(top);
}

/** For a recipe: what the file is, and where each of its settings goes here. */
export function tomlRecipeProblem(name: string, text = ''): string {
  if (isCustomCommand(text)) {
    return (
      `${name} is TOML (as Gemini CLI's custom commands, .gemini/commands/*.toml, are), not a recipe: a recipe is YAML (\`version: 1\`, \`prompt: …\`, \`confirmation: {mode: deny}\`). ` +
      'For the task it holds, pass its prompt with -p. As a recipe: prompt → `prompt`, description → `description`, {{args}} → a parameter (`{{ args }}`, --param args=…); ' +
      'its !{…} commands and @{…} files are not run or read before the model sees the prompt here: the model runs and reads them with its tools'
    );
  }
  return (
    `${name} is TOML (as Codex's config.toml is), not a recipe: a recipe is YAML (\`version: 1\`, \`prompt: …\`, \`confirmation: {mode: deny}\`). ` +
    "Codex's settings go here as: model → `model` (or -m), approval_policy → `confirmation.mode` (or --approval), sandbox_mode → `sandbox.mode` (or --sandbox), " +
    '[mcp_servers.NAME] → `mcp_servers.NAME` (or --mcp-config with the mcpServers JSON)'
  );
}

/** For `--mcp-config`: the JSON it takes, with the file's own server names. */
export function tomlMcpConfigProblem(flag: string, name: string, text: string): string {
  const names = serverNames(text);
  const example = `{"mcpServers": {"${names[0] ?? 'docs'}": {"command": "npx", "args": ["-y", "…"]}}}`;
  return `${flag} ${name}: this is TOML (as Codex's config.toml is), not JSON: ${flag} takes the mcpServers JSON Claude Code, Gemini CLI and Qwen Code use, ${example}${names.length > 1 ? `, one entry for each of ${names.map((n) => `'${n}'`).join(', ')}` : ''}`;
}
