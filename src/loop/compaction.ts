// Runs that outlive the context window. Before each request the history's size is estimated
// (context-estimate.ts); when it would pass `compact_at` of the model's window (default 70%), or
// when the provider refused a request as too long, older turns are compacted:
//   1. superseded file reads (stale-reads.ts) and long tool outputs of turns the model has already
//      acted on become one-line notes (compaction-history.ts);
//   2. if step 1 took out tool outputs (what the model read there is in no summary yet, and a
//      model that does not read them again would go on without it), or the estimate is still above
//      half the threshold (so compaction does not come back every turn), the model is asked for a
//      summary of the work so far in a side request (recorded by --record, replayed by the
//      scripted provider), and the older turns are replaced by it. The summary is asked for with
//      those turns as the model saw them, before step 1 trimmed them.
// The prompt, the last turns, the files changed and the todo list stay verbatim; when the last
// turns alone do not fit (one output bigger than the window), their outputs are cut to a head,
// with a note the model reads. A refusal for length gets one compaction and one retry; a second
// refusal fails the run as before. A refusal also bounds the window: the limit it names, or else
// the refused request's size.
import type { Content, FunctionDeclaration, Part, TokenUsage } from '../types/content.js';
import { addUsage } from '../types/content.js';
import type { TodoItem } from '../types/changes.js';
import type { EventSink, RunEvent } from '../types/events.js';
import type { ModelProvider, ModelTurn } from '../providers/provider.js';
import { ProviderError } from '../providers/provider.js';
import { ContextWindow } from './context-window.js';
import { BYTES_PER_TOKEN, ContextEstimate } from './context-estimate.js';
import { uncountedImageBytes } from './entry-bytes.js';
import type { StaleReads } from './stale-reads.js';
import { capOutputs, dropLongOutputs, longestOutput, modelTurnsIn, pinnedText, SUMMARY_REQUEST, tailStart, TO_FIT, withText } from './compaction-history.js';

export const DEFAULT_COMPACT_AT = 0.7;
/** After compacting, the estimate should be at most this share of the threshold. */
const TARGET_SHARE = 0.5;
/** An implausible token count is warned about once a request is this share of the window. */
const QUIET_SHARE = 0.25;
/** Model turns kept verbatim (with their calls' results) by a compaction before a request (fewer, down to one, when they alone fill the target)... */
export const KEEP_LAST_TURNS = 4;
/** ...and after a refusal for length, when the last turns are what no longer fits. */
const KEEP_AFTER_REFUSAL = 2;
/** Before a request, turns are summarised only when they hold at least this share of the target. */
const MIN_SUMMARIZED_SHARE = 0.2;
/** Below this estimate the table is not consulted for the window: there is nothing worth compacting. */
const LOOKUP_FROM_TOKENS = 4096;
/** The summary side request may fill this share of the window; the rest is room for the summary. */
const SUMMARY_REQUEST_SHARE = 0.8;
/** Tool outputs in a summary request are cut to no fewer characters than this before older turns leave it. */
const MIN_OUTPUT_HEAD = 256;

/** How a summary side request can end without a summary, whatever text it holds. */
const WITHHELD = {
  refusal: 'the model refused to write the summary',
  safety: "the summary was blocked by the provider's safety filter",
  recitation: 'the summary was blocked for reciting training data',
} as const;

export interface CompactionOptions {
  /** The model's window in tokens (limits.context_tokens), a lookup in the price table, or null: unknown. */
  window: number | null | (() => Promise<number | null>);
  /** Share of the window a request may fill before older turns are compacted (limits.compact_at). */
  compactAt: number;
  /** A smaller window the runs this one continues learned from a refusal for length, in tokens. */
  learnedWindow?: number | null;
  /**
   * provider_options.max_output_tokens: servers count the answer's cap into the window with the
   * request (vLLM, OpenAI, Anthropic refuse a request whose size and cap pass it), so a request
   * may fill only what the cap leaves.
   */
  maxOutputTokens?: number | null;
  /** The todo list as it stands, kept in the compacted history. */
  todos?: () => readonly TodoItem[];
  /**
   * Files changed that no file tool reported here: by shell, MCP or discovered tools (found with
   * git), and by the runs this one continues. Kept in the compacted history with the tools' own.
   */
  changedFiles?: () => Promise<readonly string[]>;
  /**
   * The options whose context window this loop's is: the run's, which its sub-agents are given,
   * when the agent's own loop has a copy of them (with its todo list). Default: these.
   */
  windowOf?: CompactionOptions;
}

