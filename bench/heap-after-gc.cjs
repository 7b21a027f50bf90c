// Preloaded into the CLI by `npm run bench`'s long run (node --expose-gc --require): every half
// second, a full GC and then the heap in use, written to BENCH_HEAP_LOG as [[epoch ms, bytes], ...]
// when the process exits. What stays after a full GC is what the run holds; RSS also counts the
// heap V8 has grown and not yet given back, which says little about a leak.
'use strict';
const fs = require('node:fs');

const file = process.env.BENCH_HEAP_LOG;
if (file && typeof global.gc === 'function') {
  const samples = [];
  const sample = () => {
    global.gc();
    samples.push([Date.now(), process.memoryUsage().heapUsed]);
  };
  setInterval(sample, 500).unref();
  process.on('exit', () => {
    sample();
    fs.writeFileSync(file, JSON.stringify(samples));
  });
}
