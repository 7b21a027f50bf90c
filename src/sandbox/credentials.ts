// What a sandboxed process never sees: the places where the usual tools keep credentials. Each is
// hidden when it exists (an empty read-only directory, or /dev/null for a file); the recipe's
// `sandbox.hide` adds more. Paths are relative to the home directory.

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
