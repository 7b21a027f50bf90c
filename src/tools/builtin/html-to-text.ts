// HTML reduced to the text a reader sees, for web_fetch: a small linear scanner; character
// references decoded by the `entities` package. (Linear matters: the page is the attacker's. A DOM
// library was measured and not taken: html-to-text spent 100+ s on 200,000 nested <div>s, a 1 MB
// page, synchronously, where no timeout can stop it, and ~5x this scanner's time on plain pages.)
// Scripts, styles and other non-text elements are dropped, and so is what the page hides from a
// reader (`hidden`, `aria-hidden="true"`, `display: none`, `visibility: hidden`: where a page keeps
// text meant for the model and not the person, such as instructions); block elements become line
// breaks, <pre> keeps its whitespace, entities are decoded, and the page title leads.

import { decodeHTML } from 'entities';

/** Elements whose content is never text for a reader. */
// Not <head>: it may be left unclosed, and its only text (the title) is taken separately.
const DROPPED = new Set(['script', 'style', 'noscript', 'svg', 'template', 'title', 'iframe', 'canvas']);

/** Elements without content: hidden or not, there is nothing after their start tag to skip. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** Elements a start tag of the same name closes when left open (`<li hidden>one<li>two`). */
const CLOSED_BY_SIBLING = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option']);

const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'header', 'hr', 'html', 'li', 'main', 'nav', 'ol', 'p', 'section', 'summary', 'table',
  'tbody', 'thead', 'tfoot', 'tr', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'caption',
]);

export function htmlToText(html: string): string {
  const out = new TextBuilder();
  const lower = html.toLowerCase();
  let title = '';
  let preDepth = 0;
  let pos = 0; // start of the text not yet emitted
  let search = 0;
  // Inside a hidden element: its name and how deep in same-named elements; nothing is emitted.
  let hidden: { name: string; depth: number } | null = null;
  for (let at = html.indexOf('<', search); at >= 0; at = html.indexOf('<', search)) {
    const markup = readMarkup(html, at);
    if (markup === null) {
      search = at + 1; // a '<' that starts no tag is text
      continue;
    }
    if (hidden === null) out.text(html.slice(pos, at), preDepth > 0);
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
    if (hidden !== null) {
      if (name !== hidden.name || VOID.has(name) || selfClosing) continue;
      if (closing) hidden.depth--;
      else if (hidden.depth === 1 && CLOSED_BY_SIBLING.has(name)) hidden.depth = 0;
      else hidden.depth++;
      if (hidden.depth > 0) continue;
      hidden = null;
      if (closing) continue;
      // A sibling closed the hidden one: it is itself a start tag, read below.
    }
    if (!closing && !selfClosing && !VOID.has(name) && hidesContent(html, markup)) {
      hidden = { name, depth: 1 };
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
  if (hidden === null) out.text(html.slice(pos), preDepth > 0);
  const body = out.finish();
  const titleText = collapse(decodeEntities(title)).trim();
  return titleText ? `Title: ${titleText}${body ? `\n\n${body}` : ''}` : body;
}

interface Markup {
  /** Lower-case tag name; '' for a comment or declaration. */
  name: string;
  /** Where the attributes start (just past the name). */
  attributesAt: number;
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
    return { name: '', attributesAt: at, closing: false, selfClosing: false, end: close < 0 ? html.length : close + 3 };
  }
  if (next === '!' || next === '?') {
    const close = html.indexOf('>', at);
    return { name: '', attributesAt: at, closing: false, selfClosing: false, end: close < 0 ? html.length : close + 1 };
  }
  let i = at + 1;
  const closing = next === '/';
  if (closing) i++;
  const nameStart = i;
  if (!/[a-zA-Z]/.test(html[i] ?? '')) return null;
  while (i < html.length && /[a-zA-Z0-9:-]/.test(html[i]!)) i++;
  const name = html.slice(nameStart, i).toLowerCase();
  const attributesAt = i;
  // Attributes: a quote opens a quoted value only right after '=', as in a browser.
  let quote: string | null = null;
  let lastSignificant = '';
  for (; i < html.length; i++) {
    const c = html[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '>') {
      return { name, attributesAt, closing, selfClosing: lastSignificant === '/', end: i + 1 };
    } else if ((c === '"' || c === "'") && lastSignificant === '=') {
      quote = c;
    }
    if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') lastSignificant = c;
  }
  // An unterminated tag swallows the rest of the page, as it does in a browser.
  return { name: '', attributesAt: at, closing: false, selfClosing: false, end: html.length };
}

const MAY_HIDE = /hidden|display|visibility/i;
const HIDING_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))\s*(?:!important\s*)?(?:;|$)/i;

/**
 * Whether a start tag hides its element from a reader. Its attributes are read once, forward, as
 * readMarkup read them (linear), and only when one of the words that can hide is there at all.
 */
function hidesContent(html: string, markup: Markup): boolean {
  if (markup.end - markup.attributesAt <= 2) return false; // `<div>`, `<p/>`: no attributes
  const text = html.slice(markup.attributesAt, markup.end - 1);
  if (!MAY_HIDE.test(text)) return false;
  for (const [name, value] of attributes(text)) {
    if (name === 'hidden') return true;
    if (name === 'aria-hidden' && value.trim().toLowerCase() === 'true') return true;
    if (name === 'style' && HIDING_STYLE.test(decodeEntities(value))) return true;
  }
  return false;
}

/** A start tag's attributes (lower-case names; a bare one has the value ''), as a browser reads them. */
function attributes(text: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '/';
  let i = 0;
  while (i < text.length) {
    while (i < text.length && isSpace(text[i])) i++;
    const nameStart = i;
    while (i < text.length && !isSpace(text[i]) && text[i] !== '=') i++;
    const name = text.slice(nameStart, i).toLowerCase();
    while (i < text.length && text[i] !== '=' && isSpace(text[i]) && text[i] !== '/') i++;
    let value = '';
    if (text[i] === '=') {
      i++;
      while (i < text.length && isSpace(text[i]) && text[i] !== '/') i++;
      const quote = text[i] === '"' || text[i] === "'" ? text[i]! : null;
      const valueStart = quote ? i + 1 : i;
      i = valueStart;
      while (i < text.length && (quote ? text[i] !== quote : !isSpace(text[i]) || text[i] === '/')) i++;
      value = text.slice(valueStart, i);
      if (quote) i++;
    }
    if (name) found.push([name, value]);
    else if (i === nameStart) i++; // never stand still
  }
  return found;
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

/**
 * Character references as a browser reads them in text: every named one of HTML (2,231, the legacy
 * ones without a semicolon too), numeric ones, and U+FFFD for those that name no character. The
 * `entities` package (htmlparser2's) keeps that table and the spec's rules, a linear decoder.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  const decoded = decodeHTML(text);
  return HAS_SPECIAL.test(decoded) ? decoded.replace(WIDE_SPACES, ' ').replace(INVISIBLE, '') : decoded;
}

// What `&nbsp;`, `&ensp;`, `&emsp;`, `&thinsp;` decode to reads as a plain space; a soft hyphen,
// zero-width characters and direction marks as nothing.
const WIDE_SPACES = /[\u00a0\u2002\u2003\u2009]/g;
const INVISIBLE = /[\u00ad\u200b-\u200f]/g;
const HAS_SPECIAL = /[\u00a0\u00ad\u2002\u2003\u2009\u200b-\u200f]/;
