// HTML reduced to the text a reader sees, for web_fetch: a small linear scanner, no dependency.
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

// A tag, with attributes that may quote '>'; or a comment; or a doctype/CDATA-like declaration.
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>|<!--[\s\S]*?(?:-->|$)|<![^>]*>|<\?[^>]*>/g;

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
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const titleText = title ? collapse(decodeEntities(title[1]!)).trim() : '';
  if (titleText) out.line(`Title: ${titleText}`);

  const lower = html.toLowerCase();
  let pos = 0;
  let preDepth = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(html); m !== null; m = TAG.exec(html)) {
    out.text(html.slice(pos, m.index), preDepth > 0);
    pos = TAG.lastIndex;
    const name = m[2]?.toLowerCase();
    if (name === undefined) continue; // comment or declaration
    const closing = m[1] === '/';
    const selfClosing = (m[3] ?? '').trimEnd().endsWith('/');
    if (!closing && !selfClosing && DROPPED.has(name)) {
      // Skip to the matching end tag; an unclosed one drops the rest, as a browser would.
      const end = lower.indexOf(`</${name}`, pos);
      const after = end < 0 ? -1 : lower.indexOf('>', end);
      pos = after < 0 ? html.length : after + 1;
      TAG.lastIndex = pos;
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
  return out.finish();
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

  line(text: string): void {
    this.raw(text);
    this.newline(2);
  }

  finish(): string {
    return this.parts
      .join('')
      .replace(/[ \t]+\n/g, '\n')
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
