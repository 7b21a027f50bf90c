// A recipe keeps recorded turns beside its live provider and `--provider scripted` replays them
// (README: Recipes, `script`; --record writes them from a live run "so a live run can be replayed
// offline"). A recipe with limits.max_cost_usd could not be replayed at all: the replay was priced
// as the scripted provider's nameless model 'scripted', which has no price, so every replay ended
// exit 52 "limits.max_cost_usd needs the price of model 'scripted' … add pricing: to the recipe",
// though the recipe's own model has one. A replay is priced as the live model it stands in for, so
// it costs what the live run did and its budget stops it where the live run stopped.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js';

afterAll(removeTempDirs);

let anthropic: FakeAnthropic | undefined;
afterEach(async () => {
  await anthropic?.close();
  anthropic = undefined;
});

describe('--provider scripted replays a recipe that has a budget in dollars', () => {
  it('a live run stopped by max_cost_usd, recorded, replays offline to the same stop, turn and cost', async () => {
    const ws = await fixtureWorkspace('rename');
    const call = (i: number) => ({ toolCalls: [{ id: `toolu_${i}`, name: 'ls', input: { path: '.' } }], usage: { input_tokens: 100_000, output_tokens: 1000 } });
    anthropic = await startFakeAnthropic([call(1), call(2), call(3), call(4), { text: 'never reached' }]);
    const dir = tempDir();
    const file = path.join(dir, 'recipe.yaml');
    fs.writeFileSync(
      file,
      `version: 1\nconfirmation: { mode: auto-approve }\nprovider: anthropic\nmodel: claude-sonnet-4-5\nprompt: List files\nworkspace: ${ws}\nlimits: { max_cost_usd: 0.7 }\n`,
    );
    const live = await cliInProcess(['run', file, '--out', path.join(dir, 'live'), '--record', path.join(dir, 'turns.jsonl')], {
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: anthropic.url },
    });
    expect(live.code, live.stderr).toBe(55);
    const liveReport = readRun(path.join(dir, 'live')).report;

    // The built CLI, with no key and nothing listening: the replay sends nothing anywhere.
    const replay = await cli(['run', file, '--provider', 'scripted', '--script', path.join(dir, 'turns.jsonl'), '--out', path.join(dir, 'replay')], { env: {} });
    expect(replay.stderr).not.toMatch(/needs the price/);
    expect(replay.code, replay.stderr).toBe(55);
    const { report } = readRun(path.join(dir, 'replay'));
    expect([report.status, report.limit, report.turns]).toEqual([liveReport.status, liveReport.limit, liveReport.turns]);
    expect(report.usage.cost_usd).toBeCloseTo(liveReport.usage.cost_usd, 9);
  });

  it('a recipe for an OpenAI model with its turns beside it replays and is priced as that model', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'turns.yaml'), 'turns:\n  - text: Replayed.\n    usage: { input: 1000, output: 100 }\n');
    const file = path.join(dir, 'ask.yaml');
    fs.writeFileSync(file, 'version: 1\nprompt: Say done.\nprovider: openai\nmodel: gpt-4o\nscript: turns.yaml\nworkspace: .\nconfirmation: { mode: deny }\nlimits: { max_cost_usd: 1 }\n');
    const r = await cliInProcess(['run', file, '--provider', 'scripted', '--out', path.join(dir, 'replay')], { cwd: dir, env: {} });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'Replayed.', expect.not.stringMatching(/needs the price/)]);
    expect(readRun(path.join(dir, 'replay')).report.usage.cost_usd).toBeGreaterThan(0);
  });

  it('--model on a replay names the live model: priced as it, not refused as one the table lacks', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'turns.yaml'), 'turns:\n  - text: Replayed.\n    usage: { input: 1000, output: 100 }\n');
    const file = path.join(dir, 'demo.yaml');
    fs.writeFileSync(file, 'version: 1\nprompt: Say done.\nprovider: scripted\nscript: turns.yaml\nworkspace: .\nconfirmation: { mode: deny }\nlimits: { max_cost_usd: 1 }\n');
    const r = await cliInProcess(['run', file, '--provider', 'scripted', '--model', 'gpt-4o', '--out', path.join(dir, 'run')], { cwd: dir, env: {} });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'Replayed.', expect.not.stringMatching(/price/)]);
    const gpt4o = readRun(path.join(dir, 'run')).report.usage.cost_usd;
    expect(gpt4o).toBeGreaterThan(0);
    // Another model of the table costs what that one does.
    const mini = await cliInProcess(['run', file, '--provider', 'scripted', '--model', 'gpt-4o-mini', '--out', path.join(dir, 'mini')], { cwd: dir, env: {} });
    expect(mini.code, mini.stderr).toBe(0);
    expect(readRun(path.join(dir, 'mini')).report.usage.cost_usd).toBeLessThan(gpt4o);
  });

  it('a scripted run that stands in for no live model still refuses a budget it cannot price', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'turns.yaml'), 'turns:\n  - text: Replayed.\n    usage: { input: 1000, output: 100 }\n');
    const file = path.join(dir, 'demo.yaml');
    fs.writeFileSync(file, 'version: 1\nprompt: Say done.\nprovider: scripted\nscript: turns.yaml\nworkspace: .\nconfirmation: { mode: deny }\nlimits: { max_cost_usd: 1 }\n');
    const r = await cliInProcess(['run', file, '--out', path.join(dir, 'run')], { cwd: dir, env: {} });
    expect(r.code).toBe(52);
    expect(r.stderr).toMatch(/limits\.max_cost_usd needs the price of model 'scripted'.*add pricing:/);
  });
});
