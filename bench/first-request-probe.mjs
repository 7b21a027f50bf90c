// `node --import ./bench/first-request-probe.mjs dist/cli/unattended.cjs run …` (bench/startup.mjs does
// this): when the process opens its first outgoing connection (the model request's) it writes to
// $PROBE_OUT, as JSON, the CPU spent so far (user+sys, ms), the wall time since the process started
// (ms), and the builtin modules loaded by then. It subscribes to node:net's own diagnostics channel,
// which the process loads anyway, so it adds no builtin of its own beyond diagnostics_channel
// (loaded at boot).
import dc from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

const out = process.env.PROBE_OUT;
let done = false;
dc.subscribe('net.client.socket', () => {
  if (done || !out) return;
  done = true;
  const cpu = process.cpuUsage();
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  writeFileSync(out, JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now(), builtins }));
});
