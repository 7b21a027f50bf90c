// A Markdown file with YAML front matter where a recipe goes: a Claude Code sub-agent
// (`.claude/agents/*.md`: name, description, tools, model) or slash command (`.claude/commands/*.md`:
// allowed-tools, argument-hint), a Codex or Qwen Code prompt file. Read as YAML it is two documents,
// and the parser's advice, "remove this `---` and keep one", would leave neither a recipe nor the
// file the peer reads: this names the file's kind and where its parts go here.

/** Front matter (`---` … `---`) followed by Markdown, not by a second YAML document. */
export function looksLikeFrontMatter(text: string, file: string): boolean {
  const m = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n([\s\S]*))?$/.exec(text);
  if (!m) return false;
  if (/\.(md|markdown|mdx)$/i.test(file)) return true;
  // A second YAML document starts with `key:` (after any comments): that is the multi-document error's case.
  const first = (m[1] ?? '').split(/\r?\n/).find((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  return first !== undefined && !/^\s*([\w.-]+|"[^"]*"|'[^']*')\s*:(\s|$)/.test(first);
}

/** What the file is, and where a sub-agent's or slash command's parts go in a recipe. */
export function frontMatterProblem(name: string): string {
  return (
    `${name} is Markdown with front matter (as Claude Code's sub-agents and slash commands are), not a recipe: a recipe is YAML (\`version: 1\`, \`prompt: …\`, \`confirmation: {mode: deny}\`). ` +
    `For the task it holds, pass its text with -p. As a recipe: the text after the front matter → \`prompt\` (a sub-agent's system prompt → \`instructions\`), name and description → \`name\`, \`description\`, ` +
    'tools → `tools` (Read → read_file, Bash → shell), allowed-tools → `confirmation.allow` (Bash(git diff:*) → shell: "git diff *"), model → `model`, $ARGUMENTS → a parameter (`{{ args }}`, --param args=…)'
  );
}
