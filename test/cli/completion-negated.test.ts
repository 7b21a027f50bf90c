// Shell completion of run's on/off flags: they are used, documented and refused as given twice in
// their --no- form (--no-stream, --no-context, --no-stdin), but completion offered --stream,
// --context and --stdin, which change nothing (each is on already), and never the --no- forms:
// `unattended -p x --no-<TAB>` completed nothing.
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const complete = async (...words: string[]) => (await cli(['--get-yargs-completions', 'unattended', ...words])).stdout.split('\n');

describe("completion of run's on/off flags", () => {
  it('offers --no-stream, --no-context and --no-stdin, with and without `run`', async () => {
    for (const words of [['-p', 'fix it', '--'], ['run', '--']]) {
      const offered = await complete(...words);
      expect(offered).toEqual(expect.arrayContaining(['--no-stream', '--no-context', '--no-stdin']));
      expect(offered.filter((w) => ['--stream', '--context', '--stdin'].includes(w))).toEqual([]);
    }
  });

  it("and the --no- form typed so far completes to them (the shell filters what is offered by what was typed)", async () => {
    const offered = await complete('-p', 'fix it', '--no-');
    expect(offered.filter((w) => w.startsWith('--no-')).sort()).toEqual(['--no-context', '--no-stdin', '--no-stream']);
  });
});
