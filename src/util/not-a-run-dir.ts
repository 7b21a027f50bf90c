// What to give instead of a directory that is no run's (`report DIR`, `--continue DIR`): a batch's
// --out is the likeliest such directory, and holds its targets' runs one level down.
import fs from 'node:fs';
import path from 'node:path';

const RUN_DIR = 'give a run directory (.unattended/runs/<run-id>) or its transcript.jsonl';

/** The hint for `dir`, which holds no transcript.jsonl: a batch's directory names where its report and runs are. */
export function notARunDirHint(dir: string): string {
  if (!fs.existsSync(path.join(dir, 'batch-report.json'))) return RUN_DIR;
  const targets = path.join(dir, 'targets');
  let one: string | undefined;
  try {
    one = fs.readdirSync(targets).sort()[0];
  } catch {
    // No targets/ yet (the batch ran none): the report alone is named.
  }
  return `${dir} is a batch's directory: its report is ${path.join(dir, 'batch-report.md')} (unattended batch status ${dir}), and each target's run is a run directory under ${targets}${one ? ` (${path.join(targets, one)})` : ''}`;
}
