// Flags of Claude Code, Gemini CLI, Qwen Code, Codex and goose that a user coming from them types
// first, and what does that here: an unknown argument from those tools gets the answer, not only a
// refusal.
import { peerValueHint } from '../recipe/peer-values.js';

const APPROVAL_FLAGS = /^(permission-mode|permissionMode|approval-mode|approvalMode|a|ask-for-approval|askForApproval|policy|confirmation|confirmation-mode|confirmationMode)$/;

const PEER_FLAGS: ReadonlyArray<[RegExp, string]> = [
  // `-y` is Gemini CLI's and Qwen Code's short --yolo.
  [/^(y|yolo|dangerously-skip-permissions|dangerouslySkipPermissions|full-auto|fullAuto)$/, 'here that is --approval auto-approve (the policy answers every confirmation)'],
  // Codex's --yolo is this one: it also turns its sandbox off.
  [/^(dangerously-bypass-approvals-and-sandbox|dangerouslyBypassApprovalsAndSandbox)$/, 'here that is --approval auto-approve --sandbox off (auto-approve alone keeps the sandbox, which lets tools write the workspace only)'],
  // Claude Code's -p is --print, its prompt the first argument.
  [/^print$/, 'here that is -p TEXT (--prompt), or the prompt as the first argument: a run always prints its answer and exits'],
  [/^(interactive|prompt-interactive|promptInteractive)$/, 'nobody is at the keyboard here: a run takes one prompt (-p TEXT), and goes on with a follow-up through --continue RUN_DIR -p TEXT'],
  [/^(permission-prompt-tool|permissionPromptTool)$/, 'here no one is asked: the policy answers every confirmation (--approval allowlist with --allow RULE)'],
  // Codex's -c/--config key=value (-c here is Claude Code's --continue) and --profile.
  [/^(config|profile)$/, "here settings are flags (-m NAME, --approval, --sandbox, --max-turns N, ...) or a recipe's keys (unattended run recipe.yaml): no config file or profile is read"],
  [/^(e|extensions|allowed-mcp-server-names|allowedMcpServerNames)$/, 'here MCP servers come with --mcp-config FILE (the mcpServers JSON), and only those and the recipe\'s are started'],
  [/^(openai-api-key|openaiApiKey)$/, 'here the key comes from the environment: OPENAI_API_KEY (with --provider openai), never from the command line'],
  [/^(openai-base-url|openaiBaseUrl)$/, 'here that is --base-url URL (with --provider openai), or OPENAI_BASE_URL'],
  [/^oss$/, 'here a local model is --provider openai --base-url http://localhost:11434/v1 -m MODEL (Ollama, or any OpenAI-compatible server)'],
  [/^(search|web-search|webSearch)$/, 'here web search is a tool the model is offered: --tools with web_search in the list'],
  [/^(q|quiet)$/, 'not needed here: stdout has only the final answer (--output-format text); progress goes to stderr (2>/dev/null to drop it)'],
  [/^(n|name)$/, 'here each run has its own directory and id: --out DIR names the directory'],
  [/^telemetry$/, "here OpenTelemetry export is set by the OTEL_* environment (OTEL_EXPORTER_OTLP_ENDPOINT) or a recipe's telemetry block"],
  [/^(allowed-tools|allowedTools)$/, 'here that is --allow RULE (what may run without confirmation) or --tools a,b (which tools are offered)'],
  [/^(disallowed-tools|disallowedTools)$/, 'here that is --deny RULE'],
  [/^(resume|r)$/, 'here that is --continue RUN_DIR (or -c for the latest run started here)'],
  // Codex: `codex exec resume --last "…"`.
  [/^last$/, 'here that is --continue alone, or -c (the latest run started here)'],
  [/^(verbose|debug|mcp-debug|mcpDebug|include-partial-messages|includePartialMessages)$/, 'not needed here: leave it out (stream-json carries every event, and the transcript records them all)'],
  // Ours too: the README calls the recipe's `confirmation:` block the policy.
  [APPROVAL_FLAGS, 'here that is --approval auto-approve|deny|allowlist'],
  // Gemini CLI's -o is --output-format; Codex's -o is --output-last-message.
  [/^o$/, 'here that is --output-format text|json|stream-json (text prints the final answer on stdout)'],
  [/^(json|experimental-json|experimentalJson)$/, 'here that is --output-format stream-json (JSON lines; Claude Code and Qwen Code parsers read them)'],
  [/^(output-last-message|outputLastMessage)$/, 'here the final answer is on stdout (--output-format text) and in report.json (final_answer)'],
  [/^(json-schema|jsonSchema)$/, 'here that is --output-schema FILE (or the schema itself: --output-schema \'{"type": "object", …}\')'],
  [/^(max-budget-usd|maxBudgetUsd)$/, 'here that is --max-cost-usd USD'],
  [/^(system|system-prompt|systemPrompt|system-prompt-file|systemPromptFile|append-system-prompt-file|appendSystemPromptFile)$/, 'here that is --append-system-prompt TEXT, or @FILE (added to the runner\'s own system prompt)'],
  [/^(strict-mcp-config|strictMcpConfig)$/, 'not needed here: leave it out (only the servers of --mcp-config and the recipe are ever started)'],
  [/^(C|cd|add-dir|addDir|include-directories|includeDirectories)$/, 'here the tools work in one directory: --workspace DIR'],
  [/^(session-id|sessionId)$/, "here that is --continue RUN_ID (each run has its own id, stream-json's session_id)"],
  [/^settings$/, 'here the settings are a recipe (unattended run recipe.yaml) and flags: no settings file is read'],
  [/^(fallback-model|fallbackModel)$/, 'a run uses one model here: -m NAME (a failed request is asked again: --model-retries N)'],
  [/^(model-provider|modelProvider)$/, 'here that is --provider gemini|openai|anthropic (--base-url URL for another OpenAI-compatible server)'],
  [/^(input-format|inputFormat)$/, 'here the prompt is text: -p TEXT, or piped on stdin'],
  [/^(all-files|allFiles)$/, 'not needed here: leave it out (the model reads what it needs with its tools; AGENTS.md and --append-system-prompt @FILE add context)'],
  [/^checkpointing$/, "here each run's changes are in its report (files_changed, each with its diff); a recipe's workspace_mode: copy leaves the original untouched"],
  // Gemini CLI's -s turns its sandbox on; Codex's -s names a sandbox mode.
  [/^s$/, 'here that is --sandbox auto|required|off'],
  // goose: `--no-session` reads as `session` to the parser; `--with-builtin developer`, `--with-extension CMD`.
  [/^(session|ephemeral)$/, 'not needed here: leave it out (each run is kept in its own directory, and nothing reads it unless you --continue it)'],
  [/^(with-builtin|withBuiltin|with-extension|withExtension|with-streamable-http-extension|withStreamableHttpExtension|with-remote-extension|withRemoteExtension)$/, 'here MCP servers come with --mcp-config FILE; the built-in tools are offered by default (--tools a,b picks them)'],
  [/^(skip-git-repo-check|skipGitRepoCheck)$/, 'not needed here: leave it out (a run needs no git repository)'],
  [/^color$/, 'here the environment decides: NO_COLOR=1 (no colour) or FORCE_COLOR=1'],
  // goose: `goose run --recipe r.yaml --params k=v` (--recipe works here too), `-t "…"`, `-i FILE`.
  [/^params$/, 'here that is --param k=v (repeatable)'],
  [/^(t|text)$/, 'here that is -p TEXT (or the prompt as the first argument)'],
  [/^instructions$/, 'here the prompt comes with -p TEXT, or piped on stdin: unattended run < FILE'],
  // goose's -i is a file of instructions, Codex's an image to attach.
  [/^i$/, "goose's instructions file: here the prompt comes with -p TEXT, or piped on stdin (unattended run < FILE); Codex's image: put it in the workspace and name it in the prompt (read_file shows the model PNG, JPEG, GIF and WebP images)"],
  [/^image$/, 'put the image in the workspace and name it in the prompt: read_file shows the model PNG, JPEG, GIF and WebP images'],
  // aider: `aider --message "…" --yes-always --auto-commits --read CONVENTIONS.md --test-cmd pytest`.
  [/^(message|msg)$/, 'here that is -p TEXT (or the prompt as the first argument)'],
  [/^(message-file|messageFile)$/, 'here the prompt comes from a file as -p "$(cat FILE)", or piped on stdin: unattended run < FILE'],
  [/^(yes|yes-always|yesAlways)$/, 'here that is --approval auto-approve (the policy answers every confirmation)'],
  [/^(auto-commits|autoCommits|dirty-commits|dirtyCommits)$/, "here a run commits nothing unless its recipe has a git block (git: {branch: NAME, commit_message: TEXT}), which commits exactly the run's changes on a new branch"],
  [/^git$/, 'not needed here: leave it out (a run needs no git repository, and commits nothing without a recipe\'s git block)'],
  [/^read$/, "here AGENTS.md is read as context (a recipe's context.files names others), and --append-system-prompt @FILE adds a file to the instructions"],
  [/^file$/, 'name the files in the prompt: the model reads and edits them with its tools (a recipe is the first argument: unattended run recipe.yaml)'],
  [/^(test-cmd|testCmd|lint-cmd|lintCmd|auto-test|autoTest|auto-lint|autoLint)$/, 'here that is --check CMD (repeatable): run after the model finishes, and a failure goes back to it (--check-retries N)'],
];

