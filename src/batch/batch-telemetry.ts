// The batch's trace, when the OTEL_* environment or the recipe's telemetry block asks for export: the SDK is a dynamic import, so a
// batch without telemetry loads none of it. Never throws: telemetry that cannot start is skipped.
import type { BatchTrace } from '../telemetry/batch-spans.js';
import { Redactor } from '../report/redact.js';
import { packageVersion, telemetryFromEnv, type TelemetryDefaults } from '../telemetry/config.js';

/** Why the batch's trace is not sampled: the parent's flags, or a sampler the SDK reads from the environment. */
function notSampled(traceparent: string | null, env: NodeJS.ProcessEnv): string {
  if (traceparent) return `TRACEPARENT=${traceparent.slice(0, 80)} is not sampled (trace flags ${traceparent.trim().split('-')[3] ?? ''}, not 01)`;
  return `the batch's trace is not sampled (OTEL_TRACES_SAMPLER=${(env.OTEL_TRACES_SAMPLER ?? '').trim().slice(0, 40)})`;
}

/** `recipe`: the recipe's telemetry block, which turns export on for its runs, so for the batch too. */
export async function startBatchTelemetry(env: NodeJS.ProcessEnv, recipeName: string, note: (message: string) => void, recipe: TelemetryDefaults | null = null): Promise<BatchTrace | null> {
  const config = telemetryFromEnv(env, recipe);
  if (!config) return null;
  // Said even when no trace is left to export: an endpoint written wrong leaves none, and the batch's own output is where a fleet's owner looks.
  for (const warning of config.warnings) note(warning);
  if (!config.tracesUrl) return null;
  try {
    const { startBatchTrace } = await import('../telemetry/batch-spans.js');
    const redactor = Redactor.fromEnv(env);
    const batchTrace = startBatchTrace(config, packageVersion(), recipeName, (text) => redactor.redact(text));
    // A pipeline that sampled its trace out: the runs follow it (their TRACEPARENT carries the flags),
    // so no span of the fleet reaches the collector. Said here, where a fleet's owner looks, as a run says it.
    if (!batchTrace.sampled) note(`telemetry: ${notSampled(config.traceparent, env)}: the batch's spans and its runs'${config.traceparent ? " follow the pipeline's decision and" : ''} are not exported${config.metricsUrl ? "; the runs' metrics are" : ''}`);
    return batchTrace;
  } catch (error) {
    note(`telemetry: cannot start, the batch goes on without it: ${(error as Error).message}`);
    return null;
  }
}
