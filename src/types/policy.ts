// What the policy answers for one call. Shared by the policy (which decides), the loop (which
// acts on it) and the transcript (which records it), so it lives below all three.
export interface PolicyDecision {
  decision: 'allow' | 'deny';
  reason: string;
  /** The rule that decided, as written in the recipe (`shell: git diff *`), when one did. */
  rule: string | null;
}
