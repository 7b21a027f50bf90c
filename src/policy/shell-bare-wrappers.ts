// Programs that run the command written after them, and when given none start a shell of their
// own, which reads its commands from stdin: `setarch x86_64 <<< 'rm -rf d'` is
// `sh <<< 'rm -rf d'`, and `setarch x86_64 < install.sh` is `sh < install.sh`. For deny rules
// such a program is a shell reading stdin (shell-rules.ts), so what feeds it is checked or
// refused as it is for `sh`. Whether a command follows is read from each program's manual:
// its fixed operands (setarch's architecture, ssh's host) and the options that take a value.
import path from 'node:path';
import { ownEntry } from './shell-options.js';

interface BareShell {
  /** How many operands come before the command (fewer is a usage error: no shell starts). */
  operands: readonly [min: number, max: number];
  /** Short option letters whose value is the rest of the word or the next one. */
  valued?: string;
  /** Long options whose value is the next word unless attached with '='. */
  valuedLong?: readonly string[];
  /** Options that give it a command line of its own (`su -c`): no shell reads stdin then. */
  command?: readonly string[];
  /** Options without which it starts no shell at all (`sudo -s`, `sudo -i`). */
  shell?: readonly string[];
  /** Words after which its arguments are the commands, not stdin (parallel's `:::`). */
  argumentsFollow?: readonly string[];
  /** Options that name what an operand would (`runuser -u USER`): no operand comes before the command then. */
  noOperandsWith?: readonly string[];
}

const SETARCH_ALIAS: BareShell = { operands: [0, 0] };
const SU: BareShell = {
  operands: [0, 1],
  valued: 'cgGsw',
  valuedLong: ['--command', '--session-command', '--group', '--supp-group', '--shell', '--whitelist-environment'],
  command: ['-c', '--command', '--session-command'],
};

const BARE_SHELLS: Readonly<Record<string, BareShell>> = {
  setarch: { operands: [1, 1] },
  linux32: SETARCH_ALIAS,
  linux64: SETARCH_ALIAS,
  i386: SETARCH_ALIAS,
  x86_64: SETARCH_ALIAS,
  su: SU,
  // `runuser -u USER [--] COMMAND` or su's `runuser [-] [USER]`; a user given by -u is no operand.
  runuser: { ...SU, valued: 'cgGswu', valuedLong: [...SU.valuedLong!, '--user'], noOperandsWith: ['-u', '--user'] },
  sg: { operands: [1, 1], command: ['-c'], valued: 'c' },
  newgrp: { operands: [0, 1] },
  chroot: { operands: [1, 1], valuedLong: ['--userspec', '--groups'] },
  unshare: {
    operands: [0, 0],
    valued: 'SGRw',
    valuedLong: ['--setuid', '--setgid', '--root', '--wd', '--map-user', '--map-group', '--map-users', '--map-groups', '--propagation', '--setgroups', '--monotonic', '--boottime'],
  },
  nsenter: { operands: [0, 0], valued: 'tSGW', valuedLong: ['--target', '--setuid', '--setgid', '--wdns'] },
  fakeroot: { operands: [0, 0], valued: 'lsib', valuedLong: ['--lib', '--faked', '--fd-base'] },
  // Its operand is the typescript file; the command comes only from -c.
  script: {
    operands: [0, 1],
    valued: 'cEIOBTmo',
    valuedLong: ['--command', '--echo', '--log-in', '--log-out', '--log-io', '--log-timing', '--logging-format', '--output-limit'],
    command: ['-c', '--command'],
  },
  pkexec: { operands: [0, 0], valuedLong: ['--user'] },
  sudo: {
    operands: [0, 0],
    valued: 'CDgpRrTtUu',
    valuedLong: ['--close-from', '--chdir', '--group', '--prompt', '--chroot', '--role', '--command-timeout', '--type', '--other-user', '--user', '--host'],
    shell: ['-s', '-i', '--shell', '--login'],
  },
  doas: { operands: [0, 0], valued: 'uC', shell: ['-s'] },
  ssh: { operands: [1, 1], valued: 'BbcDEeFIiJLlmOoPpQRSWw' },
  'systemd-run': {
    operands: [0, 0],
    valued: 'pEuMHs',
    valuedLong: ['--property', '--setenv', '--unit', '--machine', '--host', '--slice', '--description', '--working-directory', '--uid', '--gid', '--nice', '--on-calendar'],
    shell: ['-S', '--shell'],
  },
  firejail: { operands: [0, 0] },
  proot: { operands: [0, 0], valued: 'rbmwkqv', valuedLong: ['--rootfs', '--bind', '--mount', '--pwd', '--cwd', '--kernel-release', '--qemu', '--verbose'] },
  // Without a command, each line it reads is a command.
  parallel: {
    operands: [0, 0],
    valued: 'aCdEIjLNnPSs',
    valuedLong: [
      '--arg-file', '--colsep', '--delimiter', '--eof', '--replace', '--jobs', '--max-procs', '--max-lines', '--max-args', '--max-replace-args',
      '--sshlogin', '--max-chars', '--sshloginfile', '--slf', '--env', '--joblog', '--results', '--timeout', '--delay', '--retries', '--halt',
      '--memfree', '--load', '--workdir', '--wd', '--basefile', '--bf', '--return', '--transfer-file', '--tf', '--tagstring', '--tag-string',
      '--header', '--block', '--recstart', '--recend', '--tmpdir',
    ],
    argumentsFollow: [':::', '::::', ':::+', '::::+'],
  },
};

