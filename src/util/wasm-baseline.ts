// WebAssembly at V8's baseline tier only (Liftoff), no TurboFan tier-up. Two WASM modules can run
// many times in a run: the tree-sitter bash grammar (the allowlist policy, policy/shell-parse.ts)
// and undici's HTTP parser (the global fetch, which an MCP server over HTTP is reached with; the
// providers use node:http or their own HTTP/1.1 client). Their optimising compiles cost ~100 ms and a 34 MB malloc peak
// (undici) and a 600-800 ms main-thread stall (the grammar), for code that handles a few KB per
// call, where baseline code is fast enough. V8 reads the flag when the process compiles its first
// WASM module, so each of those paths sets it before its first use; setting it again is harmless.
// node:v8 is loaded then, not at start-up (~2 ms of a run that needs neither).
import type v8 from 'node:v8';

let done = false;

export function useBaselineWasm(): void {
  if (done) return;
  done = true;
  (process.getBuiltinModule('node:v8') as typeof v8).setFlagsFromString('--liftoff-only');
}
