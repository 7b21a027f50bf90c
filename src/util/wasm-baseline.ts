// WebAssembly at V8's baseline tier only (Liftoff), no TurboFan tier-up. Two WASM modules run in
// every run: undici's HTTP parser (each fetch to the model) and the tree-sitter bash grammar (the
// allowlist policy). Their optimising compiles cost ~100 ms and a 34 MB malloc peak (undici) and
// a 600-800 ms main-thread stall (the grammar), for code that handles a few KB per call, where
// baseline code is fast enough. V8 reads the flag when the process compiles its first WASM
// module, so the CLI sets it first thing; setting it again is harmless.
import { setFlagsFromString } from 'node:v8';

let done = false;

export function useBaselineWasm(): void {
  if (done) return;
  done = true;
  setFlagsFromString('--liftoff-only');
}
