// The targets file of `unattended batch`: one target a line, a local directory or a git URL.
// `#` starts a comment (a whole line, or after whitespace), blank lines are ignored. Relative
// paths are relative to the targets file, as a recipe's paths are relative to the recipe.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../recipe/index.js';
import { Redactor } from '../report/redact.js';
import { canonicalPath } from '../util/paths.js';
import { readFileOrOwnDescriptor } from '../util/read-fd-path.js';
import { utf8TextWithoutBom } from '../util/utf8.js';

export interface Target {
  /** Position among the file's targets (0-based): rows of every shard sort back into file order. */
  index: number;
  /** As written in the file: the target's identity in reports, slugs and shards. */
  spec: string;
  kind: 'path' | 'git';
  /** Absolute directory for a path; the URL for git. */
  location: string;
  /** Directory name for the target's outputs: readable, unique, the same on every run. */
  slug: string;
}

export interface ParsedTargets {
  targets: Target[];
  warnings: string[];
}

// scheme://…, or scp-like user@host:path (a colon before any slash).
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const SCP_LIKE = /^[^/\s@]+@[^/\s:]+:/;

export function isGitUrl(spec: string): boolean {
  return URL_LIKE.test(spec) || SCP_LIKE.test(spec);
}

export function parseTargets(text: string, baseDir: string): ParsedTargets {
  const targets: Target[] = [];
  const warnings: string[] = [];
  // Keyed on the repository, not the line's text: two spellings of one (`a`, `./a`, `a/`) would
  // be two runs editing one checkout and pushing one branch at the same time.
  const seen = new Map<string, { line: number; spec: string }>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const spec = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!spec) return;
    const kind = isGitUrl(spec) ? 'git' : 'path';
    const location = kind === 'git' ? spec : path.resolve(baseDir, spec);
    const key = targetKey({ kind, location });
    const first = seen.get(key);
    if (first !== undefined) {
      warnings.push(first.spec === spec ? `line ${i + 1}: '${shownTarget(spec)}' repeats line ${first.line}; it runs once` : `line ${i + 1}: '${shownTarget(spec)}' is the same repository as line ${first.line} ('${shownTarget(first.spec)}'); it runs once`);
      return;
    }
    seen.set(key, { line: i + 1, spec });
    targets.push({ index: targets.length, spec, kind, location, slug: targetSlug(spec) });
  });
  return { targets, warnings };
}

/**
 * Which repository a target is, whatever its spelling: a directory's real path (links resolved);
 * a git URL without a trailing `/` or `.git`, its host in lower case. On a forge (GitHub, GitHub
 * Enterprise as GITHUB_SERVER_URL names it, GitLab, Bitbucket) a repository is its host and its
 * path, in any case and by any protocol: `https://github.com/Acme/Widgets` and
 * `git@github.com:acme/widgets.git` are one repository there.
 */
export function targetKey(target: Pick<Target, 'kind' | 'location'>): string {
  return target.kind === 'path' ? `path:${canonicalPath(target.location)}` : `git:${normalGitUrl(target.location)}`;
}

function normalGitUrl(url: string): string {
  const suffix = /[?#].*$/.exec(url)?.[0] ?? '';
  const bare = url.slice(0, url.length - suffix.length).replace(/\/+$/, '').replace(/\.git$/i, '').replace(/\/+$/, '');
  const lowerHost = (authority: string) => authority.replace(/[^@]*$/, (host) => host.toLowerCase());
  const hostOf = (authority: string) => (/[^@]*$/.exec(authority)?.[0] ?? '').replace(/:\d+$/, '').toLowerCase();
  const onForge = (authority: string, rest: string) =>
    caseBlindHosts().has(hostOf(authority)) ? `forge:${hostOf(authority)}/${rest.replace(/^[:/]+/, '').toLowerCase()}${suffix}` : null;
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)([^/]*)(.*)$/i.exec(bare);
  if (scheme) return onForge(scheme[2]!, scheme[3]!) ?? `${scheme[1]!.toLowerCase()}${lowerHost(scheme[2]!)}${scheme[3]}${suffix}`;
  const scp = /^([^/\s:]+)(:.*)$/.exec(bare);
  return scp ? (onForge(scp[1]!, scp[2]!) ?? `${lowerHost(scp[1]!)}${scp[2]}${suffix}`) : `${bare}${suffix}`;
}

