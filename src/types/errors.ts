// The one base of every failure a user can cause or fix: it carries its exit code and a hint, so
// classifying an error is `instanceof UserFacingError` and reading two fields, never a name string.
// Anything else that reaches the top is a bug: exit 1 with "unexpected error".
import type { ExitCodeValue, RunStatus } from './outcome.js';

/** What kind of thing went wrong, for reports and for batch's transient/final classification. */
export type ErrorKind =
  | 'recipe' // the recipe or what it points at (script, discovery, MCP server, sandbox): exit 52
  | 'input' // flags, parameters, stdin, output directory: exit 42
  | 'auth' // credentials missing or refused: exit 41
  | 'model' // the model endpoint failed after retries, or refused: exit 1
  | 'io' // the run's own files cannot be written: exit 54
  | 'handoff'; // the git hand-off failed: exit 58

export abstract class UserFacingError extends Error {
  abstract readonly kind: ErrorKind;
  abstract readonly exitCode: ExitCodeValue;
  /** The status a run that ends with this error gets. */
  readonly status: RunStatus = 'error';

  constructor(
    message: string,
    /** How to fix it, in one line; printed after the message. */
    readonly hint: string | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The message and hint as the user reads them. */
  get userMessage(): string {
    return this.hint ? `${this.message}\n  hint: ${this.hint}` : this.message;
  }
}
