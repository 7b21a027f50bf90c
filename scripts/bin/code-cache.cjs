// Loads the command's code (dist/cli/main.cjs) with a V8 code cache: the launcher's one helper.
//
// Why: before its first model request a run spent ~30 ms compiling its JavaScript and walking
// Node's ES module loader over ~50 files. Node 20 has no compile cache of its own (22 does), so the
// command's code is one CommonJS file, compiled here through vm.Script with the cache an earlier
// run of this build left: V8 deserialises the functions that run compiled instead of parsing.
//
// Where: beside the code, in dist/cli/cache/, when this user owns the installation; else (a
// system-wide install, a read-only one) $XDG_CACHE_HOME/unattended/code (else ~/.cache/unattended/
// code; the price table's cache is its sibling). It is written in the installation's own directory
// when it can be, because that outlives a home directory: a container or CI job that starts each
// run with a fresh HOME still finds it. A cache there is no more writable than main.cjs beside it,
// so it adds no way to change what runs. Where both places hold one, the newer is read. One file
// per build, command, Node version, architecture and V8 options. A command writes its file when its
// first run exits (so a run's cache holds what a run compiles, not what `validate` did). V8 checks
// a cache only against its own version, its flags and the source's length, so the name also carries
// the build's hash and main.cjs's size, time and inode. Files that no run has written for a week
// are removed when a new one is written: two installations sharing the directory keep theirs.
//
// Trust: a code cache is code, run by every later start. So one is read (in either place) only when
// - the directory (where links lead) is this user's and writable by nobody else, and every
//   directory above it is this user's or root's and writable by nobody else (a sticky directory
//   such as /tmp excepted: nobody can replace there what another owns);
// - it is not under the working directory, links followed (a repository is untrusted input, and
//   tools write there; the policy and the sandbox also keep tools out of the cache directory when
//   a workspace contains it);
// - the file is a regular file (not a link, not a FIFO: opened without following or blocking),
//   this user's, and writable by nobody else.
// Anything else (no cache, a read-only home, a full disk, garbage) only means a slower start: the
// code compiles as usual.
'use strict';

const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { isAscii } = require('node:buffer');
const vm = require('node:vm');

/** Where the runner finds installationCache (src/util/cache-dir.ts reads the same symbol). */
const INSTALLATION_CACHE = Symbol.for('unattended.installationCache');

/** How long a file of another build or command is kept once nothing writes it. */
const STALE_MS = 7 * 24 * 3600 * 1000;

/**
 * Runs the CommonJS file `file` and returns its exports. `build` (the launcher's stamp; null: no
 * cache) and `command` name the cache.
 */
exports.load = function load(file, build, command) {
  // Node maps stack traces to the sources only for files its own loader compiled: with
  // --enable-source-maps, a plain require(), without the cache.
  if (process.sourceMapsEnabled) return require(file);
  const { source, stat } = readSource(file);
  // The runner keeps its other caches of this installation's files there too (the price table's
  // answers: src/util/cache-dir.ts), under the same checks on the directory (price-cache.ts checks
  // each file as openTrusted does); looked for only when needed.
  let own;
  globalThis[INSTALLATION_CACHE] = () => (own === undefined ? (own = installationCache(file)) : own);
  const places = build ? cachePlaces(file, build, command, stat) : [];
  const cachedData = readNewestTrusted(places);
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    // The build leaves no import() in the file (builtins and packages are required); should one
    // appear, it goes to Node's loader as in any CommonJS file instead of failing.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const loaded = new Module(file, module);
  loaded.filename = file;
  script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, path.dirname(file));
  loaded.loaded = true;
  if (places.length > 0 && (cachedData === undefined || script.cachedDataRejected)) process.once('exit', () => writeCache(places, script));
  return loaded.exports;
};

// The build keeps main.cjs ASCII (scripts/build.mjs), and ASCII read as Latin-1 is the same text:
// a copy of the bytes, where decoding 1.3 MB as UTF-8 took ~4 ms of every start. A file that is not
// ASCII (edited by hand, say) is decoded as UTF-8, as before.
function readSource(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const stat = fs.fstatSync(fd);
    const bytes = fs.readFileSync(fd);
    return { source: isAscii(bytes) ? bytes.latin1Slice(0, bytes.length) : bytes.utf8Slice(0, bytes.length), stat };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The cache file for this build, command and Node in each place there is, the installation's
 * first; `parents`: the directories above it may be made too (under the cache home, not beside the code).
 */
function cachePlaces(file, build, command, stat) {
  const env = process.env;
  // V8 rejects a cache made under other flags: one file per set, so runs with and without
  // --cpu-prof or --expose-gc do not overwrite each other's.
  const key = fnv1a([process.execArgv.join(' '), env.NODE_OPTIONS ?? '', stat.size, stat.mtimeMs, stat.ino].join('\n'));
  const name = `main-${build}-${command}-${process.version}-${process.arch}-${key}.bin`;
  const places = [{ file: path.join(installationCachePath(file), name), parents: false }];
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : env.HOME && path.isAbsolute(env.HOME) && fs.existsSync(env.HOME) ? path.join(env.HOME, '.cache') : null;
  // Node's recursive mkdir never returns under /proc (util/cache-dir.ts says the same).
  if (base && !/^\/proc(\/|$)/.test(path.resolve(base))) places.push({ file: path.join(path.resolve(base), 'unattended', 'code', name), parents: true });
  return places;
}

/** The installation's cache directory: dist/cli/cache, beside the code. */
function installationCachePath(file) {
  return path.join(path.dirname(file), 'cache');
}

/**
 * The installation's cache directory, made if missing, when a cache may be kept there (see the
 * file comment); else null. Made only where dist/cli itself could be trusted: an empty directory
 * left in another user's installation would keep its owner's caches out for good.
 */
function installationCache(file) {
  const dir = installationCachePath(file);
  if (trustedDirectory(path.dirname(dir)) === null) return null;
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (error.code !== 'EEXIST') return null;
  }
  return trustedDirectory(dir);
}