/** Hosts whose repository names ignore case. */
function caseBlindHosts(): Set<string> {
  const hosts = new Set(['github.com', 'gitlab.com', 'bitbucket.org']);
  for (const name of ['GITHUB_SERVER_URL', 'GITHUB_API_URL']) {
    try {
      const host = new URL(process.env[name] ?? '').hostname.toLowerCase();
      if (host) hosts.add(host.replace(/^api\./, ''));
    } catch {
      // Not set, or not a URL.
    }
  }
  return hosts;
}

export function readTargetsFile(file: string): ParsedTargets {
  let text: string;
  try {
    // An editor's byte-order mark would be the first target's first character.
    text = utf8TextWithoutBom(readFileOrOwnDescriptor(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      `cannot read the targets file ${file}: ${code === 'ENOENT' ? 'there is no such file' : (code ?? (error as Error).message)}`,
      'give --targets FILE, a file with one target a line (a directory, or a git URL), or take them from GitHub with --org, --topic or --search',
    );
  }
  const parsed = parseTargets(text, targetsBaseDir(file));
  if (!parsed.targets.length) throw new InputError(`the targets file ${file} names no targets (one path or git URL a line)`);
  return parsed;
}

/**
 * What a relative target is relative to: the targets file's directory, as a recipe's paths are the
 * recipe's; but a pipe has no directory of its own (`--targets <(ls -d svc-*)` is /dev/fd/63,
 * `--targets /dev/stdin`), and `svc-a` there meant /dev/fd/svc-a: then the current directory, where
 * the command that wrote the list ran.
 */
function targetsBaseDir(file: string): string {
  const resolved = path.resolve(file);
  // /dev/stdin redirected from a file is a regular file, but its directory is still /dev (not /dev/shm's files, which are files).
  if (/^\/dev\/(stdin$|fd\/)|^\/proc\/[^/]+\/fd\//.test(resolved)) return process.cwd();
  try {
    if (!fs.statSync(file).isFile()) return process.cwd();
  } catch {
    // Read a moment ago; said by the reader if it is gone.
  }
  return path.dirname(resolved);
}

/** Token shapes and `scheme://user:password@` credentials; no environment values (a target is shown the same everywhere). */
const SHAPES = new Redactor([]);

/**
 * A target as the batch shows it (its progress lines in a CI log, batch-report.md and the job
 * summary): a clone URL of a private repository may carry its token
 * (`https://x-access-token:…@github.com/acme/x.git`), which is shown `[REDACTED]`. The record
 * (batch-report.json, which --resume and merge key rows by) keeps the line as written.
 */
export function shownTarget(spec: string): string {
  return SHAPES.redact(spec);
}

/** `org-repo-1a2b3c`: the last two path segments, and a hash so that similar names never collide. */
export function targetSlug(spec: string): string {
  const tail = spec
    .replace(/[?#].*$/, '')
    .replace(/\.git\/*$/, '')
    .split(/[/\\:@]+/)
    .filter((s) => s && s !== '.' && s !== '..')
    .slice(-2)
    .join('-');
  const readable = tail.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 48) || 'target';
  return `${readable}-${stableHash(spec).toString(16).padStart(8, '0').slice(0, 6)}`;
}

/** A hash that is the same on every machine and Node version: shards depend on it. */
export function stableHash(text: string): number {
  return createHash('sha256').update(text, 'utf8').digest().readUInt32BE(0);
}