export interface CompactorDeps {
  provider: ModelProvider;
  emit: EventSink;
  signal: AbortSignal;
  staleReads: StaleReads;
  systemInstruction: string;
  /** The summary side request's usage, for the run's usage and budget. */
  onUsage: (usage: TokenUsage) => void;
  /** A refusal for length that still cost tokens (an answer the full window ended: ProviderError.spent), which compaction answers. */
  onSpent?: (usage: TokenUsage, reason: string) => void;
}

type Reason = Extract<RunEvent, { type: 'compaction' }>['reason'];

/** The context window of each run's options: the agent and its sub-agents share one (see Compactor). */
const windows = new WeakMap<CompactionOptions, ContextWindow>();

export class Compactor {
  private readonly estimate = new ContextEstimate();
  private readonly contextWindow: ContextWindow;
  private readonly filesChanged = new Set<string>();
  private prompt: Content | null = null;
  /** A continued run's own request: the entry that holds it (0 once pinned) and its text. */
  private latest: { entry: number; text: string } | null = null;
  /** A token count too small for its request was reported: said once. */
  private implausibleSaid = false;
  /** The window cannot hold what every request carries: said once, and only a refusal compacts. */
  private tooSmall = false;

  constructor(
    private readonly opts: CompactionOptions,
    private readonly deps: CompactorDeps,
  ) {
    // One window for the run's loops: a sub-agent's loop is given the run's options, and what one
    // loop learned from a refusal (or the table) holds for the others, as for the rest of the run.
    const key = opts.windowOf ?? opts;
    let shared = windows.get(key);
    if (!shared) windows.set(key, (shared = new ContextWindow(key.window, key.compactAt, key.learnedWindow ?? null)));
    this.contextWindow = shared;
  }

  private get window(): number | null {
    return this.contextWindow.tokens;
  }

  recordChange(file: string): void {
    this.filesChanged.add(file);
  }

  /**
   * The run continues a conversation: its own request is in `contents[entry]`, after the earlier
   * runs' turns. Once those turns are compacted away it is pinned beside the first prompt, which
   * would otherwise be the only request left and may be done already.
   */
  continuing(entry: number, parts: readonly Part[]): void {
    const text = parts.flatMap((part) => (part.text !== undefined ? [part.text] : [])).join('\n\n');
    if (entry > 0 && text !== '') this.latest = { entry, text };
  }

