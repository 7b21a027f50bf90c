// Loads the command's code (dist/cli/main.cjs) with a V8 code cache: the launcher's one helper.
//
// Why: before its first model request a run spent ~30 ms compiling its JavaScript and walking
// Node's ES module loader over ~50 files. Node 20 has no compile cache of its own (22 does), so the
// command's code is one CommonJS file, compiled here through vm.Script with the cache the first run
// of this build left: V8 deserialises the functions that run compiled instead of parsing again.
//
// Where: $XDG_CACHE_HOME/unattended/code (else ~/.cache/unattended/code; the price table's cache is
// its sibling), one file per build, Node version, architecture and V8 options. It is written once,
// when the first run of a build exits, and holds what that run compiled. V8 checks a cache against
// its own version, its flags and the source's length; the build id in the name stands for the
// source itself. Files of other builds are removed then.
//
// Trust: a code cache is code. It is used only when it is a regular file owned by this user and
// writable by nobody else, in a directory that is not inside the working directory (a repository
// a run works on is untrusted input, and its tools write there; the policy protects the cache
// directory as it does the run's output, and the sandbox mounts home read-only). A missing,
// unreadable, untrusted or rejected cache only means a slower start: the code compiles as usual.
'use strict';

const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** Runs the CommonJS file `file` and returns its exports; `build` names its cache (null: none). */
exports.load = function load(file, build) {
  // Node maps stack traces to the sources only for files its own loader compiled: with
  // --enable-source-maps, a plain require(), without the cache.
  if (process.sourceMapsEnabled) return require(file);
  const source = fs.readFileSync(file, 'utf8');
  const cacheFile = build ? cachePath(build) : null;
  const cachedData = cacheFile ? readTrusted(cacheFile) : undefined;
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
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) process.once('exit', () => writeCache(cacheFile, script));
  return loaded.exports;
};

/** The cache file of this build under this Node, or null when there is no place for it. */
function cachePath(build) {
  const env = process.env;
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : env.HOME && path.isAbsolute(env.HOME) ? path.join(env.HOME, '.cache') : null;
  if (!base) return null;
  const dir = path.join(base, 'unattended', 'code');
  const cwd = process.cwd();
  if (dir === cwd || dir.startsWith(cwd.endsWith(path.sep) ? cwd : cwd + path.sep)) return null;
  // V8 rejects a cache made under other flags: one file per set, so runs with and without
  // --cpu-prof or --expose-gc do not overwrite each other's.
  const flags = fnv1a(`${process.execArgv.join(' ')}\n${env.NODE_OPTIONS ?? ''}`);
  return path.join(dir, `main-${build}-${process.version}-${process.arch}-${flags}.bin`);
}

/** The cache's bytes if it may be trusted (see the file comment), else undefined. */
function readTrusted(file) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) return undefined;
    const dir = fs.statSync(path.dirname(file));
    if ((uid !== undefined && dir.uid !== uid) || (dir.mode & 0o022) !== 0) return undefined;
    const bytes = Buffer.allocUnsafe(stat.size);
    let at = 0;
    while (at < bytes.length) {
      const n = fs.readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) return undefined;
      at += n;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Writes the cache whole or not at all (a temporary file renamed over it), and drops other builds'. */
function writeCache(file, script) {
  const dir = path.dirname(file);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
    const build = path.basename(file).split('-')[1];
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith('main-') && name.split('-')[1] !== build) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // A full disk or a read-only home: the next run compiles as this one did.
    try {
      fs.rmSync(temporary, { force: true });
    } catch {}
  }
}

/** A short hash of a string (FNV-1a, 32 bits, hex): names a set of V8 options, no secret. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