/**
 * A line naming what does the same here, for yargs' "Unknown argument(s): a, b"; null when none is a
 * peer's flag. `argv`: the words typed, so a letter of a group (`-fix` is -f -i -x to yargs) is not
 * taken for that peer's one-letter flag.
 */
export function peerFlagHint(message: string, argv: readonly string[]): string | null {
  return unknownFlagHints(message, argv, PEER_FLAGS, (flag, here) => {
    // A peer's approval mode says what it means (`--permission-mode plan`, `--approval-mode auto_edit`):
    // the bare "--approval auto-approve|deny|allowlist" sent a user to --approval plan to learn it.
    const value = APPROVAL_FLAGS.test(flag.replace(/^--?/, '')) ? typedValue(flag, argv) : null;
    const meant = value === null ? null : peerValueHint('approval', value, 'flag');
    return meant ? `${flag} ${value}: ${meant}` : `${flag}: ${here}`;
  });
}

/** The value typed after `flag` (`--permission-mode plan`, `--permission-mode=plan`), or null. */
function typedValue(flag: string, argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length && argv[i] !== '--'; i++) {
    if (argv[i]!.startsWith(`${flag}=`)) return argv[i]!.slice(flag.length + 1);
    if (argv[i] === flag && argv[i + 1] !== undefined) return argv[i + 1]!;
  }
  return null;
}

