// Credentials kept where the runner's environment says, not at the home directory's default paths:
// a CI step that sets KUBECONFIG to a file in its temporary directory (azure/k8s-set-context),
// GOOGLE_APPLICATION_CREDENTIALS to a key file (google-github-actions/auth), DOCKER_CONFIG to a
// login's directory, or a user whose XDG_CONFIG_HOME moves ~/.config (gh's hosts.yml with its
// token). The sandbox hid only the home-relative list, so a command read each of these in full.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../helpers/cli.js';
import { bwrapWorks, outsideDir, removeOutsideDirs, runCommands } from './harness.js';

afterAll(removeTempDirs);
afterAll(removeOutsideDirs);

describe.skipIf(!bwrapWorks)('credentials the environment points at', () => {
  it('read as empty inside the sandbox, and stay untouched outside it', async () => {
    const dir = outsideDir();
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    write('kube/config', 'KUBE-SECRET\n');
    write('kube/other', 'KUBE2-SECRET\n');
    write('gcp-key.json', 'GCP-SECRET\n');
    write('docker/config.json', 'DOCKER-SECRET\n');
    write('aws/credentials', 'AWS-SECRET\n');
    write('xdg/gh/hosts.yml', 'GH-SECRET\n');
    write('xdg/unrelated/settings', 'visible\n');
    const env = {
      KUBECONFIG: `${dir}/kube/config:${dir}/kube/other`,
      GOOGLE_APPLICATION_CREDENTIALS: `${dir}/gcp-key.json`,
      DOCKER_CONFIG: `${dir}/docker`,
      AWS_SHARED_CREDENTIALS_FILE: `${dir}/aws/credentials`,
      XDG_CONFIG_HOME: `${dir}/xdg`,
      // "None" said the usual way: /dev/null must stay the device every command writes to.
      NETRC: '/dev/null',
    };
    const files = ['kube/config', 'kube/other', 'gcp-key.json', 'docker/config.json', 'aws/credentials', 'xdg/gh/hosts.yml', 'xdg/unrelated/settings'];
    const run = await runCommands({ env, commands: [`cd ${dir} && for f in ${files.join(' ')}; do echo "$f: $(cat $f 2>&1)"; done; echo x > /dev/null && echo devnull-ok`] });
    expect(run.outputs[0]).not.toMatch(/SECRET/);
    expect(run.outputs[0]).toContain('xdg/unrelated/settings: visible');
    expect(run.outputs[0]).toContain('devnull-ok');
    expect(fs.readFileSync(path.join(dir, 'kube/config'), 'utf8')).toBe('KUBE-SECRET\n');
  });
});
