// ssh, scp and sftp read option clusters as getopt does: `ssh -vo ProxyCommand=CMD host` runs CMD
// before it connects, as `ssh -o` does. Real ssh shows it; the policy must read the cluster too,
// under `ssh *` and under deny rules.
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

const hasSsh = (() => {
  try {
    execFileSync('ssh', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

it.skipIf(!hasSsh)('real ssh runs the ProxyCommand of a cluster (-vo), with no network', () => {
  const dir = fs.mkdtempSync(path.join(fixture.tmp, 'ssh-'));
  const ran = path.join(dir, 'ran');
  try {
    execFileSync('ssh', ['-F', '/dev/null', '-vo', `ProxyCommand=touch ${ran}`, '-o', 'BatchMode=yes', 'nohost.invalid', 'true'], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    // The connection fails; the command ran before it.
  }
  expect(fs.existsSync(ran)).toBe(true);
});

describe("under 'ssh *', 'scp *' and 'sftp *', clustered options that run a local program are refused", () => {
  const allow = ['shell: ssh *', 'shell: scp *', 'shell: sftp *'];
  it.each([
    ['ssh -vo ProxyCommand=id host', 'ssh -o'],
    ['ssh -4oProxyCommand=id host', 'ssh -o'],
    ['ssh -qF cfg host', 'ssh -F'],
    ['ssh -I ./lib.so host', 'ssh -I'],
    ['scp -vS ./x a.txt h:x', 'scp -S'],
    ['sftp -vD ./x host', 'sftp -D'],
    ["sftp -qb - host <<< '!id'", 'sftp -b'],
  ])('%s', async (command, guard) => {
    const decision = await decide(shell(command)(fixture), fixture.context('allowlist', allow, []));
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toContain(`refused by the ${guard} guard although`);
  });

  it.each(['ssh -v host uptime', 'ssh -i key -p 2222 host ls -la', 'scp -P 2222 -r src h:x', 'sftp -P 22 host'])('%s is allowed', async (command) => {
    const decision = await decide(shell(command)(fixture), fixture.context('allowlist', allow, []));
    expect(decision.decision, decision.reason).toBe('allow');
  });
});

describe('under a deny rule, a clustered ssh option that runs a program is refused as uncheckable', () => {
  it.each([
    ['ssh -vo ProxyCommand=./x host', "'ssh -o ProxyCommand' runs a local command"],
    ['ssh -vI ./lib.so host', "'ssh -I'"],
    ["sftp -b - host <<< '!rm -rf d'", "'sftp -b'"],
  ])('%s', async (command, reason) => {
    const decision = await decide(shell(command)(fixture), fixture.context('auto-approve', [], ['shell: rm *']));
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toContain(reason);
  });

  it('ssh -v -o ConnectTimeout=5 host uptime still runs', async () => {
    const decision = await decide(shell('ssh -v -o ConnectTimeout=5 host uptime')(fixture), fixture.context('auto-approve', [], ['shell: rm *']));
    expect(decision.decision, decision.reason).toBe('allow');
  });
});
