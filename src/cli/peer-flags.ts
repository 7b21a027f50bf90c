// Flags of Claude Code, Gemini CLI, Qwen Code and Codex that a user coming from them types first,
// and what does that here: an unknown argument from those tools gets the answer, not only a refusal.
const PEER_FLAGS: ReadonlyArray<[RegExp, string]> = [
  [/^(yolo|dangerously-skip-permissions|dangerouslySkipPermissions|full-auto|fullAuto)$/, 'here that is --approval auto-approve (the policy answers every confirmation)'],
  [/^(allowed-tools|allowedTools)$/, 'here that is --allow RULE (what may run without confirmation) or --tools a,b (which tools are offered)'],
  [/^(disallowed-tools|disallowedTools)$/, 'here that is --deny RULE'],
  [/^(resume|r)$/, 'here that is --continue RUN_DIR (or -c for the latest run started here)'],
  [/^(verbose|debug)$/, 'not needed here: leave it out (stream-json carries every event, and the transcript records them all)'],
  [/^(permission-mode|permissionMode|approval-mode|approvalMode)$/, 'here that is --approval auto-approve|deny|allowlist'],
];

/** A line naming what does the same here, for yargs' "Unknown argument(s): a, b"; null when none is a peer's flag. */
export function peerFlagHint(message: string): string | null {
  const unknown = /^Unknown arguments?: (.*)$/.exec(message)?.[1];
  if (!unknown) return null;
  const hints = unknown
    .split(', ')
    .flatMap((name) => PEER_FLAGS.filter(([pattern]) => pattern.test(name)).map(([, here]) => `--${name}: ${here}`));
  return hints.length > 0 ? hints.join('\n') : null;
}
