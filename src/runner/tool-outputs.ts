// Where the loop's capped tool outputs are kept whole: `tool-outputs/` in the run's directory,
// redacted like the transcript beside it, one file per call (a sub-agent's under its task call).
import fs from 'node:fs';
import path from 'node:path';

export function toolOutputSaver(dir: string, redact: (text: string) => string): (text: string, name: string) => string {
  return (text, name) => {
    const segments = name.split('/').map((segment) => segment.replace(/[^A-Za-z0-9_.-]/g, '_'));
    const file = `${path.join(dir, ...segments)}.txt`;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, redact(text));
    return file;
  };
}
