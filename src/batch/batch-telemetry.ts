// The batch's trace, when the OTEL_* environment or the recipe's telemetry block asks for export: the SDK is a dynamic import, so a
// batch without telemetry loads none of it. Never throws: telemetry that cannot start is skipped.
import type { BatchTrace } from '../telemetry/batch-spans.js';
import { Redactor } from '../report/redact.js';
import { packageVersion, telemetryFromEnv, type TelemetryDefaults } from '../telemetry/config.js';

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
    return startBatchTrace(config, packageVersion(), recipeName, (text) => redactor.redact(text));
  } catch (error) {
    note(`telemetry: cannot start, the batch goes on without it: ${(error as Error).message}`);
    return null;
  }
}
