// A file's line endings, kept by edit and write_file. read_file drops the \r of CRLF (the model
// would only copy it wrong), so the model writes "\n": text it writes into a CRLF file gets the
// file's endings, never a mix of both.

export type LineEnding = '\r\n' | '\n';

/** CRLF when most line breaks of `text` are CRLF; LF otherwise (no line breaks included). */
export function lineEndingOf(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > 0 && crlf >= lf ? '\r\n' : '\n';
}

/** `text` with each bare "\n" written as `ending` (a "\r\n" the text already has stays). */
export function withLineEnding(text: string, ending: LineEnding): string {
  return ending === '\n' ? text : text.replace(/\r?\n/g, '\r\n');
}
