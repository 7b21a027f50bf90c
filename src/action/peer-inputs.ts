// Inputs of peers' actions (anthropics/claude-code-action, google-github-actions/run-gemini-cli)
// that a user who swapped only the `uses:` line still passes. GitHub merely annotates an
// undeclared input ("Unexpected input") and a composite action never sees it: the key never
// reached the run, which then failed exit 41 naming GEMINI_API_KEY. action.yml declares these
// names, gives the gate only whether each is set (never a key's value), and the gate refuses them.

/** Peer input -> whose it is and what to write here instead. */
export const PEER_INPUTS: Record<string, { of: string; use: string }> = {
  anthropic_api_key: { of: 'claude-code-action', use: '`api-key: ${{ secrets.ANTHROPIC_API_KEY }}` with `provider: anthropic`' },
  gemini_api_key: { of: 'run-gemini-cli', use: '`api-key: ${{ secrets.GEMINI_API_KEY }}` (gemini is the default provider)' },
  claude_args: { of: 'claude-code-action', use: '`extra-args` (`unattended run` flags), or `model`, `max-turns`, `allow`, `deny` and the other inputs' },
  max_turns: { of: 'claude-code-action', use: '`max-turns`' },
  gemini_model: { of: 'run-gemini-cli', use: '`model`' },
};

/** The environment variable action.yml sets to `true` when the peer input is given. */
export const peerInputEnv = (name: string) => `UNATTENDED_PEER_${name.toUpperCase()}`;

/** One line per peer input given, saying what to use instead; empty when none is. */
export function peerInputErrors(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(PEER_INPUTS)
    .filter(([name]) => env[peerInputEnv(name)]?.trim() === 'true')
    .map(([name, { of, use }]) => `${name} is ${of}'s input, not this action's, and is not used here: use ${use}`);
}
