// A parsed recipe that remembers where every node came from, so each problem can name the
// line and column a user has to look at.
import type { Document, LineCounter, Node } from 'yaml';
import { yaml } from '../util/yaml.js';
import type { Problem } from './errors.js';

export type Path = readonly (string | number)[];

/** How far aliases may expand (yaml's maxAliasCount): beyond it they only cost memory and time. */
const ALIAS_LIMIT = 100;

/** YAML errors after which the parsed data is still what the user meant (last duplicate wins). */
const RECOVERABLE_CODES = new Set(['DUPLICATE_KEY']);

/** Where the checks record problems: a RecipeSource, or one seen through a conversion (MappedSource). */
export interface ProblemSink {
  readonly file: string;
  add(path: Path, message: string): void;
  addAtKey(path: Path, message: string): void;
  addInText(path: Path, needle: string, message: string): void;
  positionOf(path: Path): { line: number; col: number };
  /** Line and column of the key of the entry at `path` (of its value when it has no key). */
  keyPositionOf(path: Path): { line: number; col: number };
}

export class RecipeSource implements ProblemSink {
  readonly problems: Problem[] = [];
  /** The plain data, or undefined when the YAML is too broken to check further. */
  readonly data: unknown;
  private readonly doc: Document.Parsed;
  private readonly lines: LineCounter;

  constructor(
    readonly file: string,
    readonly text: string,
  ) {
    const { LineCounter, parseDocument } = yaml();
    this.lines = new LineCounter();
    this.doc = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true, merge: true });
    let fatal = false;
    for (const e of this.doc.errors) {
      fatal ||= !RECOVERABLE_CODES.has(e.code);
      this.addAtOffset(e.pos[0], yamlMessage(e.code, e.message, keyTextAt(text, e.pos[0])));
    }
    for (const w of this.doc.warnings) this.addAtOffset(w.pos[0], yamlMessage(w.code, w.message, ''));
    this.data = fatal ? undefined : this.plainData();
  }

  /** The document as data; a document that cannot become data is one more problem, at its place. */
  private plainData(): unknown {
    try {
      return this.doc.toJS({ maxAliasCount: ALIAS_LIMIT });
    } catch (error) {
      const message = (error as Error).message;
      // An alias with no anchor before it, and a merge key given no mapping, throw here too, in
      // words that name an alias: they are told as what they are, at their place, not as a bomb.
      const dangling = /unresolved alias|merge sources/i.test(message) ? danglingAlias(this.doc) : null;
      const merge = dangling === null && /merge sources must be maps/i.test(message) ? badMerge(this.doc) : null;
      if (dangling) {
        const name = dangling.name;
        this.addAtOffset(dangling.offset, `unknown alias '*${name}': no anchor '&${name}' is set before it (an anchor comes first, \`key: &${name} value\`, then \`*${name}\` where it is used again)`);
      } else if (merge !== null) {
        this.addAtOffset(merge.offset, `'<<' (a merge key) takes a mapping, an alias of one (\`<<: *defaults\`) or a list of them, not ${merge.given}`);
      } else if (/alias/i.test(message)) {
        // yaml refuses aliases that expand into more nodes than the limit (an "alias bomb").
        this.addAtOffset(firstAliasOffset(this.doc), `its aliases (*name) expand into too much data, as an alias bomb does: write the values out, or refer to each anchor fewer times`);
      } else {
        this.addAtOffset(0, `the YAML cannot be read as data: ${message}`);
      }
      return undefined;
    }
  }

  /** Records a problem at the value at `path` (or its nearest existing ancestor). */
  add(path: Path, message: string): void {
    this.addAtOffset(this.offsetOf(path), message);
  }

  /** Records a problem at the key of the entry at `path` (for unknown keys). */
  addAtKey(path: Path, message: string): void {
    this.addAtOffset(this.keyOffsetOf(path), message);
  }

  keyPositionOf(path: Path): { line: number; col: number } {
    return this.lineCol(this.keyOffsetOf(path));
  }

  /**
   * Records a problem at the first occurrence of `needle` inside the scalar at `path`, so a bad
   * placeholder in a long block-scalar prompt is reported on its own line.
   */
  addInText(path: Path, needle: string, message: string): void {
    const node = this.nodeAt(path);
    if (node?.range) {
      const at = this.text.slice(node.range[0], node.range[1]).indexOf(needle);
      if (at >= 0) return this.addAtOffset(node.range[0] + at, message);
    }
    this.add(path, message);
  }

  /** Line and column (1-based) of the value at `path`, or of its nearest existing ancestor. */
  positionOf(path: Path): { line: number; col: number } {
    return this.lineCol(this.offsetOf(path));
  }

  private addAtOffset(offset: number, message: string): void {
    this.problems.push({ file: this.file, ...this.lineCol(offset), message });
  }

  private lineCol(offset: number): { line: number; col: number } {
    const { line, col } = this.lines.linePos(offset);
    return { line: Math.max(line, 1), col: Math.max(col, 1) };
  }

  private keyOffsetOf(path: Path): number {
    const parent = this.nodeAt(path.slice(0, -1));
    const key = path[path.length - 1];
    const { isMap, isPair, isScalar } = yaml();
    if (isMap(parent)) {
      const pair = parent.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key));
      const keyNode = pair?.key as Node | undefined;
      if (keyNode?.range) return keyNode.range[0];
    }
    return this.offsetOf(path);
  }

  private offsetOf(path: Path): number {
    for (let n = path.length; n >= 0; n--) {
      const node = this.nodeAt(path.slice(0, n));
      if (node?.range) return node.range[0];
    }
    return 0;
  }

  private nodeAt(path: Path): Node | null {
    if (path.length === 0) return (this.doc.contents as Node | null) ?? null;
    const node = this.doc.getIn(path, true);
    return node && typeof node === 'object' && 'range' in node ? (node as Node) : null;
  }
}

