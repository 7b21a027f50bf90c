// multi-gitter's flags, typed to `unattended batch` by its users (`multi-gitter run ./fix.sh -O acme
// -B fix -m "Fix" -C 4`): what does the same here. Without this, -O, -B, --skip-pr... were a bare
// "Unknown argument", and the letters other tools also use were answered for those tools: `-m`
// (multi-gitter's commit message) as run's --model, `-C` (its concurrency) as --workspace, which
// batch does not take either.
import { unknownFlagHints } from './peer-flags.js';

const GIT = "the recipe's git section";
const MULTI_GITTER_FLAGS: ReadonlyArray<[RegExp, string]> = [
  [/^(O|U|user)$/, "here that is --org NAME (an organisation's or a user's repositories)"],
  [/^(R|repo)$/, 'here that is --targets FILE: one repository a line, its clone URL (https://github.com/OWNER/NAME.git) or a directory'],
  [/^(repo-search|repoSearch)$/, "here that is --search Q (a GitHub repository search, 'org:acme language:go')"],
  [/^(repo-include|repoInclude|repo-exclude|repoExclude|s|skip-repo|skipRepo)$/, 'here a --targets file lists the repositories to run on: leave the others out of it'],
  [/^(skip-forks|skipForks)$/, 'not needed here: forks are left out of --org, --topic and --search'],
  [/^(C|concurrent)$/, 'here that is --concurrency N'],
  [/^d$/, 'here that is --dry-run'],
  [/^(o|output)$/, "here that is --out DIR (the batch's directory: batch-report.json and batch-report.md)"],
  [/^(B|branch)$/, `the branch each run's changes are committed on is ${GIT}: git: {branch: NAME}`],
  [/^(m|commit-message|commitMessage)$/, `the commit message is ${GIT}: git: {commit_message: …} (run's -m, --model, is the recipe's model: NAME)`],
  [/^(author-name|authorName|author-email|authorEmail)$/, `the commit's author is ${GIT}: git: {author: {name: …, email: …}}`],
  [/^(t|pr-title|prTitle)$/, `the pull request's title is ${GIT}: git: {pull_request: {title: …}}`],
  [/^(b|pr-body|prBody)$/, `the pull request's body is ${GIT}: git: {pull_request: {body: …}}`],
  [/^(base-branch|baseBranch)$/, `the pull request's base is ${GIT}: git: {pull_request: {base: BRANCH}}`],
  [/^draft$/, `a draft pull request is ${GIT}: git: {pull_request: {draft: true}}`],
  [/^labels$/, `the pull request's labels are ${GIT}: git: {pull_request: {labels: [...]}}`],
  [/^(r|reviewers|team-reviewers|teamReviewers|M|max-reviewers|maxReviewers|a|assignees)$/, 'pull requests are opened without reviewers or assignees here (a CODEOWNERS file has GitHub request reviews)'],
  [/^(skip-pr|skipPr)$/, `a pushed branch without a pull request is ${GIT}: git: {push: true}, with no pull_request`],
  [/^(T|token)$/, 'here the token comes from the environment: GITHUB_TOKEN or GH_TOKEN'],
  [/^g$/, 'here a GitHub Enterprise server is the environment variable GITHUB_API_URL'],
];

/**
 * For batch: a line per multi-gitter flag in yargs' "Unknown argument(s): a, b", naming what does
 * the same here; null when none is one. `argv`: the words typed, so a letter of a group is not
 * taken for a one-letter flag.
 */
export function multiGitterHint(message: string, argv: readonly string[]): string | null {
  return unknownFlagHints(message, argv, MULTI_GITTER_FLAGS, (flag, here) => `${flag}: multi-gitter's flag; ${here}`);
}
