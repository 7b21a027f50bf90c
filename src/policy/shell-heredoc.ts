// Where a quoted heredoc's body begins and ends, as bash reads it, checked against the parse.
// tree-sitter-bash and bash disagree at the edges: the parser ends a body at a line that merely
// starts with the delimiter (`EOF `, `EOFX`), reads `<<'\EOF'` as ending at `EOF` (bash: at
// `\EOF`), and drops the first line's leading blanks. Where bash ends the body decides which lines
// run as commands, so the policy accepts only delimiters whose meaning is certain and a body whose
// end line is the delimiter exactly, and takes the body's text from the source, not the parser.
import type { Node } from 'web-tree-sitter';

/** A delimiter bash reads one way only: quoted whole, no backslash, no quote, no blank inside. */
const PLAIN_DELIMITER = /^'([A-Za-z0-9_.-]+)'$|^"([A-Za-z0-9_.-]+)"$/;

/** What may stand between the heredoc's line and its body: blanks, line continuations, one newline. */
const REST_OF_LINE = /^[ \t]*(?:\\\n[ \t]*)*\n$/;

export type HeredocBody = { ok: true; body: string } | { ok: false; reason: string };

/**
 * The text bash feeds on stdin for the heredoc `node`, or why the policy cannot be sure of it.
 * `header` are the children on the heredoc's own line (delimiter, redirections, a pipeline).
 */
export function heredocBody(node: Node, stripTabs: boolean, start: Node, header: readonly Node[], end: Node | undefined): HeredocBody {
  const shown = `<<${stripTabs ? '-' : ''}${start.text}`;
  const plain = PLAIN_DELIMITER.exec(start.text);
  if (!plain) {
    if (!/['"\\]/.test(start.text)) return { ok: false, reason: `the heredoc '${shown}' has an unquoted delimiter, so bash expands its body: quote it (<<'EOF')` };
    return {
      ok: false,
      reason: `the heredoc delimiter in '${shown}' is quoted in a way bash and the policy may read differently (where the body ends decides which lines run): write it as letters, digits, '_', '.' or '-' in single quotes, e.g. <<'EOF'`,
    };
  }
  const delimiter = plain[1] ?? plain[2]!;
  const unsure = `the policy cannot be sure where bash ends the heredoc '${shown}'`;
  if (!end) return { ok: false, reason: `${unsure}: it has no end line` };
  const source = node.tree.rootNode.text;

  const headerEnd = Math.max(start.endIndex, ...header.map((child) => child.endIndex));
  const newline = source.indexOf('\n', headerEnd);
  if (newline < 0 || !REST_OF_LINE.test(source.slice(headerEnd, newline + 1))) {
    return { ok: false, reason: `${unsure}: write nothing after the delimiter on its line but redirections or a pipe` };
  }
  const bodyStart = newline + 1;

  // The end line: the delimiter alone (after leading tabs, with <<-), then a newline or the end.
  let endLine = end.startIndex;
  if (stripTabs) while (source[endLine - 1] === '\t') endLine--;
  const after = source[end.endIndex];
  const endIsWholeLine = end.text === delimiter && (endLine === 0 || source[endLine - 1] === '\n') && (after === undefined || after === '\n');
  if (!endIsWholeLine || endLine < bodyStart) {
    return { ok: false, reason: `${unsure}: end it with a line that is exactly '${delimiter}' (${stripTabs ? 'tabs before it only' : 'no blanks around it'})` };
  }

  const lines = source.slice(bodyStart, endLine).split('\n').slice(0, -1);
  const fed = stripTabs ? lines.map((line) => line.replace(/^\t+/, '')) : lines;
  if (fed.includes(delimiter)) return { ok: false, reason: `${unsure}: a line before its end is already '${delimiter}'` };
  return { ok: true, body: fed.map((line) => `${line}\n`).join('') };
}
