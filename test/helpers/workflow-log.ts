// What GitHub's runner would do with a step's log: the workflow commands it acts on.

/**
 * The workflow commands GitHub's runner would act on in a log, as its ActionCommandManager reads
 * them: `::name::` once leading blanks are trimmed, or `##[name]` anywhere in a line; after
 * `::stop-commands::TOKEN` nothing but `::TOKEN::`.
 */
export function commandsTheRunnerRuns(log: string): string[] {
  const ran: string[] = [];
  let stopToken: string | null = null;
  for (const line of log.split('\n')) {
    const v2 = /^::([^:\s]+)[^:]*::(.*)$/.exec(line.trimStart());
    const v1 = /##\[([^\]\s;]+)[^\]]*\](.*)$/.exec(line);
    const found = v2 ?? v1;
    if (!found) continue;
    if (stopToken !== null) {
      if (found[1] === stopToken) stopToken = null;
      continue;
    }
    ran.push(found[1]!);
    if (found[1] === 'stop-commands') stopToken = found[2]!;
  }
  return ran;
}
