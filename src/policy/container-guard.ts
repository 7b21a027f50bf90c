// docker and podman options that are root on the host, outside any sandbox: a rule that allows the
// tool whole (`docker *`) should not approve them, since the task rarely needs them and each hands
// the container (or another daemon) the machine. A rule that spells the option out still allows it.
// `--network=host` is left alone: the commands already run on the host, so its network is no more
// than they reach. Bind mounts of paths outside the workspace are the path checks' (shell-options.ts).
import type { GuardFinding } from './shell-guards.js';

/** Container options, by name, with why each is root on the host. pflag takes no abbreviations. */
const ROOT_OPTIONS: Readonly<Record<string, string>> = {
  '--privileged': 'gives the container every capability and every device of the host',
  '--cap-add': 'gives the container capabilities (SYS_ADMIN, SYS_MODULE...) that reach the host',
  '--security-opt': 'can turn off the confinement (seccomp, AppArmor, SELinux labels) that keeps the container off the host',
  '--device': "hands the container a host device (a disk's device is its files)",
  '--device-cgroup-rule': 'lets the container use host devices',
  '--volumes-from': "mounts another container's volumes, which may be host paths no word of the line shows",
};

/**
 * Namespace options whose value `host` shares the host's: its processes (and their /proc/PID/root),
 * its user ids, its IPC (the daemon then mounts the host's /dev/shm, which the container's root writes).
 */
const HOST_NAMESPACES: Readonly<Record<string, string>> = {
  '--pid': 'processes (and their files, through /proc)',
  '--userns': 'user ids, so root in the container is root on the host',
  '--ipc': "IPC: shared memory of the host's processes, and the host's /dev/shm mounted for the container's root to write",
};

/** Global options that point the client at another daemon (a socket, a TCP address, a context, a configuration naming one). */
const DAEMON_OPTIONS: Readonly<Record<string, string>> = {
  docker: '-H --host -c --context --config',
  podman: '--url --connection -c --identity --remote -r',
};

/** compose subcommands that create or start containers: what they run is the compose file's, which no word of the line shows. */
const COMPOSE_RUNS: ReadonlySet<string> = new Set(['up', 'run', 'create', 'start', 'restart', 'watch']);

