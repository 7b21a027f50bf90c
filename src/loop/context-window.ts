// The context window compaction aims under, and what a refusal for length teaches about it. The
// window comes from limits.context_tokens, else the price table's figure (looked up once the
// history is worth compacting), else nothing. A refused request bounds it from above: the limit
// the refusal names ("maximum context length is 8192 tokens"), or else the refused request's own
// size (llama.cpp, Ollama and a proxy's 413 name none). The bound replaces a larger figure for the
// rest of the run; a figure the recipe or the table overstated is said once in a warning, since
// every request until the refusal was measured against a window the server does not have. A run
// that continues another (`--continue`) starts from what that one learned, on the same model.
import { contextLimitFrom } from '../providers/context-errors.js';

type Source = 'limits.context_tokens' | "the price table's figure for the model";

export interface Refusal {
  /** The window the refusal names, or null. */
  named: number | null;
  /** Said once a run: the recipe's or the table's window was larger than the server's. */
  warning: string | null;
}

export class ContextWindow {
  private window: number | null;
  private source: Source | null;
  private lookup: (() => Promise<number | null>) | null;
  private warned = false;
  /** The window is a refusal's bound, not the recipe's or the table's figure. */
  private taught = false;

  /**
   * @param learned - what an earlier run of the conversation (`--continue`) learned from a refusal:
   *   it bounds the window from the start, as the refusal would have; its warning was said then.
   */
  constructor(
    configured: number | null | (() => Promise<number | null>),
    private readonly compactAt: number,
    learned: number | null = null,
  ) {
    this.window = typeof configured === 'number' ? configured : null;
    this.source = this.window === null ? null : 'limits.context_tokens';
    this.lookup = typeof configured === 'function' ? configured : null;
    if (learned !== null && (this.window === null || learned < this.window)) {
      this.window = learned;
      this.taught = true;
      this.source = null;
      this.lookup = null;
    }
  }

  /** The window in tokens; null while unknown. */
  get tokens(): number | null {
    return this.window;
  }

  /** The window is what a refusal taught (this run's, or the run it continues): a --continue starts from it. */
  get learned(): boolean {
    return this.taught;
  }

  /** Neither known nor to be looked up: only a refusal can tell. */
  get unknown(): boolean {
    return this.window === null && this.lookup === null;
  }

  /** Whether the table is still to be consulted (it is, once, when the history is worth compacting). */
  get pendingLookup(): boolean {
    return this.window === null && this.lookup !== null;
  }

  async lookUp(): Promise<void> {
    const lookup = this.lookup;
    this.lookup = null;
    if (!lookup) return;
    this.window = await lookup().catch(() => null);
    if (this.window !== null) this.source = "the price table's figure for the model";
  }

  /** A request of about `refusedTokens` was refused as too long with `message`. */
  refused(message: string, refusedTokens: number): Refusal {
    const named = contextLimitFrom(message);
    const bound = named ?? refusedTokens;
    const before = this.window;
    if (before !== null && bound >= before) return { named, warning: null };
    this.window = bound;
    this.taught = true;
    // No table lookup after this: the server's word stands.
    this.lookup = null;
    if (before === null || this.source === null || this.warned) return { named, warning: null };
    this.warned = true;
    const figure = `${this.source} (${before} tokens)`;
    const fix = this.source === 'limits.context_tokens' ? `set limits.context_tokens to at most ${bound}` : `set limits.context_tokens to at most ${bound} for this model`;
    const warning =
      named !== null
        ? `the provider refused a request as too long: its context window is ${named} tokens, smaller than ${figure}; for the rest of the run compaction aims under compact_at (${this.compactAt}) of ${named} tokens; ${fix}`
        : `the provider refused a request of about ${refusedTokens} tokens as too long, naming no window: the server's is smaller than ${figure}; for the rest of the run compaction aims under compact_at (${this.compactAt}) of ${bound} tokens; ${fix}`;
    return { named, warning };
  }
}
