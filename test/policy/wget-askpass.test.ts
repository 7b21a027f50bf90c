// wget starts the program --use-askpass names as soon as it runs (to ask for a user name), and
// so does the wgetrc command use_askpass, given with -e or in a --config file: under
// `- shell: wget *`, `wget --use-askpass=./gradlew URL` ran the repository's script.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { makeFixture, shell, type Fixture } from './fixture.js';

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

const judge = (command: string) => decide(shell(command)(fixture), fixture.context('allowlist', ['shell: wget *'], []));
const hasWget = (() => {
  try {
    execFileSync('wget', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe("under 'wget *', a program wget would start is refused", () => {
  it.skipIf(!hasWget)('wget does start it, before it connects anywhere', () => {
    const marker = path.join(fixture.tmp, 'askpass-ran');
    const program = path.join(fixture.tmp, 'askpass.sh');
    fs.writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\necho x\n`, { mode: 0o755 });
    try {
      execFileSync('wget', ['-q', '-e', `use_askpass=${program}`, '-O', '/dev/null', 'http://127.0.0.1:1/'], { stdio: 'ignore', timeout: 10_000 });
    } catch {
      // Nothing listens at port 1: wget fails after starting the program.
    }
    expect(fs.existsSync(marker)).toBe(true);
  });

  it.each([
    ['wget --use-askpass=./gradlew https://example.test/x', 'wget --use-askpass'],
    ['wget --use-a=./gradlew https://example.test/x', 'wget --use-askpass'],
    ['wget -e use_askpass=./gradlew https://example.test/x', 'wget -e use_askpass'],
    ['wget -qe USE-ASKPASS=./gradlew https://example.test/x', 'wget -e use_askpass'],
    ['wget -euseaskpass=./gradlew https://example.test/x', 'wget -e use_askpass'],
    ["wget --execute 'use_askpass = ./gradlew' https://example.test/x", 'wget -e use_askpass'],
    ['wget --config=wgetrc https://example.test/x', 'wget --config'],
  ])('%s', async (command, guard) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toContain(`refused by the ${guard} guard although 'shell: wget *' matches`);
  });

  it.each(['wget -e robots=off -r https://example.test/', 'wget -q -O out.html https://example.test/', 'wget --no-config -nv https://example.test/'])('%s: allowed', async (command) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('allow');
  });
});
