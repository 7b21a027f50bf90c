// A file the user names for output (`convert --out`, `report --out`, `run --record`): it must never
// be one of the command's inputs under another name. A path compare misses a symbolic link
// (`out.yaml -> g.yaml`) and a hard link (two names, one file): a write through either would
// replace the very file being read, so identity is the device and inode, after links. Problems a
// user can fix (a directory, a missing parent) are InputErrors (exit 42), never "unexpected".
import fs from 'node:fs';
import path from 'node:path';
import { InputError, UserFacingError } from '../types/errors.js';
import { ExitCode } from '../types/outcome.js';
import { writeFileAtomic } from './atomic-write.js';

export interface OutputInput {
  file: string;
  /** What the input is, for the message: "the goose recipe", "the transcript". */
  what: string;
  /** What to do instead, when writing over this input is what the person meant (re-recording a script). */
  instead?: string;
}

/**
 * Refuses `out` (named by `flag`) when it is a directory, when its directory does not exist, or
 * when it is, through any link, one of `inputs`.
 */
export function checkOutputFile(out: string, flag: string, inputs: readonly OutputInput[]): void {
  const hint = `name a new file with ${flag} FILE, in a directory that exists`;
  const target = statOrNull(out);
  if (target?.isDirectory()) throw new InputError(`${flag} ${out} is a directory, not a file`, `${hint} (a file inside it: ${flag} ${path.join(out, 'NAME')})`);
  // The file is written beside and renamed over: a FIFO or a device (/dev/full, /dev/stdout's
  // target), or a link to one, would be replaced by a regular file, which as root breaks /dev.
  if (target && !target.isFile()) throw new InputError(`${flag} ${out} is ${specialKind(target)}, not a regular file: writing it would replace it`, hint);
  for (const input of inputs) {
    const source = statOrNull(input.file);
    // A file not written yet (the run's own report) is the same when its path is, links in its directory followed.
    const same = target && source ? target.dev === source.dev && target.ino === source.ino : canonical(out) === canonical(input.file);
    if (same) {
      const how = path.resolve(out) === path.resolve(input.file) ? '' : ' (through a link: both names are the same file)';
      throw new InputError(`${flag} ${out} is ${input.what} itself${how}: writing it would destroy it`, input.instead ?? hint);
    }
  }
  const dir = path.dirname(path.resolve(out));
  const parent = statOrNull(dir);
  if (!parent) throw new InputError(`cannot write ${out}: its directory ${path.dirname(out)} does not exist`, `create it first, or ${hint}`);
  if (!parent.isDirectory()) throw new InputError(`cannot write ${out}: ${path.dirname(out)} is not a directory`, hint);
}

/** Checks `out` as checkOutputFile does, then writes it whole or not at all; a link at `out` is replaced, never followed. */
export function writeOutputFile(out: string, text: string, flag: string, inputs: readonly OutputInput[]): void {
  checkOutputFile(out, flag, inputs);
  try {
    writeFileAtomic(path.resolve(out), text);
  } catch (error) {
    // The code, not node's message: that names the temporary file beside `out` ('/d/.x.md.7me0….tmp').
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new OutputSpaceError(out, flag, code, fs.existsSync(out));
    const why = code === 'EACCES' || code === 'EPERM' ? `permission denied in ${path.dirname(out)}` : code === 'EROFS' ? `${path.dirname(out)} is on a read-only file system` : (code ?? (error as Error).message);
    throw new InputError(`cannot write ${out}: ${why}`, `choose a writable path with ${flag} FILE`);
  }
}

function specialKind(stats: fs.Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

function canonical(p: string): string {
  const abs = path.resolve(p);
  try {
    return path.join(fs.realpathSync(path.dirname(abs)), path.basename(abs));
  } catch {
    return abs;
  }
}

/**
 * No room for `out` (a full disk, a quota): exit 54, as for a run's own files, not a bad flag. The
 * write is whole or nothing (writeFileAtomic), so the message can say what is left.
 */
export class OutputSpaceError extends UserFacingError {
  readonly kind = 'io';
  readonly exitCode = ExitCode.fatalTool;
  constructor(out: string, flag: string, code: 'ENOSPC' | 'EDQUOT', existed: boolean) {
    const where = path.dirname(path.resolve(out));
    super(
      `cannot write ${out}: ${code === 'ENOSPC' ? 'no space left on the device' : 'the disk quota is used up'} holding ${where}; nothing was written${existed ? ` (${out} is as it was)` : ''}`,
      `free space there and run the command again, or choose another place with ${flag} FILE`,
    );
  }
}
