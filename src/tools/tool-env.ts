// The environment child processes see. Allowlisted, not blocklisted: a variable we did not think of
// stays out. The strip list is applied last, so a recipe cannot pass a secret or an
// execution-hijacking variable by naming it in env.pass.
import { safeGitEnv } from '../util/git-safe-config.js';

/** Passed to every tool process. */
export const BASE_ENV_NAMES: readonly string[] = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'CI', 'TERM'];

/** Model-provider credentials: never given to a tool, whatever the recipe says. */
const PROVIDER_KEYS = new Set([
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  // The anthropic provider's bearer token (providers/anthropic.ts), as Claude Code reads it.
  'ANTHROPIC_AUTH_TOKEN',
  'DASHSCOPE_API_KEY',
  // Azure OpenAI's key, which the openai provider reads before OPENAI_API_KEY (providers/openai.ts).
  'AZURE_OPENAI_API_KEY',
]);

/**
 * Variables that make a process run code it was not asked to run, and two that make bash read a
 * line otherwise than the policy did when it judged it: GLOBIGNORE changes the names a glob stands
 * for (policy/shell-globs.ts), CDPATH where `cd sub` leads (policy/shell-paths.ts).
 */
const EXECUTION_HIJACK = new Set(['NODE_OPTIONS', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'GLOBIGNORE', 'CDPATH']);
const EXECUTION_HIJACK_PREFIXES = ['LD_', 'DYLD_', 'ACTIONS_ID_TOKEN_REQUEST_', 'npm_config_', 'NPM_CONFIG_', 'BASH_FUNC_'];

/**
 * Git's execution variables: they choose the repository, the programs git runs (ssh, editor,
 * askpass, diff, proxy) and its configuration. GIT_CONFIG_* are set by shellEnvironment alone.
 */
const GIT_EXECUTION = new Set([
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_EXEC_PATH',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_SSH_VARIANT',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_PAGER',
  'GIT_PROXY_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_TEMPLATE_DIR',
  'GIT_TRACE',
  'GIT_ALLOW_PROTOCOL',
  'GIT_PROTOCOL_FROM_USER',
]);

function alwaysStripped(name: string): boolean {
  return (
    PROVIDER_KEYS.has(name) ||
    EXECUTION_HIJACK.has(name) ||
    GIT_EXECUTION.has(name) ||
    name.startsWith('GIT_CONFIG') ||
    name.startsWith('GIT_TRACE') ||
    EXECUTION_HIJACK_PREFIXES.some((prefix) => name.startsWith(prefix))
  );
}

/**
 * The allowlisted environment for tool processes: the base names plus the recipe's `env.pass`,
 * minus everything that is always stripped. GITHUB_TOKEN is the one secret a recipe may pass, and
 * only by listing it explicitly; provider keys never pass.
 */
export function toolEnvironment(parent: NodeJS.ProcessEnv, pass: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  // GITHUB_TOKEN is not a base name, so it only arrives through `pass`.
  for (const name of [...BASE_ENV_NAMES, ...pass]) {
    const value = parent[name];
    if (value !== undefined && !alwaysStripped(name)) env[name] = value;
  }
  if (env.PATH !== undefined) env.PATH = absoluteSearchPath(env.PATH).path;
  return env;
}

/** Where the shell looks when the runner's PATH leaves nothing absolute. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * PATH without its relative entries (`.`, `node_modules/.bin`, and an empty entry, which means the
 * current directory): each names a directory from wherever a command runs, and the model chooses
 * that (the shell's `directory`, a `cd`). So with `PATH=.:/usr/bin`, an approved `git status` run
 * in the repository would run the repository's own `git`. An empty result, which the shell would
 * read as the current directory too, becomes the usual system directories.
 */
export function absoluteSearchPath(value: string): { path: string; dropped: string[] } {
  const entries = value.split(':');
  const kept = entries.filter((entry) => entry.startsWith('/'));
  const dropped = [...new Set(entries.filter((entry) => !entry.startsWith('/')).map((entry) => entry || '(empty)'))];
  return { path: kept.length ? kept.join(':') : FALLBACK_PATH, dropped };
}

/**
 * What the shell tool adds for an unattended run: no pager waits for a key, git never prompts
 * for credentials, and every program-running setting of the repository at `workspace` is
 * overridden (util/git-safe-config.ts; environment config outranks the repository's own files).
 */
export function shellEnvironment(base: Record<string, string>, workspace: string): Record<string, string> {
  const env: Record<string, string> = { ...base, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  for (const name of Object.keys(env)) if (name.startsWith('GIT_CONFIG_') && name !== 'GIT_CONFIG_NOSYSTEM') delete env[name];
  return { ...env, ...safeGitEnv(workspace) };
}
