// `serverAlias__toolName`, made acceptable to every provider (OpenAI: ^[a-zA-Z0-9_-]{1,64}$;
// Gemini: must start with a letter or `_`) and unique. Names depend only on the alias, the tool
// name and what was taken before, so the same recipe offers the same names run after run.
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

/** Letters, digits, `_` and `-` only, never starting with a digit or `-`. */
export function sanitizeName(raw: string): string {
  const replaced = raw.replace(/[^A-Za-z0-9_-]/g, '_');
  return /^[A-Za-z_]/.test(replaced) ? replaced : `_${replaced}`;
}

export function shortHash(text: string, salt = 0): string {
  return createHash('sha256').update(`${salt}\0${text}`).digest('hex').slice(0, HASH_LENGTH);
}

/**
 * Hands out provider-safe names. A name that is taken (or reserved for a built-in) gets a suffix
 * from a hash of the server alias and the tool's own name, so it never depends on timing.
 */
export class ToolNameAllocator {
  private readonly taken = new Set<string>();

  constructor(private readonly reserved: (name: string) => boolean) {}

  /**
   * `others`: the `alias__tool` names of the server's other tools (offered or not). Rules may name a
   * tool by its original name or by the name it is offered under, so one tool is never offered
   * under another's original name: `e.cho` listed beside `e_cho` is not offered as `x__e_cho`,
   * which a rule allowing `x__e_cho` would then have covered too.
   */
  allocate(alias: string, toolName: string, others: ReadonlySet<string> = new Set()): string {
    const original = `${alias}__${toolName}`;
    const free = (name: string) => this.isFree(name) && (name === original || !others.has(name));
    const base = sanitizeName(original);
    if (base.length <= MAX_TOOL_NAME_LENGTH && free(base)) return this.take(base);
    // Too long, or the sanitised name clashes: a hash of the exact original tells them apart.
    const prefix = base.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1);
    for (let salt = 0; ; salt++) {
      const candidate = `${prefix}_${shortHash(original, salt)}`;
      if (free(candidate)) return this.take(candidate);
    }
  }

  private isFree(name: string): boolean {
    return !this.taken.has(name) && !this.reserved(name);
  }

  private take(name: string): string {
    this.taken.add(name);
    return name;
  }
}