/** Global options taking a value as the next word, so the value is not read as the subcommand. */
const VALUED_GLOBALS = new Set(['-H', '--host', '-c', '--context', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey', '--url', '--connection', '--identity', '--root', '--runroot', '--storage-driver', '--cgroup-manager', '--events-backend']);

export function containerGuard(argv: string[]): GuardFinding[] {
  const program = argv[0]!.split('/').pop()!;
  const findings: GuardFinding[] = [];
  const words = argv.filter((word, i) => i > 0 && !word.startsWith('-'));
  const daemon = new Set((DAEMON_OPTIONS[program] ?? '').split(' '));
  let global = true;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    const name = word.startsWith('--') ? word.split('=')[0]! : word.slice(0, 2);
    if (global && !word.startsWith('-')) global = false;
    // Before the subcommand only: after it, `-c` is `docker run -c` (CPU shares), `-H` a word of the container's command.
    if (global && daemon.has(name) && (word.startsWith('--') || word === name || /^-[Hc]./.test(word) || name === '-r')) {
      findings.push({ index: i, guard: `${program} ${name}`, message: `${program} ${name} talks to another daemon (a socket, an address or a context), which runs containers as root on its host` });
    }
    if (global && VALUED_GLOBALS.has(word)) {
      i++;
      continue;
    }
    if (!word.startsWith('--')) continue;
    if (Object.hasOwn(ROOT_OPTIONS, name)) {
      // no-new-privileges only tightens the confinement.
      const value = word.includes('=') ? word.slice(word.indexOf('=') + 1) : argv[i + 1] ?? '';
      if (name === '--security-opt' && /^no-new-privileges([:=]true)?$/.test(value)) continue;
      findings.push({ index: i, guard: `${program} ${name}`, message: `${program} ${name} ${ROOT_OPTIONS[name]}: root on the host` });
    } else if (name === '--mount' && /(^|,)\s*["']?volume-opt(ion)?=/i.test(word.includes('=') ? word.slice(word.indexOf('=') + 1) : argv[i + 1] ?? '')) {
      // The local volume driver mounts what its options say (`device=/,o=bind`): a host path no path check reads.
      findings.push({ index: i, guard: `${program} --mount volume-opt`, message: `${program} --mount volume-opt has the volume driver mount what the options say, a host path (device=/,o=bind) too: root on the host` });
    } else if (name === '--allow' && /security\.insecure/.test(word.includes('=') ? word.slice(word.indexOf('=') + 1) : argv[i + 1] ?? '')) {
      // BuildKit's entitlement: RUN --security=insecure steps of the Dockerfile (which the agent can write) run privileged.
      findings.push({ index: i, guard: `${program} ${words[0] ?? 'build'} --allow`, message: `${program} ${words[0] ?? 'build'} --allow security.insecure lets the Dockerfile's steps run privileged: root on the host` });
    } else if (Object.hasOwn(HOST_NAMESPACES, name)) {
      const value = word.includes('=') ? word.slice(word.indexOf('=') + 1) : argv[i + 1] ?? '';
      if (value === 'host') findings.push({ index: i, guard: `${program} ${name}=host`, message: `${program} ${name}=host shares the host's ${HOST_NAMESPACES[name]}: root on the host` });
    }
  }
  // `docker context use|create|update|import` points later docker calls at another daemon.
  if (program === 'docker' && words[0] === 'context' && ['use', 'create', 'update', 'import'].includes(words[1] ?? '')) {
    findings.push({ index: argv.indexOf(words[1]!), guard: `docker context ${words[1]}`, message: `docker context ${words[1]} points later docker calls at another daemon, which runs containers as root on its host` });
  }
  if (words[0] === 'compose') findings.push(...composeGuard(argv, `${program} compose`, words.slice(1)));
  // A swarm stack is a compose file too; podman's kube play runs a pod spec (privileged, hostPath) alike.
  if (program === 'docker' && words[0] === 'stack' && ['deploy', 'up'].includes(words[1] ?? '')) findings.push(fileRuns(argv, `docker stack ${words[1]}`, 'the compose file', words[1]!));
  if (program === 'podman' && ((words[0] === 'play' && words[1] === 'kube') || (words[0] === 'kube' && words[1] === 'play'))) findings.push(fileRuns(argv, `podman ${words[0]} ${words[1]}`, 'the pod spec', words[1]!));
  // A plugin runs as root beside the daemon.
  if (program === 'docker' && words[0] === 'plugin' && ['install', 'enable', 'upgrade', 'create'].includes(words[1] ?? '')) {
    findings.push({ index: argv.indexOf(words[1]!), guard: `docker plugin ${words[1]}`, message: `docker plugin ${words[1]} puts a program beside the daemon that runs as root on the host` });
  }
  return findings;
}

/**
 * `docker compose`, and the standalone programs (docker-compose v1, podman-compose): the subcommands
 * that create or start containers. `words`: the words after the program (or after `compose`) that are no option.
 */
export function composeGuard(argv: string[], guard = argv[0]!.split('/').pop()!, words = argv.filter((word, i) => i > 0 && !word.startsWith('-'))): GuardFinding[] {
  const action = words.find((word) => COMPOSE_RUNS.has(word));
  return action ? [fileRuns(argv, `${guard} ${action}`, 'the compose file', action)] : [];
}

function fileRuns(argv: string[], guard: string, file: string, word: string): GuardFinding {
  return { index: argv.indexOf(word), guard, message: `${guard} runs what ${file} says (privileged: true, a volume of /, pid: host), which the tools may have written and no word of the line shows` };
}
