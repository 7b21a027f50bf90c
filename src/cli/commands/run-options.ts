// The flags of `unattended run` (DESIGN.md command line). Flags override the recipe. The names a
// user of Claude Code, Gemini CLI, Codex, Qwen Code or goose reaches for first work here too
// (-p, -m, --tools, --mcp-config, --append-system-prompt, --output-schema, --continue).
import type { Argv } from 'yargs';

export function runOptions<T>(y: Argv<T>) {
  return y
    .positional('recipe', { type: 'string', describe: 'A recipe file (*.yaml), or the prompt itself when it is not a file' })
    .positional('words', { type: 'string', array: true, describe: 'More words of a prompt given without quotes' })
    .option('prompt', { alias: 'p', type: 'string', describe: 'The task; piped stdin is appended to it as context' })
    .option('param', { type: 'string', array: true, default: [] as string[], describe: 'Recipe parameter, k=v (repeatable)' })
    .option('provider', { choices: ['gemini', 'openai', 'anthropic', 'scripted'] as const, describe: 'Model provider' })
    .option('model', { alias: 'm', type: 'string', describe: 'Model name' })
    .option('script', { type: 'string', describe: 'Recorded model turns for --provider scripted (YAML or JSONL)' })
    .option('base-url', { type: 'string', describe: 'Provider endpoint override' })
    .option('tools', { type: 'string', array: true, describe: "The built-in tools offered, comma-separated: 'read_file,grep,edit' ('' offers none)" })
    .option('mcp-config', { type: 'string', array: true, describe: 'MCP servers from a JSON file in the mcpServers format of Claude Code, Gemini CLI and Qwen Code (repeatable)' })
    .option('append-system-prompt', { type: 'string', describe: 'Text added to the system prompt; @FILE reads it from FILE' })
    .option('output-schema', { type: 'string', describe: 'JSON Schema FILE the final answer must satisfy (structured output)' })
    .option('context', { type: 'boolean', describe: 'Load AGENTS.md context files (--no-context: none)' })
    .option('continue', { alias: 'c', type: 'string', describe: 'Continue an earlier run: RUN_DIR (or its transcript.jsonl) or RUN_ID; give the follow-up with --prompt' })
    .option('approval', { choices: ['auto-approve', 'deny', 'allowlist'] as const, describe: 'Confirmation policy mode' })
    .option('allow', { type: 'string', array: true, default: [] as string[], describe: "Allow rule, 'tool' or 'tool:pattern' (repeatable)" })
    .option('deny', { type: 'string', array: true, default: [] as string[], describe: "Deny rule, 'tool' or 'tool:pattern' (repeatable)" })
    .option('sandbox', { choices: ['auto', 'required', 'off'] as const, describe: 'OS sandbox for tool processes (recipe sandbox.mode)' })
    .option('workspace', { type: 'string', describe: 'Directory the tools work in' })
    .option('out', { type: 'string', describe: 'Run output directory (default .unattended/runs/<run-id>)' })
    .option('max-turns', { type: 'string', describe: 'Model turns before the run stops (exit 53)' })
    .option('max-tool-calls', { type: 'string', describe: 'Tool calls before the run stops (exit 55)' })
    .option('max-tokens', { type: 'string', describe: 'Total tokens before the run stops (exit 55)' })
    .option('max-cost-usd', { type: 'string', describe: 'US dollars the model calls may cost before the run stops (exit 55)' })
    .option('stream', { type: 'boolean', default: true, describe: 'Stream model answers (--no-stream: the non-streaming endpoint)' })
    .option('timeout', { type: 'string', describe: 'Wall-clock limit, e.g. 90s, 10m (exit 55)' })
    .option('model-idle-timeout', { type: 'string', describe: 'Abort and retry a model stream silent this long (default 60s)' })
    .option('model-retries', { type: 'string', describe: 'Attempts per model call, the first included (default 5)' })
    .option('max-denials', { type: 'string', describe: 'Policy denials tolerated before the run stops (default 10; exit 57)' })
    .option('fail-on-denial', { type: 'boolean', describe: 'Any policy denial ends the run (exit 57)' })
    .option('check', { type: 'string', array: true, default: [] as string[], describe: 'Success check: a command that must exit 0 after the final answer (repeatable; exit 56)' })
    .option('require-changes', { type: 'boolean', describe: 'Success check: the run must change at least one file (exit 56)' })
    .option('check-retries', { type: 'string', describe: 'Times a failed check goes back to the model (default 0)' })
    .option('check-timeout', { type: 'string', describe: 'Time limit of each check command (default 10m)' })
    .option('output-format', { choices: ['text', 'json', 'stream-json'] as const, default: 'text' as const, describe: 'stdout: final answer, report JSON, or events as JSON lines' })
    .option('record', { type: 'string', describe: 'Write the model turns to FILE, replayable with --provider scripted' })
    .option('stdin', { type: 'boolean', default: true, describe: 'Read piped stdin (--no-stdin to ignore it)' });
}

export type RunArgs = ReturnType<typeof runOptions>['argv'] extends infer A ? Awaited<A> : never;

/** A number flag's value: a number when the word is one, else the word itself so the error can echo it (yargs' own number type turns 'abc' into NaN and an empty value into nothing). */
export function numberFlag(raw: string | undefined): number | string | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  return text !== '' && Number.isFinite(Number(text)) ? Number(text) : String(raw);
}
