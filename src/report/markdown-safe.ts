// Text the model or a tool wrote, placed in report.md (the GitHub step summary), must not reach
// past its own place: an unclosed code fence turned every later section into code, a line starting
// `<!--` hid the rest of the report (denials, files changed) inside a comment, an unclosed
// `<details>` folded it away. A model steered by the repository it works on could write any of
// them into its answer, a plan, a todo, or a command the policy refused. So in such text, HTML
// outside code is escaped (it shows as written), and a fence left open is closed where the text
// ends. Markdown itself (lists, emphasis, code) still renders. report.json keeps the text exactly.

/** `<` where it could open HTML: a tag, an end tag, a comment, a declaration or an instruction. */
const HTML_START = /<(?=[A-Za-z/!?])/g;

/** A fence line as CommonMark reads one: up to 3 spaces, then 3 or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The model's Markdown, contained: HTML outside code escaped, an open fence closed at the end. */
export function containedMarkdown(text: string): string {
  const lines = text.split('\n');
  let open: string | null = null;
  const out = lines.map((line) => {
    const was = open;
    open = fenceAfter(line, open);
    return was === null && open === null ? inlineSafe(line) : line;
  });
  if (open !== null) out.push(open);
  return out.join('\n');
}

/** The fence open after `line`, given the one open before it (null: none). */
function fenceAfter(line: string, open: string | null): string | null {
  const fence = FENCE.exec(line)?.[1];
  if (open !== null) {
    // A closing fence: the same character, at least as long, nothing but spaces after it.
    return fence && fence[0] === open[0] && fence.length >= open.length && line.trim() === fence ? null : open;
  }
  // A backtick fence whose info string holds a backtick is no fence (CommonMark).
  return fence && !(fence[0] === '`' && line.slice(line.indexOf(fence) + fence.length).includes('`')) ? fence : null;
}

/**
 * Markdown cut short, with the fence it was cut inside closed: a note after it would otherwise
 * show as code, and in a pull request body or job summary so would everything that follows.
 */
export function closeCutFence(head: string): string {
  let open: string | null = null;
  for (const line of head.split('\n')) open = fenceAfter(line, open);
  return open === null ? head : `${head}${head.endsWith('\n') ? '' : '\n'}${open}`;
}

/**
 * One line of text as Markdown that cannot open HTML: `<` escaped outside code spans (inside
 * them it shows as written anyway, and an entity there would show as `&lt;`).
 */
export function inlineSafe(line: string): string {
  if (!line.includes('<')) return line;
  let out = '';
  let at = 0;
  while (at < line.length) {
    const tick = line.indexOf('`', at);
    if (tick === -1) break;
    const run = /^`+/.exec(line.slice(tick))![0];
    const close = findRun(line, tick + run.length, run.length);
    if (close === -1) {
      // No span closes here: these backticks are text.
      out += line.slice(at, tick + run.length).replace(HTML_START, '&lt;');
      at = tick + run.length;
      continue;
    }
    out += line.slice(at, tick).replace(HTML_START, '&lt;') + line.slice(tick, close + run.length);
    at = close + run.length;
  }
  return out + line.slice(at).replace(HTML_START, '&lt;');
}

/** Where a run of exactly `length` backticks starts at or after `from`, or -1. */
function findRun(line: string, from: number, length: number): number {
  const runs = /`+/g;
  runs.lastIndex = from;
  for (let m = runs.exec(line); m; m = runs.exec(line)) if (m[0].length === length) return m.index;
  return -1;
}

/** `text` as one inline code span, whatever backticks it holds (CommonMark: a longer fence, padded). */
export function codeSpan(text: string): string {
  const flat = text.replace(/\n/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