/**
 * Each flag of yargs' "Unknown argument(s): a, b" that `table` knows, as typed (`-C`, `--no-x`),
 * said by `say` with the table's hint; null when none is one. Peers' flags for run, multi-gitter's
 * for batch (batch-peer-flags.ts).
 */
export function unknownFlagHints(message: string, argv: readonly string[], table: ReadonlyArray<[RegExp, string]>, say: (flag: string, here: string) => string): string | null {
  const unknown = /^Unknown arguments?: (.*)$/.exec(message)?.[1];
  if (!unknown) return null;
  const names = unknown.split(', ');
  // yargs names a kebab-case flag twice (`json-schema, jsonSchema`): one hint is enough.
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const typedAlone = (letter: string) => argv.some((word) => word === `-${letter}` || word.startsWith(`-${letter}=`));
  const hints = names
    .filter((name) => (name.length === 1 ? typedAlone(name) : kebab(name) === name || !names.includes(kebab(name))))
    .flatMap((name) => table.filter(([pattern]) => pattern.test(name)).map(([, here]) => say(`${name.length === 1 ? '-' : '--'}${negated(name, argv) ? 'no-' : ''}${name}`, here)));
  return hints.length > 0 ? hints.join('\n') : null;
}

function negated(name: string, argv: readonly string[]): boolean {
  return argv.some((word) => word === `--no-${name}` || word.startsWith(`--no-${name}=`));
}

/**
 * yargs' "Unknown arguments: input-format, inputFormat" names one flag twice (its kebab and camel
 * forms), which reads as two flags typed: each is named once, as typed.
 */
export function unknownArgumentsOnce(message: string): string {
  const m = /^Unknown arguments?: (.*)$/.exec(message);
  if (!m) return message;
  const names = m[1]!.split(', ');
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const once = names.filter((name) => kebab(name) === name || !names.includes(kebab(name)));
  return `Unknown argument${once.length === 1 ? '' : 's'}: ${once.join(', ')}`;
}

/** `unattended exec …` whose flags yargs refused: the command is Codex's too (first-argument.ts). */
export function peerCommandHint(argv: readonly string[]): string | null {
  if (argv[0] !== 'exec') return null;
  return argv[1] === 'resume' ? "exec resume: Codex's command; here that is unattended run --continue" : "exec: Codex's command; here that is unattended run";
}
