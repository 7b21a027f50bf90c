// A model call's failure, in terms the retry policy and the exit code understand. Defined among
// the shared types, not in providers/, so that code below the providers (util/proxy.ts, which the
// providers, MCP and telemetry all go through) can say why a request failed in the same words.
import type { TokenUsage } from './content.js';
import { UserFacingError, type ModelErrorKind } from './errors.js';
import { ExitCode, type ExitCodeValue, type RunStatus } from './outcome.js';

/** Why a model call failed, in terms the retry policy and the exit code understand (types/errors.ts). */
export type ProviderErrorKind = ModelErrorKind;

export class ProviderError extends UserFacingError {
  /**
   * The tokens the server counted for an answer the runner could not use (empty, only thinking,
   * a refusal, a call left as text): servers bill them, so the run's usage and budgets count them.
   */
  spent?: TokenUsage;

  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
    /** Why asking again within the run cannot help though the kind is retried (a spent quota: spent-quota.ts). */
    readonly notRetried?: string,
  ) {
    super(message);
  }

  /** The same failure told in other words: kind, status, wait and why it is not retried kept. */
  withMessage(message: string, kind: ProviderErrorKind = this.kind): ProviderError {
    const told = new ProviderError(kind, message, this.status, this.retryAfterMs, this.notRetried);
    if (this.spent) told.spent = this.spent;
    return told;
  }

  get exitCode(): ExitCodeValue {
    return this.kind === 'auth' ? ExitCode.auth : ExitCode.failed;
  }

  override get userMessage(): string {
    return this.kind === 'auth' ? this.message : `model: ${this.message}`;
  }

  /** A refused key is the setup's fault (`error`); anything else the model call's (`failed`). */
  override get runStatus(): RunStatus {
    return this.kind === 'auth' ? 'error' : 'failed';
  }
}
