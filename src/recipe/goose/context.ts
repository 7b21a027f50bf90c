// What one goose conversion collects: warnings for what it ignored or changed, problems (errors,
// at goose paths), and where each part of the converted recipe came from, so that a problem our
// checks find in the converted recipe is reported at the goose file's line.
import type { Path } from '../positions.js';

export type Dict = Record<string, unknown>;

export class ConversionContext {
  readonly warnings: string[] = [];
  readonly problems: Array<{ path: Path; message: string }> = [];
  private readonly origins = new Map<string, Path>();

  /** `dir`: the recipe file's directory; `prefix`: where the recipe lies in the file (['recipe'] for goose Desktop's format). */
  constructor(
    readonly dir: string,
    private readonly prefix: Path,
  ) {}

  /** `field` is the goose path as a user reads it: `settings.temperature`, `extensions[2]`. */
  warn(field: string, message: string): void {
    this.warnings.push(`goose recipe: ${field}: ${message}`);
  }

  problem(goosePath: Path, message: string): void {
    this.problems.push({ path: [...this.prefix, ...goosePath], message });
  }

  /** Our path `ours` (and everything below it) came from the goose path `goose`. */
  from(ours: Path, goose: Path): void {
    this.origins.set(key(ours), [...this.prefix, ...goose]);
  }

  /** The goose path a path of the converted recipe came from: the longest recorded prefix, plus the rest. */
  origin(ours: Path): Path {
    return this.recorded(ours) ?? this.prefix;
  }

  /**
   * A message our checks wrote at our path, naming the goose file's field instead: the user wrote
   * `settings.max_turns`, and "'limits.max_turns' must be at least 1" names a key their file does
   * not have. The longest part of the path the message names is the one renamed, once.
   */
  rename(ours: Path, message: string): string {
    for (const [term, goose] of GOOSE_TERMS) message = message.replace(term, goose);
    for (let n = ours.length; n > 0; n--) {
      const head = ours.slice(0, n);
      const goose = this.recorded(head);
      if (!goose) continue;
      const to = dotted(goose);
      for (const from of new Set([dotted(head), head.join('.')])) {
        const at = new RegExp(`(?<![\\w.\\[])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w\\[]|\\.\\w)`).exec(message);
        if (at) return from === to ? message : message.slice(0, at.index) + to + message.slice(at.index + from.length);
      }
    }
    return message;
  }

  private recorded(ours: Path): Path | null {
    for (let n = ours.length; n > 0; n--) {
      const found = this.origins.get(key(ours.slice(0, n)));
      if (found) return [...found, ...ours.slice(n)];
    }
    return null;
  }
}

/** What our checks' hints name, as a goose file writes it. */
const GOOSE_TERMS: ReadonlyArray<[string, string]> = [
  ["MCP server '", "extension '"],
  ['needs either command (stdio) or url (HTTP)', 'needs either cmd (type: stdio) or uri (type: streamable_http)'],
  ['add checks.commands or require_changes: true', 'add retry.checks: [{type: shell, command: …}]'],
];

/** A path as messages write it: `settings.max_turns`, `extensions[0].cmd`. */
function dotted(path: Path): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function key(path: Path): string {
  return JSON.stringify(path);
}

export function isDict(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Seconds as goose writes them -> one of our durations. */
export function seconds(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? `${v}s` : undefined;
}

/** A value as a message quotes it: `"not-a-list"`, `5`, `a map`. */
export function describe(v: unknown): string {
  if (Array.isArray(v)) {
    const odd = v.find((item) => typeof item === 'object' && item !== null);
    return odd === undefined ? 'a list' : `a list holding ${describe(odd)}`;
  }
  if (isDict(v)) return 'a map';
  return JSON.stringify(v) ?? String(v);
}
