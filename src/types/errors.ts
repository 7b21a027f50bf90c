// The one base of every failure a user can cause or fix: it carries its exit code and a hint, so
// classifying an error is `instanceof UserFacingError` and reading its fields, never a name string.
// Anything else that reaches the top is a bug: exit 1 with "unexpected error".
import { ExitCode, type ExitCodeValue, type RunStatus } from './outcome.js';

/**
 * Why a model call failed, as the retry policy and the exit code understand it:
 * auth (a missing or refused key: exit 41, never retried); bad_request (400/404, a malformed
 * endpoint, a refusal or safety block: never retried); rate_limit (429) and server (5xx, 408, 409),
 * network and stalled (retried); cut_off (the answer ended in transit before its finish: a dropped
 * connection, a proxy's timeout) and empty (no content) retried once; script_exhausted;
 * context_length (the conversation exceeds the model's context window: the loop compacts the
 * history and tries once more, loop/compaction.ts; never retried as it is).
 */
export type ModelErrorKind = 'auth' | 'bad_request' | 'rate_limit' | 'server' | 'network' | 'stalled' | 'cut_off' | 'empty' | 'script_exhausted' | 'context_length';

/** What kind of thing went wrong: reports carry it (`error_kind`), batch --resume reads it. */
export type ErrorKind =
  | 'recipe' // the recipe or what it points at (script, discovery, MCP server, sandbox): exit 52
  | 'input' // flags, parameters, stdin, output directory: exit 42
  | 'io' // the run's own files cannot be written (disk full): exit 54
  | 'handoff' // the git hand-off failed: exit 58
  | ModelErrorKind;

/** Failures that say nothing about the recipe or the agent: the same run may well succeed later. */
const TRANSIENT: ReadonlySet<ErrorKind> = new Set(['rate_limit', 'server', 'network', 'stalled', 'cut_off']);

export function isTransient(kind: ErrorKind | null | undefined): boolean {
  return kind != null && TRANSIENT.has(kind);
}

export abstract class UserFacingError extends Error {
  abstract readonly kind: ErrorKind;
  abstract readonly exitCode: ExitCodeValue;

  constructor(
    message: string,
    /** How to fix it, in one line; printed after the message. */
    readonly hint: string | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The status a run that ends with this error gets. */
  get runStatus(): RunStatus {
    return 'error';
  }

  /** What the user reads: the message, and the hint on its own line. */
  get userMessage(): string {
    return this.hint ? `${this.message}\n${this.hint}` : this.message;
  }
}

/** Bad flags, parameters, stdin or output location: the message names what is wrong and how to fix it. */
export class InputError extends UserFacingError {
  readonly kind = 'input';
  readonly exitCode = ExitCode.badInput;
}

/** Configuration the recipe points at cannot be used (a script file, discovered tools, an MCP server). */
export class ConfigError extends UserFacingError {
  readonly kind = 'recipe';
  readonly exitCode = ExitCode.badRecipe;
}

/** A credential a command needs before it starts anything is missing (a batch's GitHub token): exit 41. */
export class AuthError extends UserFacingError {
  readonly kind = 'auth';
  readonly exitCode = ExitCode.auth;
}
