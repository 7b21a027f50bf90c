// Spellings of a denied meaning that a probe of the deny rules found running, each with the rule
// that must refuse it, beside what means less and must still run. Real workspace (fixture.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { makeFixture, shell, type Fixture } from './fixture.js';
import type { PolicySpec } from './policies.js';

const denying = (...deny: string[]): PolicySpec => ({ mode: 'auto-approve', allow: [], deny });

const FORCE_PUSH = denying('shell: git push --force *');

/** [command, policy, the reason it is refused for]. */
const refused: Array<[string, PolicySpec, RegExp]> = [
  // A remote's push refspec and mirror setting say how a later `git push` pushes.
  ['git -c remote.origin.push=+main:main push', FORCE_PUSH, /deny rule 'shell: git push --force \*'.*it runs 'git push origin \+main:main'/],
  ["git -c remote.origin.push='+refs/heads/*:refs/heads/*' push origin", FORCE_PUSH, /deny rule 'shell: git push --force \*'/],
  ['git -c remote.origin.mirror=true push origin', FORCE_PUSH, /it runs 'git push origin --mirror'/],
  ['git -c remote.origin.mirror push', FORCE_PUSH, /it runs 'git push origin --mirror'/],
  ['git -c Remote.Origin.Mirror=yes push', FORCE_PUSH, /it runs 'git push Origin --mirror'/],
  ['git -c alias.p=push -c remote.o.mirror=1 p o', FORCE_PUSH, /it runs 'git push o --mirror'/],
  ['git config remote.origin.push +main:main && git push', FORCE_PUSH, /it runs 'git push origin \+main:main'/],
  ['git config remote.origin.mirror true', FORCE_PUSH, /it runs 'git push origin --mirror'/],
  ['git config set remote.origin.mirror on', FORCE_PUSH, /it runs 'git push origin --mirror'/],
  ['git remote add --mirror=push backup https://example.org/x.git', FORCE_PUSH, /it runs 'git push backup --mirror'/],
  ['git remote add --mirror backup https://example.org/x.git', FORCE_PUSH, /it runs 'git push backup --mirror'/],
  ['git --config-env=remote.origin.push=REFSPEC push', FORCE_PUSH, /from the environment \(--config-env\), which cannot be checked/],
];

/** What means less than the rule: it runs. */
const allowed: Array<[string, PolicySpec]> = [
  ['git -c remote.origin.push=main:main push', FORCE_PUSH],
  ['git -c remote.origin.mirror=false push origin', FORCE_PUSH],
  ['git config remote.origin.push refs/heads/main', FORCE_PUSH],
  ['git config --get remote.origin.mirror', FORCE_PUSH],
  ['git remote add backup https://example.org/x.git', FORCE_PUSH],
  ['git remote add --mirror=fetch backup https://example.org/x.git', FORCE_PUSH],
];

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

async function decision(command: string, policy: PolicySpec) {
  return decide(shell(command)(fixture), fixture.context(policy.mode, policy.allow, policy.deny));
}

describe('a denied meaning in a spelling a probe found', () => {
  it.each(refused)('%j is refused', async (command, policy, reason) => {
    const result = await decision(command, policy);
    expect(result.decision).toBe('deny');
    expect(result.reason).toMatch(reason);
  });

  it.each(allowed)('%j, which means less, runs', async (command, policy) => {
    expect(await decision(command, policy)).toMatchObject({ decision: 'allow' });
  });
});
