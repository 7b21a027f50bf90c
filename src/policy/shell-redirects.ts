// Redirections of one analysed command line, reduced to what the policy must check: files read,
// files written, descriptors duplicated or closed, and literal text fed on stdin (quoted heredocs,
// here-strings). A shape not listed here is refused by the walk, like any other unknown node.
import type { Node } from 'web-tree-sitter';
import { literalWord } from './shell-words.js';
import { heredocBody } from './shell-heredoc.js';

export type ShellRedirect =
  | { kind: 'write'; path: string; text: string }
  | { kind: 'read'; path: string; text: string }
  /** `2>&1`, `>&2`, `2>&-`: between descriptors the command already has. */
  | { kind: 'descriptor'; text: string }
  /** A quoted heredoc or a here-string: `body`, literal text on stdin. */
  | { kind: 'input'; text: string; body: string };

const WRITES = new Set(['>', '>>', '&>', '&>>', '>|']);
const READS = new Set(['<']);
const DUPLICATES = new Set(['>&', '<&']);
const CLOSES = new Set(['>&-', '<&-']);

export type RedirectResult = { ok: true; redirects: ShellRedirect[]; nested: Node[] } | { ok: false; reason: string; construct?: Node };

/** A redirect node (file_redirect, heredoc_redirect, herestring_redirect) or why it is refused. */
export function readRedirect(node: Node): RedirectResult {
  switch (node.type) {
    case 'file_redirect':
      return fileRedirect(node);
    case 'heredoc_redirect':
      return heredoc(node);
    case 'herestring_redirect': {
      const word = node.namedChildren.length === 1 ? literalWord(node.namedChildren[0]!) : null;
      if (!word || !word.ok) return { ok: false, reason: `the here-string '${node.text}' is not literal`, construct: word && !word.ok ? word.construct : undefined };
      return { ok: true, redirects: [{ kind: 'input', text: node.text, body: word.word.value }], nested: [] };
    }
    default:
      return { ok: false, reason: '', construct: node };
  }
}

function fileRedirect(node: Node): RedirectResult {
  let operator: string | null = null;
  let descriptor: string | null = null;
  const destinations: Node[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    const field = node.fieldNameForChild(i);
    if (field === 'descriptor' && child.type === 'file_descriptor' && /^\d$/.test(child.text)) descriptor = child.text;
    else if (field === 'destination') destinations.push(child);
    else if (!child.isNamed && operator === null) operator = child.type;
    else return { ok: false, reason: `the redirection '${node.text}' has a part the policy does not know ('${child.text}')` };
  }
  if (operator === null) return { ok: false, reason: `the redirection '${node.text}' has no operator` };
  if (CLOSES.has(operator) && destinations.length === 0) return { ok: true, redirects: [{ kind: 'descriptor', text: node.text }], nested: [] };
  if (destinations.length !== 1) return { ok: false, reason: `the redirection '${node.text}' does not name one target` };
  const word = literalWord(destinations[0]!);
  if (!word.ok) return { ok: false, reason: word.reason || `the redirection target in '${node.text}' is not literal`, construct: word.construct };
  const target = word.word.value;
  if (DUPLICATES.has(operator)) {
    // `>&2` duplicates a descriptor; `>& file` (bash) writes stdout and stderr to the file.
    if (/^\d$|^-$/.test(target)) return { ok: true, redirects: [{ kind: 'descriptor', text: node.text }], nested: [] };
    if (operator === '<&') return { ok: false, reason: `the redirection '${node.text}' duplicates a descriptor that is not a number` };
    return { ok: true, redirects: [{ kind: 'write', path: target, text: node.text }], nested: [] };
  }
  if (WRITES.has(operator)) return { ok: true, redirects: [{ kind: 'write', path: target, text: node.text }], nested: [] };
  if (READS.has(operator) && (descriptor === null || descriptor === '0')) return { ok: true, redirects: [{ kind: 'read', path: target, text: node.text }], nested: [] };
  return { ok: false, reason: `the redirection '${node.text}' uses '${operator}', which the policy does not accept` };
}

/**
 * Only quoted heredocs (`<<'EOF'`, `<<"EOF"`): bash expands nothing in their body. Redirections and
 * a pipeline or list written after the delimiter on the same line come back as `nested`. The body
 * is where bash has it (shell-heredoc.ts), not where the parser does.
 */
function heredoc(node: Node): RedirectResult {
  const redirects: ShellRedirect[] = [];
  const nested: Node[] = [];
  const header: Node[] = [];
  let start: Node | undefined;
  let end: Node | undefined;
  let stripTabs = false;
  let expanded = false;
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    switch (child.type) {
      case '<<':
        break;
      case '<<-':
        stripTabs = true;
        break;
      case 'heredoc_start':
        start = child;
        break;
      case 'heredoc_end':
        end = child;
        break;
      case 'heredoc_body':
        expanded ||= child.namedChildCount !== 0;
        break;
      case 'file_redirect': {
        const inner = fileRedirect(child);
        if (!inner.ok) return inner;
        redirects.push(...inner.redirects);
        header.push(child);
        break;
      }
      case 'pipeline':
      case 'list':
        nested.push(child);
        header.push(child);
        break;
      default:
        return { ok: false, reason: '', construct: child };
    }
  }
  if (!start) return { ok: false, reason: `the heredoc '${firstLine(node.text)}' has no delimiter` };
  const body = heredocBody(node, stripTabs, start, header, end);
  if (!body.ok) return body;
  if (expanded) return { ok: false, reason: `the heredoc body is not literal` };
  redirects.unshift({ kind: 'input', text: node.text, body: body.body });
  return { ok: true, redirects, nested };
}

function firstLine(text: string): string {
  return text.split('\n')[0]!;
}
