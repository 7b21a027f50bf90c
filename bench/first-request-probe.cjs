// `node --require ./bench/first-request-probe.cjs dist/cli/unattended.cjs run …` (bench/startup.mjs
// does this): when the process opens its first outgoing connection (the model request's) it writes
// to $PROBE_OUT, as JSON, the CPU spent so far (user+sys, ms), the wall time since the process
// started (ms), and the builtin modules loaded by then. It subscribes to node:net's own diagnostics
// channel, loaded at boot, so it adds no builtin of its own. CommonJS, required: a probe given to
// --import started Node's ES module loader, which a run never does (the launcher is CommonJS), and
// that loader's modules (fs/promises, readline, the ESM translators) added ~9 ms to every figure.
'use strict';
const dc = require('node:diagnostics_channel');
const { writeFileSync } = require('node:fs');

const out = process.env.PROBE_OUT;
let done = false;
dc.subscribe('net.client.socket', () => {
  if (done || !out) return;
  done = true;
  const cpu = process.cpuUsage();
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  writeFileSync(out, JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now(), builtins }));
});
