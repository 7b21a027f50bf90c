// Where the loop's capped tool outputs are kept whole: `tool-outputs/` in the run's directory,
// redacted like the transcript beside it, one file per call (a sub-agent's under its task call).
import path from 'node:path';
import type { RunDir } from './out-dir.js';

export function toolOutputSaver(dir: RunDir, redact: (text: string) => string): (text: string, name: string) => string {
  return (text, name) => {
    // A call id of dots alone (or none) would name a directory, not a file in one.
    const segments = name.split('/').map((segment) => segment.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.*$/, '_$&'));
    const rel = `${['tool-outputs', ...segments].join('/')}.txt`;
    dir.writeFile(rel, redact(text));
    return path.join(dir.path, rel);
  };
}
