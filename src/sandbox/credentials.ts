// What a sandboxed process never sees: the places where the usual tools keep credentials. Each is
// hidden when it exists (an empty read-only directory, or /dev/null for a file); the recipe's
// `sandbox.hide` adds more. Paths are relative to the home directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mayAccess } from '../util/paths.js';

export const HIDDEN_IN_HOME: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/op',
  '.docker',
  '.kube',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.pypirc',
  '.config/pip/pip.conf',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
  '.terraform.d/credentials.tfrc.json',
  '.vault-token',
  '.password-store',
  '.local/share/keyrings',
  // Databases' and clouds' own credential files.
  '.pgpass',
  '.my.cnf',
  '.s3cfg',
  '.boto',
  '.oci',
  '.databrickscfg',
  '.config/rclone',
  '.config/doctl',
  '.config/hcloud',
  '.config/containers/auth.json',
  '.terraformrc',
  '.fly',
  '.config/configstore',
  '.config/stripe',
  '.config/netlify',
  '.local/share/com.vercel.cli',
  '.wrangler',
  '.composer/auth.json',
  '.config/composer/auth.json',
  '.kaggle',
  '.huggingface',
  '.cache/huggingface/token',
  // Agents that hand out secrets over a unix socket, which a read-only mount and a closed network
  // still let a process connect to: git's credential cache (git credential-cache), password
  // managers' SSH agents, and the Docker sockets of Colima, Rancher Desktop and OrbStack.
  '.cache/git/credential',
  '.git-credential-cache',
  '.1password',
  '.bitwarden-ssh-agent.sock',
  '.colima',
  '.rd',
  '.orbstack',
  '.lima',
  // Shells' and REPLs' histories: a token exported, a password given on a command line or pasted.
  '.bash_history',
  '.zsh_history',
  '.histfile',
  '.local/share/fish/fish_history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.sqlite_history',
  '.rediscli_history',
  // Coding agents' logins and keys (OAuth tokens, API keys): another agent's account is no tool's to use.
  '.gemini',
  '.claude',
  '.claude.json',
  '.codex',
  '.qwen',
  '.config/goose',
  '.config/github-copilot',
];

/**
 * Sockets that hand out more power than the runner's user should lend a tool (those under /run are
 * hidden with every other socket there: host-sockets.ts), and the secrets a container or a pod is
 * given: Docker's and BuildKit's `/run/secrets`, a Kubernetes service account's token.
 */
export const HIDDEN_ABSOLUTE: readonly string[] = [
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/run/podman/podman.sock',
  '/run/containerd/containerd.sock',
  '/run/buildkit/buildkitd.sock',
  // Local daemons that trust whoever connects as the runner's user (peer authentication): a
  // database, the system bus, snapd's and LXD's APIs (LXD's group is as good as root).
  '/run/postgresql',
  '/run/mysqld',
  '/run/redis',
  '/run/dbus',
  '/run/snapd.socket',
  '/run/snapd-snap.socket',
  '/run/libvirt',
  '/run/lxd',
  '/var/snap/lxd/common/lxd/unix.socket',
  '/var/lib/lxd/unix.socket',
  '/var/lib/incus/unix.socket',
  '/run/secrets',
  '/var/run/secrets',
];

/** The user's runtime directory (XDG_RUNTIME_DIR): agent sockets for ssh, gpg, keyrings, podman, D-Bus. */
export function runtimeDir(uid: number | undefined): string[] {
  return uid === undefined ? [] : [`/run/user/${uid}`];
}

/**
 * The system's own secrets, which only root reads. A runner started as root runs its commands as
 * root without capabilities, and that is still the owner of these files: hidden when the runner
 * can read them (for any other user they are unreadable already, and cost no mount).
 */
export const HIDDEN_IF_READABLE: readonly string[] = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/ssh/ssh_host_rsa_key',
  '/etc/ssh/ssh_host_ecdsa_key',
  '/etc/ssh/ssh_host_ed25519_key',
  '/etc/ssh/ssh_host_dsa_key',
  '/etc/ssl/private',
];

/**
 * The system's paths the sandbox hides, outside any home directory: HIDDEN_ABSOLUTE, the
 * HIDDEN_IF_READABLE ones this user can read, and the user's runtime directory.
 */
export function systemHidden(uid: number | undefined = process.getuid?.()): string[] {
  return [...HIDDEN_ABSOLUTE, ...HIDDEN_IF_READABLE.filter((p) => mayAccess(p, fs.constants.R_OK)), ...runtimeDir(uid)];
}

