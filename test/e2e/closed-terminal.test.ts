// A run whose standard streams are a terminal that goes away (a terminal window closed, an ssh
// session dropped). Node (20), exiting, puts each stream that was a terminal back as it found it,
// and aborts when the terminal hung up (its ResetStdio asserts tcsetattr never fails with EIO):
// a run that had written its report `cancelled` and meant to exit 129 died of SIGABRT, with a
// native stack trace, as did a run that went on without the terminal and ended success. A real
// pseudo-terminal (Python's pty module), closed by its master side.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

// Starts argv on a new pseudo-terminal (stdin, stdout and stderr), as its controlling terminal
// when asked (a closed master then sends it SIGHUP), waits for its first output, closes the master
// after `close_after` seconds, and prints how the process ended: its exit code, or -N for signal N.
const DRIVER = `import fcntl, json, os, pty, subprocess, sys, termios, time
argv, controlling, close_after = json.loads(sys.argv[1]), sys.argv[2] == 'ctty', float(sys.argv[3])
master, slave = pty.openpty()
def take_terminal():
    if controlling: fcntl.ioctl(0, termios.TIOCSCTTY, 0)
p = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True, preexec_fn=take_terminal)
os.close(slave)
os.read(master, 1)
time.sleep(close_after)
os.close(master)
print(p.wait(timeout=60))
`;

async function runOnTerminal(controlling: boolean) {
  const root = tempDir('unattended-closed-terminal-');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(root, 'driver.py'), DRIVER);
  // The command outlives the terminal: 3 s, the master closed after about 1 s.
  fs.writeFileSync(path.join(root, 'turns.yaml'), 'turns:\n  - calls:\n      - name: shell\n        args: { command: "sleep 3; echo slept > slept.txt" }\n  - text: Done.\n');
  const out = path.join(root, 'out');
  const argv = [process.execPath, CLI, 'run', '--prompt', 'x', '--provider', 'scripted', '--script', path.join(root, 'turns.yaml'), '--approval', 'auto-approve', '--workspace', ws, '--out', out];
  const r = await execa('python3', [path.join(root, 'driver.py'), JSON.stringify(argv), controlling ? 'ctty' : 'none', '1'], { env: baseEnv(), extendEnv: false, reject: false, stdin: 'ignore', timeout: 90_000 });
  return { code: Number(String(r.stdout).trim()), driver: r, out, ws };
}

describe('a terminal that closes under a run', () => {
  it('its SIGHUP: the run ends cancelled with exit 129, as its report says, not killed by SIGABRT', async () => {
    const { code, driver, out } = await runOnTerminal(true);
    expect(code, String(driver.stderr)).toBe(129);
    const { report, events } = readRun(out);
    expect(report).toMatchObject({ status: 'cancelled', exit_code: 129, error: 'cancelled by SIGHUP' });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', exit_code: 129 });
  }, 120_000);

  it('a run that is not told (its own session) goes on to success and exits 0, not SIGABRT', async () => {
    const { code, driver, out, ws } = await runOnTerminal(false);
    expect(code, String(driver.stderr)).toBe(0);
    expect(fs.readFileSync(path.join(ws, 'slept.txt'), 'utf8')).toBe('slept\n');
    expect(readRun(out).report).toMatchObject({ status: 'success', exit_code: 0, final_answer: 'Done.' });
  }, 120_000);
});
