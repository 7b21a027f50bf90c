// What `unattended policy check` says the sandbox adds to one call: the policy decides whether it
// runs; this says whether its process would be contained, by what, and with which network.
import type { Recipe } from '../recipe/types.js';
import { detectSandbox, type Detection } from './detect.js';

export interface SandboxForCall {
  mode: Recipe['sandbox']['mode'];
  /** The mechanism this machine would use, or null (then `reason` says why). */
  kind: 'bwrap' | 'seatbelt' | null;
  reason: string | null;
  /** Whether this tool starts a process the sandbox contains (file tools are confined in-process). */
  contained: boolean;
  network: boolean | string[];
  /** What a contained process may write. */
  writable: string[];
}

export function sandboxForCall(recipe: Recipe, tool: string, workspace: string, detect: () => Detection = () => detectSandbox(workspace)): SandboxForCall {
  const { mode, network, writable } = recipe.sandbox;
  const found: Detection = mode === 'off' ? { kind: null, reason: 'sandbox.mode is off' } : detect();
  const kind = found.kind;
  const runsProcess = startsProcess(recipe, tool);
  return {
    mode,
    kind,
    reason: found.kind === null ? found.reason : null,
    contained: runsProcess && kind !== null,
    network: kind === null ? true : network,
    writable: kind === null ? [] : [workspace, '/tmp (private)', ...writable],
  };
}

function startsProcess(recipe: Recipe, tool: string): boolean {
  if (tool === 'shell') return true;
  const split = tool.indexOf('__');
  if (split > 0) {
    const server = recipe.mcpServers.find((s) => s.alias === tool.slice(0, split));
    if (server) return server.command !== null && server.sandbox === true;
  }
  // Any other name that is not a built-in comes from tool discovery, whose calls run a command.
  return recipe.toolDiscovery !== null && !recipe.tools.includes(tool);
}