/**
 * Credentials the tools' own variables move away from the home directory (the runner's
 * environment names them; the tools' filtered environment does not pass these on, so a command
 * finds them only by their path): CI steps put a kubeconfig, a cloud key file or a registry login
 * in a temporary directory and point a variable at it. Each names a file, a directory, or (`:`
 * between) a list of files. Values that are not absolute paths are left alone.
 */
const CREDENTIAL_VARIABLES: readonly string[] = [
  'KUBECONFIG',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_GHA_CREDS_PATH',
  'CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE',
  'CLOUDSDK_CONFIG',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AZURE_CONFIG_DIR',
  'AZURE_FEDERATED_TOKEN_FILE',
  'DOCKER_CONFIG',
  'REGISTRY_AUTH_FILE',
  'GH_CONFIG_DIR',
  'GNUPGHOME',
  'NPM_CONFIG_USERCONFIG',
  'npm_config_userconfig',
  'PGPASSFILE',
  'NETRC',
  'TF_CLI_CONFIG_FILE',
  'VAULT_CONFIG_PATH',
  'KAGGLE_CONFIG_DIR',
  'HF_TOKEN_PATH',
  'OCI_CLI_CONFIG_FILE',
  'RCLONE_CONFIG',
];

/** Base directories the XDG variables move (`.config/gh` is `$XDG_CONFIG_HOME/gh` when it is set). */
const XDG_BASES: ReadonlyArray<readonly [prefix: string, variable: string]> = [
  ['.config/', 'XDG_CONFIG_HOME'],
  ['.local/share/', 'XDG_DATA_HOME'],
  ['.cache/', 'XDG_CACHE_HOME'],
];

/** Where `env` says credentials are, besides HIDDEN_IN_HOME under the home directory. */
export function hiddenByEnvironment(env: NodeJS.ProcessEnv): string[] {
  return credentialsByEnvironment(env)
    .map(([p]) => p)
    .filter(isPlainFileOrDirectory);
}

/** Each absolute path `env` names as credentials, with the variable that names it (not checked against the disk). */
export function credentialsByEnvironment(env: NodeJS.ProcessEnv): Array<[path: string, variable: string]> {
  const paths: Array<[string, string]> = [];
  for (const name of CREDENTIAL_VARIABLES) {
    for (const p of (env[name] ?? '').split(':')) if (p.startsWith('/')) paths.push([p, name]);
  }
  const cargo = env.CARGO_HOME;
  if (cargo?.startsWith('/')) paths.push([`${cargo}/credentials`, 'CARGO_HOME'], [`${cargo}/credentials.toml`, 'CARGO_HOME']);
  const gradle = env.GRADLE_USER_HOME;
  if (gradle?.startsWith('/')) paths.push([`${gradle}/gradle.properties`, 'GRADLE_USER_HOME']);
  for (const [prefix, variable] of XDG_BASES) {
    const base = env[variable];
    if (!base?.startsWith('/')) continue;
    for (const rel of HIDDEN_IN_HOME) if (rel.startsWith(prefix)) paths.push([`${base.replace(/\/+$/, '')}/${rel.slice(prefix.length)}`, variable]);
  }
  // The agents' sockets (ssh, gpg, keyrings) where the runtime directory is not /run/user/UID.
  if (env.XDG_RUNTIME_DIR?.startsWith('/') && env.XDG_RUNTIME_DIR !== '/') paths.push([env.XDG_RUNTIME_DIR, 'XDG_RUNTIME_DIR']);
  return paths;
}

/**
 * Only a regular file or a directory is hidden, never under /dev, /proc or /sys: `NETRC=/dev/null`
 * (a common way to say "none") bound to an empty read-only file would break every `> /dev/null`.
 */
function isPlainFileOrDirectory(p: string): boolean {
  try {
    const real = fs.realpathSync(p);
    if (/^\/(dev|proc|sys)(\/|$)/.test(real)) return false;
    const stat = fs.statSync(real);
    return stat.isFile() || stat.isDirectory();
  } catch {
    return false;
  }
}

/**
 * The home directories credentials are hidden in: the one tools see (`HOME`) and the runner's own,
 * when they differ. `~/` in a recipe means the first.
 */
export function homesOf(env: NodeJS.ProcessEnv): string[] {
  return [...new Set([env.HOME, os.homedir()].filter((h): h is string => !!h && path.isAbsolute(h)))];
}

/** A recipe's path with a leading `~` expanded to the first of `homes` (none: nothing). */
export function expandHome(p: string, homes: readonly string[]): string[] {
  return p === '~' || p.startsWith('~/') ? homes.slice(0, 1).map((h) => path.join(h, p.slice(1))) : [p];
}