/**
 * True when `words` (a program and what follows it) names one of these programs given no
 * command, so that it starts a shell reading stdin.
 */
export function startsShellWithoutCommand(words: readonly string[]): boolean {
  const spec = specOf(words);
  if (!spec) return false;
  const read = readWords(spec, words);
  return read !== null && read.command === null && startsShell(spec, read.options, read.operands);
}

/** The index in `words` of the command one of these programs runs, or null when it is given none. */
export function wrapperCommand(words: readonly string[]): number | null {
  const spec = specOf(words);
  return spec ? (readWords(spec, words)?.command ?? null) : null;
}

function specOf(words: readonly string[]): BareShell | undefined {
  return ownEntry(BARE_SHELLS, path.posix.basename(words[0] ?? '').toLowerCase());
}

/** Its options, its operands and where its command starts; null when its arguments are the commands (parallel's `:::`). */
function readWords(spec: BareShell, words: readonly string[]): { options: Set<string>; operands: number; command: number | null } | null {
  const options = new Set<string>();
  const most = () => (spec.noOperandsWith?.some((option) => options.has(option)) ? 0 : spec.operands[1]);
  let operands = 0;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (spec.argumentsFollow?.includes(word)) return null;
    if (word === '--') {
      // The rest are operands, then the command.
      const rest = words.length - i - 1;
      const room = Math.max(0, most() - operands);
      return rest > room ? { options, operands: operands + room, command: i + 1 + room } : { options, operands: operands + rest, command: null };
    }
    if (word === '-') continue; // su's login shell: no operand
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = eq < 0 ? word : word.slice(0, eq);
      options.add(name);
      if (eq < 0 && spec.valuedLong?.includes(name)) i++;
    } else if (word.startsWith('-')) {
      for (let c = 1; c < word.length; c++) {
        options.add(`-${word[c]}`);
        if (spec.valued?.includes(word[c]!)) {
          if (c === word.length - 1) i++;
          break;
        }
      }
    } else if (operands < most()) {
      operands++;
    } else {
      return { options, operands, command: i };
    }
  }
  return { options, operands, command: null };
}

function startsShell(spec: BareShell, options: ReadonlySet<string>, operands: number): boolean {
  if (operands < spec.operands[0]) return false;
  if (spec.command?.some((option) => options.has(option))) return false;
  return spec.shell === undefined || spec.shell.some((option) => options.has(option));
}
