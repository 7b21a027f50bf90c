// unattended's cache directory holds the launcher's V8 code cache, which the next start runs as
// code (scripts/bin/code-cache.cjs), and its state directory the run a bare --continue goes on
// from. A workspace that holds them (a run in the home directory) must not let a tool write there,
// whatever the recipe's mode.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRecipe } from '../../src/recipe/load.js';
import { createJudge } from '../../src/runner/session.js';
import { makeFixture, shell, writes, type Fixture } from '../policy/fixture.js';

let fixture: Fixture | undefined;
afterEach(() => fixture?.cleanup());

/** The run's policy for a recipe (`tools` and `confirmation` lines), with the cache in the workspace's .cache. */
function judgeWithCacheInside(recipeLines: string) {
  fixture = makeFixture();
  const file = path.join(fixture.tmp, 'recipe.yaml');
  fs.writeFileSync(file, `version: 1\nname: t\nprompt: go\n${recipeLines}`);
  const recipe = loadRecipe(file, { params: {}, overrides: { workspace: fixture.root } });
  return { f: fixture, judge: createJudge(recipe, fixture.workspace, path.join(fixture.tmp, 'out'), { XDG_CACHE_HOME: path.join(fixture.root, '.cache') }) };
}

describe("the runner's cache inside the workspace", () => {
  it('is protected under auto-approve: a write there is denied, one beside it is not', async () => {
    const { f, judge } = judgeWithCacheInside('tools: [write_file]\nconfirmation: {mode: auto-approve}\n');
    const planted = await judge(writes('write_file', '.cache/unattended/code/main-0-run-v20-x64-0.bin')(f));
    expect(planted).toMatchObject({ decision: 'deny' });
    expect(JSON.stringify(planted)).toMatch(/protected|never written/);
    expect(await judge(writes('write_file', '.cache/other-tool/data')(f))).toMatchObject({ decision: 'allow' });
  });

  it("is protected from the shell's writes under an allowlist that allows the command", async () => {
    const { f, judge } = judgeWithCacheInside("tools: [shell]\nconfirmation:\n  mode: allowlist\n  allow:\n    - shell: 'echo *'\n");
    const planted = await judge(shell('echo x > .cache/unattended/code/main-0-run-v20-x64-0.bin')(f));
    expect(planted).toMatchObject({ decision: 'deny' });
    expect(JSON.stringify(planted)).toMatch(/protected/);
    expect(await judge(shell('echo x > notes.txt')(f))).toMatchObject({ decision: 'allow' });
  });
});

// Its state directory names the run a bare --continue takes its recipe, policy and sandbox from.
describe("the runner's state inside the workspace", () => {
  it('is protected: a record planted there is denied', async () => {
    fixture = makeFixture();
    const file = path.join(fixture.tmp, 'recipe.yaml');
    fs.writeFileSync(file, 'version: 1\nname: t\nprompt: go\ntools: [write_file]\nconfirmation: {mode: auto-approve}\n');
    const recipe = loadRecipe(file, { params: {}, overrides: { workspace: fixture.root } });
    const judge = createJudge(recipe, fixture.workspace, path.join(fixture.tmp, 'out'), { HOME: fixture.root });
    const planted = await judge(writes('write_file', '.local/state/unattended/latest-run/0123456789abcdef.json')(fixture));
    expect(planted).toMatchObject({ decision: 'deny' });
    expect(await judge(writes('write_file', '.local/state/other-tool/x')(fixture))).toMatchObject({ decision: 'allow' });
  });
});
