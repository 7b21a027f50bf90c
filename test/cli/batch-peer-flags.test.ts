// multi-gitter's users bring its command line to batch (`multi-gitter run ./fix.sh -O acme -B fix -m
// "Fix" -C 4`). Its flags were a bare "Unknown argument" (-O, -B, --skip-pr), or answered as another
// tool's letter: `-m`, its commit message, as run's --model; `-C`, its concurrency, as Codex's
// directory flag (--workspace, which batch does not take either). Each is answered with what does
// the same for a batch.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { runInProcess } from './in-process.js';

let cwd: string;
const run = (command: string) => runInProcess(command, { cwd });

beforeAll(() => {
  cwd = tempDir('unattended-batch-peer-flags-');
  fs.writeFileSync(path.join(cwd, 'r.yaml'), 'version: 1\nname: t\nprompt: x\nconfirmation: {mode: deny}\n');
});
afterAll(() => removeTempDirs());

describe("multi-gitter's flags given to batch", () => {
  it.each([
    ['unattended batch r.yaml -O acme', /^-O: multi-gitter's flag; here that is --org NAME/m],
    ['unattended batch r.yaml --user octocat', /^--user: multi-gitter's flag; here that is --org NAME/m],
    ['unattended batch r.yaml -R acme/api', /^-R: multi-gitter's flag; here that is --targets FILE/m],
    ['unattended batch r.yaml --repo-search topic:go', /^--repo-search: multi-gitter's flag; here that is --search Q/m],
    ['unattended batch r.yaml --targets t.txt -C 4', /^-C: multi-gitter's flag; here that is --concurrency N$/m],
    ['unattended batch r.yaml --targets t.txt -B fix-typos', /^-B: .*git: \{branch: NAME\}$/m],
    ['unattended batch r.yaml --targets t.txt --skip-pr', /^--skip-pr: .*git: \{push: true\}, with no pull_request$/m],
    ['unattended batch r.yaml --targets t.txt -t "Fix typos" --draft', /^-t: .*git: \{pull_request: \{title: …\}\}$\n^--draft: .*git: \{pull_request: \{draft: true\}\}$/m],
    ['unattended batch r.yaml --targets t.txt -o out.txt', /^-o: multi-gitter's flag; here that is --out DIR/m],
  ])('%s is answered with what does it here (exit 42)', async (command, hint) => {
    const r = await run(command);
    expect([r.code, r.requests.length]).toEqual([42, 0]);
    expect(r.stderr).toMatch(hint);
  });

  it("-m is answered as multi-gitter's commit message, naming the recipe's model too; -C never as --workspace", async () => {
    const m = await run('unattended batch r.yaml -O acme -B fix -m "Fix the typos"');
    expect(m.code).toBe(42);
    expect(m.stderr).toMatch(/^-m: multi-gitter's flag; the commit message is the recipe's git section: git: \{commit_message: …\} \(run's -m, --model, is the recipe's model: NAME\)$/m);
    expect(m.stderr).toMatch(/^-O: /m);
    expect(m.stderr).toMatch(/^-B: /m);
    const c = await run('unattended batch r.yaml --targets t.txt -C 4');
    expect(c.stderr).not.toContain('--workspace');
  });

  it("run's own -m and -C keep their answers outside batch", async () => {
    const r = await run('unattended -p x -C sub');
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(/^-C: here the tools work in one directory: --workspace DIR$/m);
    expect(r.stderr).not.toContain('multi-gitter');
  });
});
