// V8's linear-time regular-expression engine for the patterns grep's workers match. A pattern
// that backtracks catastrophically ('^(a+)+$' on a line of a's and a '!') held a worker until
// grep's time limit, so grep in JavaScript failed ('grep took over 30 s') where grep through
// ripgrep, whose engine never backtracks, answered 'No matches' at once. With this V8 flag on, a
// regexp compiled while it is on that passes 50,000 backtracks in one match goes on in the linear
// engine, which gives the same answer: the two engines then agree. That engine takes no
// look-arounds, backreferences, ignore-case flag (grep spells a (?i) pattern's letters out instead:
// grep-caseless.ts) or large counted repeats; such a pattern still backtracks as before (the
// README says so).
// V8 flags belong to the process, and the code cache of the runner's own bundle is only taken
// back by a process with the same flags (scripts/bin/code-cache.cjs writes it at exit): the flag
// is on only while a search has workers, and off again after the last one, which gives back the
// same flags. A regexp compiled meanwhile keeps the fallback, with the same answers, after.
// node:v8 is loaded by the first search that starts a worker, not at start-up.
import type v8 from 'node:v8';

const FLAG = 'enable-experimental-regexp-engine-on-excessive-backtracks';

let holders = 0;

/** Turns the fallback on for one search; call the function it returns once the search's workers end. */
export function holdLinearFallback(): () => void {
  if (holders++ === 0) setFlag(true);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--holders === 0) setFlag(false);
  };
}

function setFlag(on: boolean): void {
  try {
    (process.getBuiltinModule('node:v8') as typeof v8).setFlagsFromString(`--${on ? '' : 'no-'}${FLAG}`);
  } catch {
    // A V8 without the flag: patterns backtrack as they did, stopped by grep's time limit.
  }
}
