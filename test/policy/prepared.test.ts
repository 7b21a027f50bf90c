// The work that is the same for every call of a run (resolving the protected paths, compiling the
// rules) is done once per policy context, not once per call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, type PolicyContext } from '../../src/policy/decide.js';
import { Workspace } from '../../src/util/workspace.js';
import { makeFixture, reads, shell, writes, type Fixture } from './fixture.js';

let f: Fixture;
beforeAll(() => {
  f = makeFixture();
});
afterAll(() => f.cleanup());

/** A real workspace that counts how often each path is resolved. */
function countingWorkspace(root: string): { workspace: Workspace; resolved: Map<string, number> } {
  const workspace = Workspace.open(root);
  const resolved = new Map<string, number>();
  const original = workspace.resolve.bind(workspace);
  workspace.resolve = (p: string) => {
    resolved.set(p, (resolved.get(p) ?? 0) + 1);
    return original(p);
  };
  return { workspace, resolved };
}

describe('per-context preparation', () => {
  it('resolves the protected paths once for many calls, and still protects them on every call', async () => {
    const { workspace, resolved } = countingWorkspace(f.root);
    // Spelled so that no call resolves the same string: the counts are the policy's own resolutions.
    const recipe = `${f.root}/recipes/./fix.yaml`;
    const outDir = `${f.outDir}/`;
    const context: PolicyContext = { ...f.context('allowlist', ['write_file: **', 'shell: cat *']), workspace, protectedPaths: [recipe, outDir] };
    for (let i = 0; i < 5; i++) {
      expect((await decide(writes('write_file', `src/new${i}.ts`)(f), context)).decision).toBe('allow');
      expect(await decide(writes('write_file', 'out/runs/report.json')(f), context)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/protected/) });
      expect(await decide(shell('cat recipes/fix.yaml')(f), context)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/protected/) });
    }
    expect(resolved.get(recipe)).toBe(1);
    expect(resolved.get(outDir)).toBe(1);
  });

  it('a new context (another run, another recipe) gets its own rules', async () => {
    const call = reads('read_file', 'src/a.ts');
    expect((await decide(writes('edit', 'src/a.ts')(f), f.context('allowlist', ['edit: src/**']))).decision).toBe('allow');
    expect((await decide(writes('edit', 'src/a.ts')(f), f.context('allowlist', ['edit: docs/**']))).decision).toBe('deny');
    expect((await decide(call(f), f.context('auto-approve', [], ['read_file: src/**']))).decision).toBe('deny');
    expect((await decide(call(f), f.context('auto-approve', [], []))).decision).toBe('allow');
  });
});