/**
 * The real path of `dir` when it may hold code this process runs (see the file comment), else
 * null. The checks are on the directories themselves, wherever links lead.
 */
function trustedDirectory(dir) {
  const uid = process.getuid?.();
  try {
    const real = fs.realpathSync.native(dir);
    const cwd = fs.realpathSync.native(process.cwd());
    if (real === cwd || real.startsWith(cwd.endsWith(path.sep) ? cwd : cwd + path.sep)) return null;
    for (let at = real; ; at = path.dirname(at)) {
      const stat = fs.lstatSync(at);
      const owner = at === real ? stat.uid === uid : stat.uid === uid || stat.uid === 0;
      const othersWrite = (stat.mode & 0o022) !== 0 && (at === real || (stat.mode & 0o1000) === 0);
      if (!stat.isDirectory() || (uid !== undefined && !owner) || othersWrite) return null;
      if (path.dirname(at) === at) return real;
    }
  } catch {
    return null;
  }
}

/**
 * The bytes of the most recently written cache file among the places that may be trusted (see the
 * file comment), else undefined. The newest, not the first: a stale file in a place that cannot be
 * rewritten (an installation on a read-only mount) must not hide the one a later run wrote in the next.
 */
function readNewestTrusted(places) {
  const open = places.map(({ file }) => openTrusted(file)).filter((found) => found !== null);
  const newest = open.reduce((best, found) => (best === null || found.stat.mtimeMs > best.stat.mtimeMs ? found : best), null);
  try {
    return newest === null ? undefined : readAll(newest.fd, newest.stat.size);
  } finally {
    for (const { fd } of open) fs.closeSync(fd);
  }
}

/** The open cache file and its stat when it may be trusted, else null. */
function openTrusted(file) {
  const dir = trustedDirectory(path.dirname(file));
  if (dir === null) return null;
  let fd;
  try {
    fd = fs.openSync(path.join(dir, path.basename(file)), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    const stat = fs.fstatSync(fd);
    const uid = process.getuid?.();
    if (stat.isFile() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0) return { fd, stat };
  } catch {}
  if (fd !== undefined) fs.closeSync(fd);
  return null;
}

function readAll(fd, size) {
  try {
    const bytes = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < bytes.length) {
      const n = fs.readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) return undefined;
      at += n;
    }
    return bytes;
  } catch {
    return undefined;
  }
}

/** Writes the cache in the first place that takes it, and drops that place's stale files. */
function writeCache(places, script) {
  // Serialised only once a place has taken it (~4 ms): a run with nowhere to keep it pays nothing.
  let data;
  const bytes = () => (data ??= script.createCachedData());
  for (const place of places) if (writeIn(place, bytes)) return;
}

/** Writes the cache whole or not at all (a temporary file renamed over it); false when the place cannot hold one. */
function writeIn({ file, parents }, bytes) {
  let temporary = null;
  // Under the cache home, the directories are made as needed; beside the code, only where trusted.
  if (parents) {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    } catch {
      return false;
    }
  } else if (!globalThis[INSTALLATION_CACHE]?.()) return false;
  try {
    // Never written where it would not be read.
    const dir = trustedDirectory(path.dirname(file));
    if (dir === null) return false;
    file = path.join(dir, path.basename(file));
    temporary = `${file}.${process.pid}.tmp`;
    // A file left by a process of the same pid that was killed before its rename.
    fs.rmSync(temporary, { force: true });
    fs.writeFileSync(temporary, bytes(), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
  } catch {
    // A full disk or a read-only place: the next place, or the next run compiles as this one did.
    try {
      if (temporary) fs.rmSync(temporary, { force: true });
    } catch {}
    return false;
  }
  try {
    const stale = Date.now() - STALE_MS;
    for (const name of fs.readdirSync(path.dirname(file))) {
      const other = path.join(path.dirname(file), name);
      if (other !== file && name.startsWith('main-') && fs.lstatSync(other).mtimeMs < stale) fs.rmSync(other, { force: true });
    }
  } catch {}
  return true;
}

/** A short hash of a string (FNV-1a, 32 bits, hex): names a set of V8 options and a file, no secret. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
