// The examples `unattended --help` shows. Each one runs as written in the tests
// (test/cli/help-examples.test.ts, offline, against a fake model endpoint), so none can rot.
export const HELP_EXAMPLES: ReadonlyArray<readonly [command: string, description: string]> = [
  ['unattended -p "Fix the typo in README.md" --approval allowlist --allow edit:README.md', 'one task from the command line; edits allowed in README.md only'],
  ['unattended "Explain what src/ does" --tools ls,read_file,grep', 'a positional prompt, with only the tools named'],
  ['unattended run recipes/rename-symbol.yaml --param old=foo --param new=bar', 'a recipe with its parameters'],
  ['unattended -p "List the TODOs as JSON" --output-schema todos.schema.json --output-format json', 'structured output: the answer must match the schema'],
  ['unattended -p "Check the style guide" --mcp-config mcp.json -m gemini-2.5-pro', 'MCP servers from a Claude Code / Gemini CLI mcpServers file, another model'],
  ['unattended -p "Keep to the house style" --append-system-prompt @CONVENTIONS.md', 'more instructions, read from a file'],
  ['unattended --continue -p "Now add a test for it"', 'continue the latest run with a follow-up (or --continue RUN_DIR)'],
];
