// tree-sitter-bash through web-tree-sitter: the grammar's .wasm only, loaded once per process on
// first use (or by warmUpShellParser at start), then shared by every parse.
import { assetPath } from '../util/assets.js';
import { useBaselineWasm } from '../util/wasm-baseline.js';
import type { Node, Parser, Tree } from 'web-tree-sitter';
import { monotonicMs } from '../util/clock.js';

/** A parse that takes longer than this is abandoned and the command denied. */
export const PARSE_TIMEOUT_MS = 2_000;

export type ParseOutcome = { ok: true; root: Node; release: () => void } | { ok: false; reason: string };

let loading: Promise<Parser> | null = null;

/** Load the WASM grammar once; the runner calls this at start so the first decision is quick. */
export async function warmUpShellParser(): Promise<void> {
  await loadParser();
}

function loadParser(): Promise<Parser> {
  loading ??= (async () => {
    // Without it, TurboFan's tier-up of the grammar stalls the main thread 600-800 ms at the first
    // tool call (see util/wasm-baseline.ts). Set here, before the grammar's first compile.
    useBaselineWasm();
    const { Parser, Language } = await import('web-tree-sitter');
    // The runtime's own .wasm is named explicitly: bundled, web-tree-sitter would look for it
    // beside the chunk it was bundled into.
    const runtime = assetPath('web-tree-sitter.wasm');
    await Parser.init({ locateFile: () => runtime });
    const language = await Language.load(assetPath('tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  // A failed load is not cached: the next call may try again (and until then, commands are denied).
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/**
 * Parse `source` as bash. The caller must call `release()` when done with the tree (WASM memory
 * is not garbage collected). Any failure, including a timeout, is an outcome, never a throw.
 */
export async function parseShell(source: string, timeoutMs = PARSE_TIMEOUT_MS): Promise<ParseOutcome> {
  let parser: Parser;
  try {
    parser = await loadParser();
  } catch (error) {
    return { ok: false, reason: `the shell parser could not be loaded (${(error as Error).message})` };
  }
  const deadline = monotonicMs() + timeoutMs;
  let tree: Tree | null;
  try {
    tree = parser.parse(source, null, {
      // Returning true cancels the parse (the type says void; the runtime honours the result).
      progressCallback: (() => monotonicMs() > deadline) as () => void,
    });
  } catch (error) {
    parser.reset();
    return { ok: false, reason: `the shell parser failed (${(error as Error).message})` };
  }
  if (!tree) {
    parser.reset();
    return { ok: false, reason: `parsing took longer than ${timeoutMs} ms` };
  }
  const parsed = tree;
  return { ok: true, root: parsed.rootNode, release: () => parsed.delete() };
}
