// The two composite steps that talk to GitHub, each its own process so that the token they hold is
// never in the environment of the step that runs the model:
// - `gate`, before the run: may whoever triggered this event start a run? (permission.ts)
// - `comment`, after it: post the answer, the cost and the report's link (comment.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Report } from '../report/report.js';
import { commentBody, commentTarget, postComment } from './comment.js';
import { gitHubApi } from './github-api.js';
import { booleanInput, rawInput } from './inputs.js';
import { appendStepSummary, writeStepOutputs } from './step-files.js';
import { checkTrigger, parseAllowUsers } from './permission.js';
import { command, maskCommands } from './workflow-commands.js';
import { peerInputErrors } from './peer-inputs.js';
import { ExitCode } from '../types/outcome.js';

export interface StepContext {
  env: NodeJS.ProcessEnv;
  log: (text: string) => void;
}

/** Exit code of a refused trigger: the step fails, and nothing after it runs. */
export const REFUSED_EXIT_CODE = 1;

export async function gateStep({ env, log }: StepContext): Promise<number> {
  const token = rawInput(env, 'github-token');
  if (token) log(maskCommands(token));
  // Before the permission check: a refused input is the workflow's mistake, whoever triggered it.
  const peers = peerInputErrors(env);
  if (peers.length > 0) {
    for (const message of peers) log(command('error', message, { title: 'unattended: bad action input' }));
    writeStepOutputs(env, { allowed: 'false', status: 'error', 'exit-code': String(ExitCode.badInput), ...laterSteps(env) }, log);
    appendStepSummary(env, `# ❌ unattended: bad action input\n\n${peers.map((m) => `- ${m}`).join('\n')}\n\nThe model was not run.\n`, log);
    return ExitCode.badInput;
  }
  const verdict = await checkTrigger(token ? gitHubApi(env, token) : null, {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    event: readEvent(env),
    repository: env.GITHUB_REPOSITORY ?? '',
    actor: env.GITHUB_ACTOR ?? '',
    triggeringActor: env.GITHUB_TRIGGERING_ACTOR ?? '',
    allowUsers: parseAllowUsers(rawInput(env, 'allow-users')),
  });
  const written = writeStepOutputs(env, { allowed: String(verdict.allowed), status: verdict.allowed ? '' : 'refused', 'exit-code': verdict.allowed ? '' : String(REFUSED_EXIT_CODE), ...laterSteps(env) }, log);
  // Fail closed: a gate whose `allowed` output later steps cannot read lets no run start.
  if (verdict.allowed && !written) return REFUSED_EXIT_CODE;
  if (verdict.allowed) {
    log(`unattended: may run: ${verdict.reason}\n`);
    return 0;
  }
  log(command('error', `${verdict.reason} The model was not run.`, { title: 'unattended: run refused' }));
  appendStepSummary(env, `# ⛔ unattended: run refused\n\n${verdict.reason}\n\nThe model was not run.\n`, log);
  return REFUSED_EXIT_CODE;
}

/**
 * The upload, comment and sandbox set-up steps' switches as the run step reads them (trimmed), for their
 * `if:`: action.yml's `inputs.x == 'true'` compares the text untrimmed, so `"true "` (accepted by the
 * run step) uploaded and commented nothing. A value the run step refuses is false: it fails that step.
 */
function laterSteps(env: NodeJS.ProcessEnv): Record<string, string> {
  const on = (name: string) => {
    try {
      return String(booleanInput(name, rawInput(env, name)));
    } catch {
      return 'false';
    }
  };
  // The sandbox set-up step installs bubblewrap and may lift Ubuntu's user-namespace restriction:
  // `sandbox: "off "` (trimmed to off by the run step) must skip it as `off` does.
  return { 'upload-artifacts': on('upload-artifacts'), comment: on('comment'), 'sandbox-off': String(rawInput(env, 'sandbox') === 'off') };
}

export async function commentStep({ env, log }: StepContext): Promise<number> {
  const token = rawInput(env, 'github-token');
  if (token) log(maskCommands(token));
  if (!booleanInput('comment', rawInput(env, 'comment'))) return 0;
  const repository = env.GITHUB_REPOSITORY ?? '';
  const target = commentTarget(repository, readEvent(env));
  if (!target) {
    log(command('warning', `a ${env.GITHUB_EVENT_NAME || 'run without an event'} has no issue or pull request to comment on; the answer is in the step summary and the summary output`, { title: 'unattended: no comment posted' }));
    return 0;
  }
  if (!token) {
    log(command('error', 'comment is true but the github-token input is empty', { title: 'unattended: no comment posted' }));
    return 1;
  }
  const runDir = env.UNATTENDED_RUN_DIR ?? '';
  const runUrl = env.GITHUB_SERVER_URL && repository && env.GITHUB_RUN_ID ? `${env.GITHUB_SERVER_URL}/${repository}/actions/runs/${env.GITHUB_RUN_ID}` : null;
  const body = commentBody(readReport(runDir), { artifactUrl: env.UNATTENDED_ARTIFACT_URL || null, runUrl });
  try {
    const url = await postComment(gitHubApi(env, token), target, body);
    log(`unattended: answered on ${target.label}${url ? `: ${url}` : ''}\n`);
    return 0;
  } catch (error) {
    const status = (error as { status?: number }).status;
    const hint = status === 403 || status === 404 ? ' (the job needs `issues: write` to comment on an issue, `pull-requests: write` on a pull request)' : '';
    log(command('error', `could not comment on ${target.label}: ${(error as Error).message}${hint}`, { title: 'unattended: no comment posted' }));
    return 1;
  }
}

function readEvent(env: NodeJS.ProcessEnv): Record<string, any> {
  if (!env.GITHUB_EVENT_PATH) return {};
  try {
    return JSON.parse(fs.readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) as Record<string, any>;
  } catch {
    return {};
  }
}

function readReport(runDir: string): Report | null {
  if (!runDir) return null;
  try {
    return JSON.parse(fs.readFileSync(path.join(runDir, 'report.json'), 'utf8')) as Report;
  } catch {
    return null;
  }
}
