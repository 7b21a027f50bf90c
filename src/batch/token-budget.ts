// The batch's token budget shared by runs that overlap: a run's grant is reserved when it starts,
// not counted when it finishes, so N runs at a time cannot each be handed the whole remainder.
// A run gets a fair share of what is not promised (split among the slots not yet running that a
// target will still fill), so a budget does not serialise a concurrent batch; what a run leaves
// unspent returns to the pool.
// A run that finds the rest reserved by running runs waits for one to finish rather than being
// skipped: the budget is promised, not spent. The same bookkeeping serves tokens (whole numbers)
// and dollars (`--max-cost-usd`, fractions): a batch may have both, and a run needs a grant of each.

export interface TokenGrant {
  /** What the batch had left for this run (null: no batch budget). */
  batchLeft: number | null;
  /** The run's limit (max_tokens, or max_cost_usd): the smaller of batchLeft and the recipe's own limit. */
  tokens: number | null;
}

/** `integer`: shares are whole tokens; dollars are shared as they are. */
export interface BudgetUnit {
  integer: boolean;
}

export class TokenBudget {
  private spent = 0;
  private reserved = 0;
  private active = 0;
  private waiters: Array<() => void> = [];

  /**
   * `slots`: how many runs may overlap (the batch's concurrency); `runs`: how many will ask, at
   * most. A slot no target will ever fill (8 at a time over 2 repositories, the last targets of a
   * batch) must not keep a share: split among those, each of 2 runs would get an eighth.
   */
  constructor(
    private readonly total: number | null,
    private readonly slots = 1,
    private readonly unit: BudgetUnit = { integer: true },
    private runs = Number.POSITIVE_INFINITY,
  ) {}

  /** A grant reserved for one run, or null once the budget is spent. */
  async take(recipeLimit: number | null): Promise<TokenGrant | null> {
    if (this.total === null) return { batchLeft: null, tokens: recipeLimit };
    for (;;) {
      const left = this.total - this.spent - this.reserved;
      if (left > 0) {
        const even = left / Math.max(1, Math.min(this.slots - this.active, this.runs));
        this.runs--;
        const share = this.unit.integer ? Math.max(1, Math.floor(even)) : even;
        const tokens = recipeLimit === null ? share : Math.min(recipeLimit, share);
        this.reserved += tokens;
        this.active++;
        return { batchLeft: left, tokens };
      }
      if (this.reserved === 0) return null;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** The run is over: its reservation is replaced by what it really spent. */
  settle(grant: TokenGrant, spent: number): void {
    this.spent += spent;
    if (this.total === null) return;
    this.reserved -= grant.tokens ?? 0;
    this.active--;
    for (const wake of this.waiters.splice(0)) wake();
  }
}