/**
 * The checks of a recipe converted from another format (goose), reporting at the original file's
 * lines: `origin` maps a path of the converted recipe to the path it came from.
 */
export class MappedSource implements ProblemSink {
  readonly file: string;

  constructor(
    private readonly source: RecipeSource,
    private readonly origin: (path: Path) => Path,
    /** The message as the original file's reader needs it: its own field names, not the converted recipe's. */
    private readonly rename: (path: Path, message: string) => string = (_, message) => message,
  ) {
    this.file = source.file;
  }

  add(path: Path, message: string): void {
    this.source.add(this.origin(path), this.rename(path, message));
  }

  addAtKey(path: Path, message: string): void {
    this.source.add(this.origin(path), this.rename(path, message));
  }

  addInText(path: Path, needle: string, message: string): void {
    this.source.addInText(this.origin(path), needle, this.rename(path, message));
  }

  positionOf(path: Path): { line: number; col: number } {
    return this.source.positionOf(this.origin(path));
  }

  keyPositionOf(path: Path): { line: number; col: number } {
    return this.source.positionOf(this.origin(path));
  }
}

/** The first alias with no anchor of its name before it, and where it is written; null when none. */
function danglingAlias(doc: Document.Parsed): { name: string; offset: number } | null {
  const { visit } = yaml();
  let found: { name: string; offset: number } | null = null;
  visit(doc, {
    Alias(_, node) {
      if (node.resolve(doc) !== undefined) return undefined;
      found = { name: node.source, offset: node.range?.[0] ?? 0 };
      return visit.BREAK;
    },
  });
  return found;
}

/** The first `<<` that merges no mapping: where it is written and what it was given; null when none is found. */
function badMerge(doc: Document.Parsed): { offset: number; given: string } | null {
  const { visit, isAlias, isMap, isScalar, isSeq } = yaml();
  const target = (node: unknown): unknown => (isAlias(node) ? node.resolve(doc) : node);
  const what = (node: unknown): string => (isSeq(node) ? 'a list' : isScalar(node) ? `the value ${JSON.stringify(node.value)}` : 'nothing');
  let found: { offset: number; given: string } | null = null;
  visit(doc, {
    Pair(_, pair) {
      if (!isScalar(pair.key) || pair.key.source !== '<<') return undefined;
      const value = target(pair.value);
      const items = isSeq(value) && !isAlias(pair.value) ? value.items.map(target) : [value];
      const other = items.find((item) => !isMap(item));
      if (other === undefined) return undefined;
      const given = items.length === 1 && !isSeq(pair.value) ? what(other) : `a list holding ${what(other)}`;
      found = { offset: pair.key.range?.[0] ?? 0, given: isAlias(pair.value) ? `an alias of ${given}` : given };
      return visit.BREAK;
    },
  });
  return found;
}

/** Where the first alias is written: the place to look when the aliases expand too far. */
function firstAliasOffset(doc: Document.Parsed): number {
  const { visit } = yaml();
  let offset = 0;
  visit(doc, {
    Alias(_, node) {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
}

function yamlMessage(code: string, message: string, source: string): string {
  if (code === 'DUPLICATE_KEY') return `duplicate key '${source}': each key may appear once in a map`;
  if (code === 'MULTIPLE_DOCS') return 'a recipe is one YAML document, and a second one starts here: remove this `---` and keep one (another recipe goes in a file of its own)';
  if (code === 'TAG_RESOLVE_FAILED') return `${message.replace(/^Unresolved/, 'unsupported')} (recipes are plain YAML)`;
  return `YAML syntax error: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
}

/** The key written at `offset` (yaml points a duplicate-key error at the key's first character). */
function keyTextAt(text: string, offset: number): string {
  return (/^[^:\n,}]*/.exec(text.slice(offset, offset + 200))?.[0] ?? '').trim();
}

export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => a.line - b.line || a.col - b.col);
}
