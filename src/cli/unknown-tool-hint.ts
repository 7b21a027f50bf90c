// What `policy check --tool NAME` says about a name the recipe's tools do not have: the same hint
// --tools, --allow/--deny and validate give (a peer's name, a peer's rule, a typo), so a user
// coming from Claude Code who checks `--tool Bash` learns the name here is `shell`.
import { closest, peerToolNameHint } from '../recipe/index.js';
import { isBuiltinToolName } from '../tools/names.js';

export function unknownToolHint(name: string, offered: readonly string[]): string | null {
  // `--tool 'Bash(git log:*)'`: a peer's rule where a tool's name goes; its arguments go in --args.
  const rule = /^([A-Za-z_]+)\(([\s\S]*)\)$/.exec(name);
  if (rule) {
    const tool = peerToolNameHint(rule[1]!);
    return `--tool takes a tool's name, and --args the call's arguments${tool ? `; '${rule[1]}': ${tool}` : ''}`;
  }
  if (isBuiltinToolName(name)) return `a built-in tool this recipe does not offer the model: add it to the recipe's tools to check its calls`;
  const peer = peerToolNameHint(name);
  if (peer) return peer;
  const near = closest(name, offered);
  return near !== null && near !== name ? `did you mean '${near}'?` : null;
}
