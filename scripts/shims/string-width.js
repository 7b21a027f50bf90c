// string-width as yargs and cliui use it (help layout), without its start-up cost: the real module
// builds an Intl.Segmenter and Unicode-property regexes the moment it is imported, ~60 ms of every
// CLI start whether or not help is shown. Printable ASCII (all of our own help text) is measured
// here; anything else goes to the real module, which is loaded on first need (esbuild turns this
// require into a lazy initialiser inside the bundle).
import stripAnsi from 'strip-ansi';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
let real;

export default function stringWidth(text, options = {}) {
  if (typeof text !== 'string' || text.length === 0) return 0;
  const visible = options.countAnsiEscapeCodes ? text : stripAnsi(text);
  if (PRINTABLE_ASCII.test(visible)) return visible.length;
  real ??= require('string-width').default;
  return real(text, options);
}
