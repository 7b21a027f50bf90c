// Finding a test's child processes without ps: the tests give each command a unique marker and
// look for it in /proc (a zombie's command line is empty, so it never matches).
import fs from 'node:fs';

/** Pids whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // gone already
    }
  }
  return pids;
}
