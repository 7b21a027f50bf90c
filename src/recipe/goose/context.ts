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
    for (let n = ours.length; n > 0; n--) {
      const found = this.origins.get(key(ours.slice(0, n)));
      if (found) return [...found, ...ours.slice(n)];
    }
    return this.prefix;
  }
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