  /** Sends one turn's request: compacts first when it would pass the threshold, and once after a refusal for length. */
  async send(contents: Content[], tools: FunctionDeclaration[], turn: number, request: () => Promise<ModelTurn>): Promise<ModelTurn> {
    await this.beforeRequest(contents, tools, turn);
    // Nothing is measured while no window is known or to be looked up: a refusal measures then.
    let bytes = this.contextWindow.unknown ? null : this.bytes(contents, tools);
    try {
      const reply = await request();
      if (bytes !== null) this.reported(bytes, reply, contents);
      return reply;
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind !== 'context_length' || this.deps.signal.aborted) throw error;
      // Counted here, once: the error may still end the run (nothingToCompact), and must not be counted again.
      const spent = error.spent;
      error.spent = undefined;
      if (spent) this.deps.onSpent?.(spent, error.message);
      bytes ??= this.bytes(contents, tools);
      const refusedTokens = this.estimate.tokens(bytes);
      const { named } = this.learnWindow(error, bytes, contents, spent);
      // A window only inferred from the refusal may be far above the real one: the summary request
      // then gets half of what was refused.
      const summaryLimit = named === null ? refusedTokens / 2 : Infinity;
      if (!(await this.compact(contents, tools, turn, 'context_error', error.message, summaryLimit))) throw this.nothingToCompact(error, bytes, contents);
      this.deps.emit({ type: 'retry', turn, attempt: 1, delay_ms: 0, reason: `${error.message} (compacted the history; trying once more)` });
      bytes = this.bytes(contents, tools);
      const reply = await request();
      this.reported(bytes, reply, contents);
      return reply;
    }
  }

  /** A refusal compaction could not help, with why: what is left passes the window by itself. */
  private nothingToCompact(error: ProviderError, bytes: number, contents: readonly Content[]): ProviderError {
    const what = contents.length <= 1 ? 'the prompt, with the instructions and tool declarations every request carries,' : 'what is left (the prompt, the instructions, the tool declarations and the last turns)';
    const window = this.window === null ? "the model's context window" : `the context window (${this.window} tokens)`;
    const tokens = this.estimate.tokens(bytes);
    const size = `~${Math.round(tokens)} tokens, ${Math.round(bytes / 1024)} KB`;
    // An answer the full window ended: the request fitted, with too little room left to answer in.
    const fits = this.window !== null && tokens <= this.window;
    const fix = 'shorten the prompt or the instructions, offer fewer tools, or use a model with a larger window';
    return error.withMessage(`${error.message} (nothing older could be compacted: ${what} is ${size}, ${fits ? `leaving too little of ${window} for an answer` : `more than ${window} holds`}; ${fix})`, 'context_length');
  }

  /** The provider's count for a request of `bytes` anchors the estimate, unless it is too small to be the request's. */
  private reported(bytes: number, reply: ModelTurn, contents: readonly Content[]): void {
    if (this.estimate.reported(bytes, reply.usage.input, contents) || this.implausibleSaid) return;
    // Not taken either way; said once a request is big enough for the count to matter (a quarter
    // of the window), not for every fake or local server's first few kilobytes.
    if (bytes < (this.window ?? Infinity) * BYTES_PER_TOKEN * QUIET_SHARE) return;
    this.implausibleSaid = true;
    this.deps.emit({
      type: 'warning',
      message: `the provider reported ${reply.usage.input} input tokens for a request of ${Math.round(bytes / 1024)} KB, too few to be its size: such counts are not used to decide when to compact, which measures the request's bytes instead (about ${BYTES_PER_TOKEN} a token)`,
    });
  }

  /**
   * A refusal for length of a request of `bytes`: the window is at most what it names, or else
   * that request's size, whatever a recipe or the table said.
   */
  private learnWindow(error: ProviderError, bytes: number, contents: readonly Content[], spent?: TokenUsage): { named: number | null } {
    const refusedTokens = this.estimate.tokens(bytes);
    // Measured by its whole bytes: a request refused for its size in bytes (a 413, Gemini's request
    // payload limit) may be a few screenshots of a few thousand tokens each, and a window of that
    // many tokens would compact every later turn. Text alone measures the same either way.
    const uncounted = contents.reduce((sum, entry) => sum + uncountedImageBytes(entry), 0);
    const { named, warning } = this.contextWindow.refused(error.message, refusedTokens + Math.ceil(uncounted / BYTES_PER_TOKEN));
    if (warning) this.deps.emit({ type: 'warning', message: warning });
    // The request held more than the limit, whatever the estimate said; or, taken and answered
    // until the full window ended the answer (a billed one), what the server counted of it.
    const counted = spent !== undefined && spent.input > 0 && named !== null && spent.input <= named ? spent.input : null;
    if (named !== null) this.estimate.reported(bytes, counted ?? Math.max(refusedTokens, named + 1));
    return { named };
  }

  private async beforeRequest(contents: Content[], tools: FunctionDeclaration[], turn: number): Promise<void> {
    if (this.contextWindow.unknown) return;
    const tokens = this.estimate.tokens(this.bytes(contents, tools));
    if (this.contextWindow.pendingLookup) {
      if (tokens < LOOKUP_FROM_TOKENS) return;
      await this.contextWindow.lookUp();
    }
    if (this.window === null || tokens <= this.threshold(this.window) || this.tooSmall) return;
    // What no compaction can remove: the instructions, the tool declarations and the prompt.
    const fixed = this.estimate.tokens(this.bytes(contents.slice(0, 1), tools));
    if (fixed > this.threshold(this.window)) {
      this.tooSmall = true;
      this.deps.emit({
        type: 'warning',
        message: `the context window (${this.window} tokens) cannot hold what every request carries (~${Math.round(fixed)} tokens: instructions, tool declarations and the prompt): requests are not compacted to fit it, only after the provider refuses one as too long; check limits.context_tokens`,
      });
      return;
    }
    await this.compact(contents, tools, turn, 'threshold', null);
  }

  /** Compacts the history in place; true when it became smaller. */
  private async compact(
    contents: Content[],
    tools: FunctionDeclaration[],
    turn: number,
    reason: Reason,
    refusal: string | null,
    summaryLimit = Infinity,
  ): Promise<boolean> {
    const before = this.estimate.tokens(this.bytes(contents, tools));
    this.prompt ??= contents[0]!;
    // The history as the model saw it, for its summary: the trims below replace entries, never change them.
    const seen = contents.slice();
    const targetNow = () => (this.window === null ? null : this.threshold(this.window) * TARGET_SHARE);
    let target = targetNow();
    let tail = this.tailFor(contents, reason === 'threshold' ? KEEP_LAST_TURNS : KEEP_AFTER_REFUSAL, target);
    const staleReads = this.deps.staleReads.prune(contents, turn, 0, tail);
    const toolOutputs = dropLongOutputs(contents, 1, tail);
    // A provider's cache breakpoint must not sit past what changed (loop/stale-reads.ts stableUntil).
    if (toolOutputs > 0) this.deps.staleReads.rewritten(1);
    const afterTrim = this.estimate.tokens(this.bytes(contents, tools));
    // Unknown window after a refusal: trimming alone may not be enough, and there is one retry.
    // Outputs taken out: what the model read in them goes into a summary, or it would be lost to a
    // model that does not call the tool again (a sum of values read across files came out wrong).
    // Otherwise a summary must be worth its side request: older turns that weigh little (a last
    // turn that alone fills the window) are left for the provider to refuse.
    const needsSummary =
      toolOutputs > 0 ||
      (target === null ? reason === 'context_error' : afterTrim > target && (reason === 'context_error' || this.tokensBetween(contents, 1, tail) >= target * MIN_SUMMARIZED_SHARE));
    let summary: 'none' | 'written' | 'failed' = 'none';
    let usage: TokenUsage | null = null;
    let error = refusal;
    let droppedTurns = 0;
    if (needsSummary && tail > 1) {
      const limit = Math.min(summaryLimit, this.window === null ? Infinity : Math.min(this.window * SUMMARY_REQUEST_SHARE, this.room(this.window)));
      const asked = await this.askSummary(seen, tools, tail, limit);
      usage = asked.usage;
      if (usage) this.deps.onUsage(usage);
      summary = asked.text === null ? 'failed' : 'written';
      if (asked.error) error = error ? `${error}; summary: ${asked.error}` : asked.error;
      droppedTurns = modelTurnsIn(contents, 1, tail);
      const latest = this.latest !== null && this.latest.entry < tail ? this.latest : null;
      const pinned = pinnedText({
        turn,
        droppedTurns,
        keptTurns: modelTurnsIn(contents, tail, contents.length),
        summary: asked.text,
        filesChanged: await this.allChangedFiles(),
        todos: this.opts.todos?.() ?? [],
        latestRequest: latest?.text ?? null,
      });
      contents.splice(0, tail, { role: 'user', parts: [...this.prompt.parts, { text: pinned }] });
      if (this.latest) this.latest.entry = latest ? 0 : this.latest.entry - (tail - 1);
      this.deps.staleReads.removed(1, tail - 1);
      tail = 1;
    }
    // The last turns alone still do not fit (one output bigger than the window): their outputs are
    // cut to the same head, the longest that fits, each with a note the model reads.
    // A summary request refused for length may have taught a smaller window.
    target = targetNow();
    const cutOutputs = target !== null && this.estimate.tokens(this.bytes(contents, tools)) > this.threshold(this.window!) ? this.cutTail(contents, tools, tail, target) : 0;
    const after = this.estimate.tokens(this.bytes(contents, tools));
    // Nothing older than the last turns to compact: no event, and a refusal stands.
    if (staleReads + toolOutputs + cutOutputs === 0 && summary === 'none') return false;
    this.deps.emit({
      type: 'compaction',
      turn,
      reason,
      window: this.window,
      ...(this.contextWindow.learned ? { window_learned: true as const } : {}),
      tokens_before: before,
      tokens_after: after,
      dropped: { stale_reads: staleReads, tool_outputs: toolOutputs, turns: droppedTurns, cut_outputs: cutOutputs },
      summary,
      usage,
      error,
    });
    return after < before;
  }

  /**
   * The side request: the prompt (with any earlier summary), the turns to be dropped, and the ask.
   * The turns go as the model saw them (`seen`, before step 1 trimmed them), so that what it read
   * can be summarised. Where that does not fit in `limit` tokens, every tool output is cut to the
   * same head, the longest cap that fits; where even short heads do not fit, the oldest turns stay out.
   * Refused as too long itself (the window the runner believed is larger than the server's), it
   * teaches the window and is asked once more within what the server takes: the turns it would
   * summarise are about to go, and what the model read in them with them.
   */
  private async askSummary(
    seen: readonly Content[],
    tools: FunctionDeclaration[],
    tail: number,
    limit: number,
  ): Promise<{ text: string | null; usage: TokenUsage | null; error: string | null }> {
    // Every answer the server billed, the unusable ones too (an empty answer asked again, one the
    // full window ended): the run paid for them, and the event's usage is what the report counts.
    let usage: TokenUsage | null = null;
    const bill = (spent: TokenUsage | null | undefined): void => {
      if (spent) usage = usage ? addUsage(usage, spent) : spent;
    };
    const spentIn = (error: unknown): void => {
      if (!(error instanceof ProviderError) || !error.spent) return;
      bill(error.spent);
      error.spent = undefined;
    };
    const request = this.summaryRequest(seen, tools, tail, limit);
    if (typeof request === 'string') return { text: null, usage: null, error: request };
    try {
      const reply = await this.sendSummary(request, tools, bill);
      bill(reply.usage);
      return { ...reply, usage };
    } catch (error) {
      if (this.deps.signal.aborted) throw error;
      spentIn(error);
      const message = (error as Error).message ?? String(error);
      if (!(error instanceof ProviderError) || error.kind !== 'context_length') return { text: null, usage, error: message };
      const bytes = this.bytes(request, tools);
      const refusedTokens = this.estimate.tokens(bytes);
      const { named } = this.learnWindow(error, bytes, request);
      const smaller = Math.min(limit, this.window! * SUMMARY_REQUEST_SHARE, this.room(this.window!), named === null ? refusedTokens / 2 : Infinity);
      const again = this.summaryRequest(seen, tools, tail, smaller);
      if (typeof again === 'string') return { text: null, usage, error: `${message}; ${again}` };
      try {
        const reply = await this.sendSummary(again, tools, bill);
        bill(reply.usage);
        return { ...reply, usage, error: `${message} (asked again within ${Math.round(smaller)} tokens)${reply.error ? `; ${reply.error}` : ''}` };
      } catch (retryError) {
        if (this.deps.signal.aborted) throw retryError;
        spentIn(retryError);
        return { text: null, usage, error: `${message}; asked again: ${(retryError as Error).message ?? String(retryError)}` };
      }
    }
  }

  /** The summary request's contents within `limit` tokens, or why there is none. */
  private summaryRequest(seen: readonly Content[], tools: FunctionDeclaration[], tail: number, limit: number): Content[] | string {
    const prompt = seen[0]!;
    const base = this.bytes([prompt], tools);
    const sizeOf = (entries: readonly Content[]) => entries.reduce((sum, entry) => sum + this.estimate.entryBytes(entry), base);
    const fits = (entries: readonly Content[]) => this.estimate.tokens(sizeOf(entries)) <= limit;
    let middle = seen.slice(1, tail);
    if (!fits(middle)) middle = headsThatFit(middle, fits, MIN_OUTPUT_HEAD);
    // Still too big: the oldest turns stay out, a call never without its results.
    let bytes = sizeOf(middle);
    let from = 0;
    while (this.estimate.tokens(bytes) > limit && from < middle.length) {
      do bytes -= this.estimate.entryBytes(middle[from++]!);
      while (from < middle.length && middle[from]!.role !== 'model');
    }
    const kept = middle.slice(from);
    // A summary of turns the model is not shown would be made up: none is asked for.
    if (kept.length === 0) return `not one of the turns to summarise fits in a side request of ${Math.round(limit)} tokens beside the prompt`;
    return [prompt, ...kept.slice(0, -1), withText(kept.at(-1)!, SUMMARY_REQUEST)];
  }

  /** `bill`: an unusable answer the retry layer asks again for, which was billed all the same. */
  private async sendSummary(
    request: Content[],
    tools: FunctionDeclaration[],
    bill: (spent: TokenUsage | undefined) => void,
  ): Promise<{ text: string | null; usage: TokenUsage | null; error: string | null }> {
    const reply = await this.deps.provider.generate(
      { systemInstruction: this.deps.systemInstruction, contents: request, tools, purpose: 'compaction_summary' },
      { signal: this.deps.signal, onRetry: (info) => bill(info.usage) },
    );
    // A refusal or a filtered answer is no summary, whatever text came before it.
    const withheld = WITHHELD[reply.finish.reason as keyof typeof WITHHELD];
    if (withheld) return { text: null, usage: reply.usage, error: `${withheld} (finish reason ${reply.finish.raw ?? reply.finish.reason})` };
    const text = reply.text.trim();
    return text ? { text, usage: reply.usage, error: null } : { text: null, usage: reply.usage, error: 'the model answered without a summary' };
  }

  /**
   * Cuts the outputs of entries [tail..] to the same head, the longest with which the request fits
   * in `target` tokens (a short head at least); returns how many outputs were cut.
   */
  private cutTail(contents: Content[], tools: FunctionDeclaration[], tail: number, target: number): number {
    const base = this.bytes(contents.slice(0, tail), tools);
    const kept = contents.slice(tail);
    const fits = (entries: readonly Content[]) => this.estimate.tokens(entries.reduce((sum, entry) => sum + this.estimate.entryBytes(entry), base)) <= target;
    const cut = headsThatFit(kept, fits, MIN_OUTPUT_HEAD, TO_FIT);
    let outputs = 0;
    cut.forEach((entry, i) => {
      if (entry === kept[i]) return;
      outputs += entry.parts.filter((part, j) => part !== kept[i]!.parts[j]).length;
      contents[tail + i] = entry;
    });
    // A provider's cache breakpoint must not sit past what changed (loop/stale-reads.ts stableUntil).
    if (outputs > 0) this.deps.staleReads.rewritten(tail);
    return outputs;
  }

  /** The files the run's tools reported changing, with those only git saw and the earlier runs' (sorted). */
  private async allChangedFiles(): Promise<string[]> {
    const files = new Set(this.filesChanged);
    try {
      for (const file of (await this.opts.changedFiles?.()) ?? []) files.add(file);
    } catch {
      // Best effort: the tools' own list still stands.
    }
    return [...files].sort();
  }

  /** Where the verbatim tail starts: the last `keep` model turns, fewer (down to one) when those alone pass the target. */
  private tailFor(contents: readonly Content[], keep: number, target: number | null): number {
    let tail = tailStart(contents, keep);
    if (target === null) return tail;
    let bytes = 0;
    for (let i = tail; i < contents.length; i++) bytes += this.estimate.entryBytes(contents[i]!);
    for (let turns = keep; turns > 1 && bytes / BYTES_PER_TOKEN > target; turns--) {
      const next = tailStart(contents, turns - 1);
      for (let i = tail; i < next; i++) bytes -= this.estimate.entryBytes(contents[i]!);
      tail = next;
    }
    return tail;
  }

  private tokensBetween(contents: readonly Content[], from: number, to: number): number {
    let bytes = 0;
    for (let i = from; i < to; i++) bytes += this.estimate.entryBytes(contents[i]!);
    return bytes / BYTES_PER_TOKEN;
  }

  private threshold(window: number): number {
    return Math.min(window * this.opts.compactAt, this.room(window));
  }

  /**
   * What of the window a request may take, leaving the answer's cap: a cap that is a large share of
   * the window (16k of 32k) was refused once per growth of the history, each time a compaction and
   * a retry. A cap as large as the window leaves nothing to aim for: the window stands.
   */
  private room(window: number): number {
    const cap = this.opts.maxOutputTokens ?? null;
    return cap !== null && cap < window ? window - cap : window;
  }

  private bytes(contents: readonly Content[], tools: FunctionDeclaration[]): number {
    return this.estimate.bytes(this.deps.systemInstruction, tools, contents);
  }
}

/**
 * `entries` with every tool output cut to the same head: the longest (to within a few characters)
 * with which they fit, and no shorter than `shortest` even when they do not fit then.
 */
function headsThatFit(entries: readonly Content[], fits: (entries: readonly Content[]) => boolean, shortest: number, notes?: typeof TO_FIT): Content[] {
  const capped = (cap: number) => entries.map((entry) => capOutputs(entry, cap, notes));
  let low = shortest;
  let high = entries.reduce((longest, entry) => Math.max(longest, longestOutput(entry)), 0);
  while (high - low > 16) {
    const mid = Math.floor((low + high) / 2);
    if (fits(capped(mid))) low = mid;
    else high = mid;
  }
  return capped(low);
}
