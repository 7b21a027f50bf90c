// ssh, scp and sftp read short options as getopt does: letters cluster (`-vo X`, `-4oX`, `-qF cfg`)
// and a letter that takes a value takes the rest of the word or the next one. A check that looked
// at a word's first letter alone let `ssh -vo ProxyCommand=CMD host` through. The letters that run
// a local program or load code, per program (OpenSSH 9):
// - `-o` an option (ProxyCommand, LocalCommand, KnownHostsCommand, PKCS11Provider), `-F` a config
//   file that may set them, `-S` scp's and sftp's ssh program (ssh's control socket, refused alike);
// - ssh `-I`: a PKCS#11 library it loads;
// - scp and sftp `-D`: a local sftp server program they start instead of ssh;
// - sftp `-b`: a batch file whose `!` lines are local shell commands.
import path from 'node:path';

/** Letters that take a value, per program (getopt's strings). */
const VALUED: Readonly<Record<string, string>> = {
  ssh: 'BbcDEeFIiJLlmOoPpQRSWw',
  scp: 'cDFiJloPSX',
  sftp: 'BbcDFiJloPRSsX',
};

/** Letters that run a local program or load code, per program. */
const RUNS: Readonly<Record<string, string>> = {
  ssh: 'oFSI',
  scp: 'oFSD',
  sftp: 'oFSDb',
};

export interface SshOption {
  /** Position in argv of the word that holds the letter. */
  index: number;
  letter: string;
  /** Its value, where it takes one (undefined when the line ends first). */
  value?: string;
}

const base = (word: string | undefined) => path.posix.basename(word ?? '');

/** Whether `program` is ssh, scp or sftp (by base name). */
export function isSshProgram(program: string | undefined): boolean {
  return Object.hasOwn(VALUED, base(program));
}

/** Every option letter of argv's short-option clusters that runs a local program or loads code, with its value. */
export function sshRunningOptions(argv: readonly string[]): SshOption[] {
  const program = base(argv[0]);
  const valued = VALUED[program] ?? '';
  const runs = RUNS[program] ?? '';
  const found: SshOption[] = [];
  // Every word, as before: after the host come the remote command's words, which this over-reads.
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (!/^-[^-]/.test(word)) continue;
    for (let at = 1; at < word.length; at++) {
      const letter = word[at]!;
      if (!valued.includes(letter)) {
        if (runs.includes(letter)) found.push({ index: i, letter });
        continue;
      }
      const attached = word.slice(at + 1);
      const value = attached !== '' ? attached : argv[i + 1];
      if (runs.includes(letter)) found.push({ index: i, letter, ...(value === undefined ? {} : { value }) });
      if (attached === '') i++;
      break;
    }
  }
  return found;
}
