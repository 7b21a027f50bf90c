// HTML reduced to the text a reader sees, for web_fetch: a small linear scanner, no dependency.
// (Linear matters: the page is the attacker's, and a backtracking regex would freeze the run.)
// Scripts, styles and other non-text elements are dropped, block elements become line breaks,
// <pre> keeps its whitespace, entities are decoded, and the page title leads.

/** Elements whose content is never text for a reader. */
// Not <head>: it may be left unclosed, and its only text (the title) is taken separately.
const DROPPED = new Set(['script', 'style', 'noscript', 'svg', 'template', 'title', 'iframe', 'canvas']);

const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'header', 'hr', 'html', 'li', 'main', 'nav', 'ol', 'p', 'section', 'summary', 'table',
  'tbody', 'thead', 'tfoot', 'tr', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'caption',
]);

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ensp: ' ', emsp: ' ', thinsp: ' ', shy: '',
  copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–', minus: '−', lsquo: '‘', rsquo: '’',
  ldquo: '“', rdquo: '”', sbquo: '‚', bdquo: '„', laquo: '«', raquo: '»', bull: '•', middot: '·', times: '×',
  divide: '÷', deg: '°', plusmn: '±', para: '¶', sect: '§', euro: '€', pound: '£', yen: '¥', cent: '¢',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', rArr: '⇒', lArr: '⇐', le: '≤', ge: '≥', ne: '≠',
  check: '✓', zwj: '', zwnj: '', lrm: '', rlm: '',
};

export function htmlToText(html: string): string {
  const out = new TextBuilder();
  const lower = html.toLowerCase();
  let title = '';
  let preDepth = 0;
  let pos = 0; // start of the text not yet emitted
  let search = 0;
  for (let at = html.indexOf('<', search); at >= 0; at = html.indexOf('<', search)) {
    const markup = readMarkup(html, at);
    if (markup === null) {
      search = at + 1; // a '<' that starts no tag is text
      continue;
    }
    out.text(html.slice(pos, at), preDepth > 0);
    pos = search = markup.end;
    const { name, closing, selfClosing } = markup;
    if (name === '') continue; // comment or declaration
    if (!closing && !selfClosing && DROPPED.has(name)) {
      // Skip to the matching end tag; an unclosed one drops the rest, as a browser would.
      const endTag = lower.indexOf(`</${name}`, markup.end);
      if (name === 'title' && title === '') title = html.slice(markup.end, endTag < 0 ? html.length : endTag);
      const after = endTag < 0 ? -1 : html.indexOf('>', endTag);
      pos = search = after < 0 ? html.length : after + 1;
      continue;
    }
    if (name === 'br') out.newline(1);
    else if (name === 'pre') {
      preDepth = Math.max(0, preDepth + (closing ? -1 : 1));
      out.newline(2);
    } else if (/^h[1-6]$/.test(name)) {
      out.newline(2);
      if (!closing) out.raw(`${'#'.repeat(Number(name[1]))} `);
    } else if (name === 'li' && !closing) {
      out.newline(1);
      out.raw('- ');
    } else if (name === 'p' || name === 'table' || name === 'blockquote') out.newline(2);
    else if (BLOCKS.has(name)) out.newline(1);
    else if ((name === 'td' || name === 'th') && !closing) out.cell();
  }
  out.text(html.slice(pos), preDepth > 0);
  const body = out.finish();
  const titleText = collapse(decodeEntities(title)).trim();
  return titleText ? `Title: ${titleText}${body ? `\n\n${body}` : ''}` : body;
}

interface Markup {
  /** Lower-case tag name; '' for a comment or declaration. */
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** Index just past the markup. */
  end: number;
}

/**
 * The markup starting at `at` (a '<'), or null when that '<' is text. Each call reads forward
 * from `at` only and the caller never reads the same characters again: the whole pass is linear,
 * whatever the page (a regex over attributes can be made to backtrack for minutes).
 */
function readMarkup(html: string, at: number): Markup | null {
  const next = html[at + 1];
  if (html.startsWith('<!--', at)) {
    const close = html.indexOf('-->', at + 4);
    return { name: '', closing: false, selfClosing: false, end: close < 0 ? html.length : close + 3 };
  }
  if (next === '!' || next === '?') {
    const close = html.indexOf('>', at);
    return { name: '', closing: false, selfClosing: false, end: close < 0 ? html.length : close + 1 };
  }
  let i = at + 1;
  const closing = next === '/';
  if (closing) i++;
  const nameStart = i;
  if (!/[a-zA-Z]/.test(html[i] ?? '')) return null;
  while (i < html.length && /[a-zA-Z0-9:-]/.test(html[i]!)) i++;
  const name = html.slice(nameStart, i).toLowerCase();
  // Attributes: a quote opens a quoted value only right after '=', as in a browser.
  let quote: string | null = null;
  let lastSignificant = '';
  for (; i < html.length; i++) {
    const c = html[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '>') {
      return { name, closing, selfClosing: lastSignificant === '/', end: i + 1 };
    } else if ((c === '"' || c === "'") && lastSignificant === '=') {
      quote = c;
    }
    if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') lastSignificant = c;
  }
  // An unterminated tag swallows the rest of the page, as it does in a browser.
  return { name: '', closing: false, selfClosing: false, end: html.length };
}

/** Accumulates output; line breaks are structural (from tags), text whitespace is collapsed. */
class TextBuilder {
  private readonly parts: string[] = [];
  private pendingNewlines = 0;
  private atLineStart = true;

  text(chunk: string, preformatted: boolean): void {
    if (chunk === '') return;
    let text = decodeEntities(preformatted ? chunk : collapse(chunk));
    if (!preformatted && this.atLineStart) text = text.trimStart();
    if (text === '') return;
    this.raw(text);
  }

  raw(text: string): void {
    if (this.pendingNewlines > 0 && this.parts.length > 0) this.parts.push('\n'.repeat(this.pendingNewlines));
    this.pendingNewlines = 0;
    this.parts.push(text);
    this.atLineStart = text.endsWith('\n');
  }

  newline(count: number): void {
    this.pendingNewlines = Math.max(this.pendingNewlines, count);
    this.atLineStart = true;
  }

  /** Cells of a row on one line, separated by bars. */
  cell(): void {
    if (!this.atLineStart) this.raw(' | ');
  }

  finish(): string {
    // Line by line, not /[ \t]+\n/: that regex is quadratic on a long run of spaces in a <pre>.
    return this.parts
      .join('')
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }
}

function collapse(text: string): string {
  return text.replace(/[ \t\n\r\f]+/g, ' ');
}

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\uFFFD';
    }
    if (Object.hasOwn(ENTITIES, ref)) return ENTITIES[ref]!;
    const lower = ref.toLowerCase(); // &AMP; and friends
    return Object.hasOwn(ENTITIES, lower) ? ENTITIES[lower]! : whole;
  });
}
