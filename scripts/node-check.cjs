// Runs before the build (package.json "build"): on a Node older than engines allows, the build
// would die linking its ES modules with a stack trace (`No matching export ... styleText`), before
// any check of its own could run, and leave dist/ removed. CommonJS, so this runs on any Node.
// The same test and words as the command's launcher (scripts/bin/unattended.cjs).
'use strict';
if (typeof process.getBuiltinModule !== 'function') {
  process.stderr.write(`unattended: Node.js ${process.version} is too old: unattended needs Node.js 20.19 or newer\n`);
  process.exit(52);
}
