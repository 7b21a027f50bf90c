// A collector that never answers, met by a run of its own (no batch told it): the end of the run
// waited the whole export timeout for it, however long the run had gone on, since nothing was
// exported before that end. The first answer's spans and metrics now go at once, so a run longer
// than the timeout knows by its end that the collector does not answer, and waits only 250 ms.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';

afterAll(removeTempDirs);

it('a run that goes on past the export timeout does not wait that timeout again at its end', async () => {
  const collector = await startOtlpReceiver();
  onTestFinished(() => collector.close());
  collector.status = 0;
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'ws'));
  const turns = [{ calls: [{ name: 'shell', args: { command: 'sleep 3' } }], usage: { input: 10, output: 2 } }, { text: 'Slept.', usage: { input: 12, output: 2 } }];
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns }));
  const recipe = { version: 1, name: 'slow', prompt: 'Wait.', workspace: 'ws', provider: 'scripted', script: 'turns.yaml', tools: ['shell'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' } };
  fs.writeFileSync(path.join(dir, 'recipe.yaml'), YAML.stringify(recipe));
  const out = path.join(dir, 'out');
  const r = await cli(['run', path.join(dir, 'recipe.yaml'), '--out', out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_TIMEOUT: '2000' } });
  expect(r.code, r.stderr).toBe(0);
  const { report, events } = readRun(out);
  // The export sent after the first answer went unanswered during the 3 s command, and said so.
  expect(report.warnings).toEqual(expect.arrayContaining([`telemetry: export failed: traces to ${collector.url}/v1/traces: Request Timeout`, 'telemetry: export failed: not finished within 250 ms (cut short: the collector did not answer an earlier export); what was not sent is dropped']));
  // From the answer to the run's end: the 250 ms flush, not the 2 s timeout it was.
  const at = (type: string) => Date.parse(events.findLast((e) => e.type === type)!.ts);
  expect(at('run_end') - at('model_response')).toBeLessThan(1_500);
});
