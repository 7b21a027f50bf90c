// Under `- shell: docker *` (or `podman *`), options that are root on the host are refused unless
// the rule spells them out: the container (or another daemon) would have the machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { makeFixture, shell, type Fixture } from './fixture.js';

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

const judge = (command: string, allow = ['shell: docker *', 'shell: podman *', 'shell: docker-compose *', 'shell: podman-compose *']) => decide(shell(command)(fixture), fixture.context('allowlist', allow, []));

describe("under 'docker *', options that are root on the host are refused", () => {
  it.each([
    ['docker run --privileged alpine', 'docker --privileged', 'every capability'],
    ['docker run --rm --privileged=true alpine sh', 'docker --privileged', 'every capability'],
    ['docker exec --privileged c sh', 'docker --privileged', 'every capability'],
    ['docker run --pid=host alpine', 'docker --pid=host', "the host's processes"],
    ['docker run --pid host alpine', 'docker --pid=host', "the host's processes"],
    ['podman run --pid=host alpine', 'podman --pid=host', "the host's processes"],
    ['docker run --userns=host alpine', 'docker --userns=host', 'root in the container is root on the host'],
    ['docker run --ipc=host alpine', 'docker --ipc=host', "the host's /dev/shm"],
    ['podman run --ipc host alpine', 'podman --ipc=host', "the host's /dev/shm"],
    ['docker run --cap-add=SYS_ADMIN alpine', 'docker --cap-add', 'capabilities'],
    ['docker run --cap-add ALL alpine', 'docker --cap-add', 'capabilities'],
    ['docker run --security-opt seccomp=unconfined alpine', 'docker --security-opt', 'confinement'],
    ['docker run --security-opt=apparmor=unconfined alpine', 'docker --security-opt', 'confinement'],
    ['docker run --device /dev/sda alpine', 'docker --device', 'host device'],
    ['docker run --device-cgroup-rule=a alpine', 'docker --device-cgroup-rule', 'host devices'],
    ['docker run --volumes-from x alpine', 'docker --volumes-from', "another container's volumes"],
    ['docker -H unix:///var/run/docker.sock run alpine', 'docker -H', 'another daemon'],
    ['docker -Htcp://10.0.0.1:2375 ps', 'docker -H', 'another daemon'],
    ['docker --host=tcp://10.0.0.1:2375 ps', 'docker --host', 'another daemon'],
    ['docker --log-level debug --host tcp://x ps', 'docker --host', 'another daemon'],
    ['docker --context prod ps', 'docker --context', 'another daemon'],
    ['docker -c prod ps', 'docker -c', 'another daemon'],
    ['docker context use prod', 'docker context use', 'later docker calls'],
    ['podman --url unix:///run/podman/podman.sock ps', 'podman --url', 'another daemon'],
    ['podman --remote ps', 'podman --remote', 'another daemon'],
    ['docker run --mount type=volume,dst=/h,volume-opt=device=/,volume-opt=type=none,volume-opt=o=bind alpine', 'docker --mount volume-opt', 'a host path'],
    ['docker run --mount=type=volume,dst=/h,volume-opt=device=/,volume-opt=o=bind alpine', 'docker --mount volume-opt', 'a host path'],
    // What a compose file says (privileged: true, volumes: - /:/h) no word of the line shows, and the agent can write it.
    ['docker compose up -d', 'docker compose up', 'the compose file'],
    ['docker compose -f ci.yml run --rm app sh', 'docker compose run', 'the compose file'],
    ['podman compose up', 'podman compose up', 'the compose file'],
    // The same file by other programs and subcommands: compose v1, podman's, a swarm stack, a kube pod spec.
    ['docker-compose up -d', 'docker-compose up', 'the compose file'],
    ['docker-compose -f ci.yml run --rm app sh', 'docker-compose run', 'the compose file'],
    ['docker-compose -p web start', 'docker-compose start', 'the compose file'],
    ['podman-compose up', 'podman-compose up', 'the compose file'],
    ['docker stack deploy -c c.yml s', 'docker stack deploy', 'the compose file'],
    ['podman play kube pod.yaml', 'podman play kube', 'the pod spec'],
    ['podman kube play pod.yaml', 'podman kube play', 'the pod spec'],
    ['docker plugin install vieux/sshfs', 'docker plugin install', 'as root'],
    ['docker buildx build --allow security.insecure .', 'docker buildx --allow', 'privileged'],
    ['docker build --allow=security.insecure .', 'docker build --allow', 'privileged'],
  ])('%s', async (command, guard, why) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toContain(`refused by the ${guard} guard although`);
    expect(decision.reason).toContain(why);
  });

  it.each([
    'docker run --rm alpine echo hi',
    'docker run --network=host alpine',
    'docker run --security-opt no-new-privileges alpine',
    'docker run -c 512 alpine',
    'docker run --ipc=shareable alpine',
    'docker run --mount type=volume,src=cache,dst=/cache alpine',
    'docker run --pid=container:web alpine',
    'docker build -t x .',
    'docker ps -a',
    'docker context ls',
    'docker compose ps',
    'docker compose logs web',
    'docker compose config',
    'docker-compose ps',
    'docker-compose config',
    'podman-compose logs web',
    'docker stack ls',
    'podman kube generate web',
    'docker plugin ls',
    'docker buildx build -t x .',
    'podman run --rm alpine true',
  ])('%s: allowed', async (command) => {
    const decision = await judge(command);
    expect(decision.decision, decision.reason).toBe('allow');
  });

  it('unless the rule spells the option out', async () => {
    expect((await judge('docker run --privileged alpine', ['shell: docker run --privileged *'])).decision).toBe('allow');
    expect((await judge('docker -H unix:///var/run/docker.sock ps', ['shell: docker -H unix:///var/run/docker.sock ps'])).decision).toBe('allow');
  });

  it('a DOCKER_HOST assignment before docker stays refused', async () => {
    const decision = await judge('DOCKER_HOST=tcp://10.0.0.1:2375 docker ps');
    expect(decision.decision, decision.reason).toBe('deny');
  });
});
