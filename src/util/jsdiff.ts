// jsdiff, required on first use (util/assets.ts): a run needs it only once a file tool changed a
// file, for that change's diff and the run's files_changed, and both need it synchronously.
import { requireAsset } from './assets.js';

type Diff = typeof import('diff');

export function jsdiff(): Diff {
  return requireAsset<Diff>('diff.cjs');
}
