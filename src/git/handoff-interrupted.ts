// A stop (Ctrl-C, SIGTERM, the run's timeout) during the hand-off kills the git it is running; the
// run ends cancelled, and nothing is committed after a cancelled run. What the report may say then
// depends on what git had already done when it was killed, which its failure does not tell:
// - update-ref may have written the branch before it was killed: it is looked at, not assumed;
// - a push may have updated origin before it was killed (the remote's receive-pack updates the
//   ref, then reports, then runs post-receive hooks): origin is asked. A branch origin has is
//   pushed, and stays, locally too; one it does not have goes, so a re-run does not find it in the
//   way; when origin cannot be asked in time, the report says so and the branch stays, since
//   removing it would hide a commit that may well be on origin.
// None of this runs under the stopped signal; each step has a short deadline instead, so the whole
// fits in the grace a stopped run has to write its report (runner/signals.ts STOP_GRACE_MS, 4 s).
import type { GitHandoffReport } from '../types/changes.js';
import { git, gitComplaint, type GitOptions } from './git-exec.js';
import type { HandoffRequest } from './handoff.js';

/** The branch commitAndPush created (or moved from `previous`), and whether its push began. */
export interface MadeBranch {
  ref: { root: string; sha: string; previous: string | null } | null;
  pushStarted: boolean;
}

/** How long origin is asked whether the push reached it: well inside the stop's grace. */
const ORIGIN_CHECK_MS = 2_000;
const LOCAL_MS = 1_000;

type OriginHas = 'yes' | 'no' | { unknown: string };

export async function settleInterrupted(req: HandoffRequest, report: GitHandoffReport, made: MadeBranch): Promise<GitHandoffReport> {
  if (report.pushed) return report;
  const branch = req.config.branch;
  const ref = `refs/heads/${branch}`;
  const nothing = { ...report, commit: null, files: [], pushed: false };
  const notMade = { ...nothing, error: report.error ?? 'interrupted before the branch was made; nothing is committed' };
  if (!made.ref) return notMade;
  const { root, sha, previous } = made.ref;
  const local = (args: string[]) => git(args, { cwd: root, timeoutMs: LOCAL_MS, parentEnv: req.env ?? process.env });

  const tip = await local(['rev-parse', '--verify', '--quiet', ref]);
  // A killed update-ref that had not written it yet (rev-parse exits 1 for no such branch): nothing to take back.
  if (tip.ok ? tip.stdout.trim() !== sha : tip.exitCode === 1) return notMade;

  if (made.pushStarted) {
    const has = await originHas(req, root, branch, sha);
    if (has === 'yes') {
      return { ...report, pushed: true, push_error: null, error: `interrupted as the push finished: origin has branch '${branch}' at ${sha.slice(0, 12)}, so the branch is kept` };
    }
    if (has !== 'no') {
      const why = `interrupted during the push, and whether origin has branch '${branch}' is unknown (${has.unknown})`;
      return { ...report, push_error: why, error: `${why}: the local branch is kept at ${sha.slice(0, 12)}; look at origin before running again` };
    }
  }
  const undo = await local(previous ? ['update-ref', '-m', 'unattended hand-off stopped', ref, previous, sha] : ['update-ref', '-d', ref, sha]);
  const stage = made.pushStarted ? 'before the push reached origin' : 'before the hand-off finished';
  if (!undo.ok) return { ...report, error: `interrupted ${stage}; the branch '${branch}' could not be removed: ${gitComplaint(undo)}` };
  return { ...nothing, error: `interrupted ${stage}; the branch '${branch}' was ${previous ? 'set back' : 'removed'}` };
}

/** Whether every URL origin pushes to has the branch at `sha` ('no': none has it). */
async function originHas(req: HandoffRequest, root: string, branch: string, sha: string): Promise<OriginHas> {
  const opts: GitOptions = { cwd: root, timeoutMs: req.originCheckMs ?? ORIGIN_CHECK_MS, parentEnv: req.env ?? process.env };
  const urls = await git(['remote', 'get-url', '--push', '--all', 'origin'], { ...opts, timeoutMs: LOCAL_MS });
  if (!urls.ok) return { unknown: `cannot read origin's URL: ${gitComplaint(urls, 1)}` };
  const listed = await Promise.all(
    urls.stdout
      .split('\n')
      .map((url) => url.trim())
      .filter(Boolean)
      .map((url) => git(['ls-remote', '--heads', url, `refs/heads/${branch}`], opts)),
  );
  const failed = listed.find((result) => !result.ok);
  if (failed) return { unknown: `asking origin failed: ${gitComplaint(failed, 1)}` };
  const tips = listed.map((result) => result.stdout.split('\n').find((line) => line.endsWith(`\trefs/heads/${branch}`))?.split('\t')[0] ?? null);
  if (tips.every((tip) => tip === sha)) return 'yes';
  if (tips.every((tip) => tip !== sha)) return 'no';
  return { unknown: 'some of its push URLs have it, some do not' };
}
