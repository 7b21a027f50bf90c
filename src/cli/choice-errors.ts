// A flag given a value outside its choices, told as the recipe's checks tell the same mistake:
// yargs says "Invalid values: Argument: provider, Given: "claude", Choices: …", with nothing on
// what was meant; `provider: claude` in a recipe gets "Claude models are provider anthropic".
import { providerHint } from '../recipe/provider-hint.js';
import { didYouMean } from '../recipe/suggest.js';

/**
 * The values the peers give a flag of the same name (Codex's `--sandbox workspace-write`) or their
 * approval modes (Gemini CLI's `yolo`, Claude Code's `bypassPermissions`, Codex's `never`), and
 * what does that here.
 */
const AUTO = 'here that is --approval auto-approve';
const ASKS = 'that mode asks the person at the keyboard, and nobody is here: --approval allowlist approves what --allow rules name, --approval deny refuses every call that would ask';
const SANDBOX_ON = 'here the sandbox (bwrap on Linux, seatbelt on macOS) is on by default: --sandbox auto, or required to refuse to run without one';
const PEER_VALUES: Record<string, Record<string, string>> = {
  sandbox: {
    'workspace-write': "Codex's sandbox mode; here the sandbox lets tools write the workspace alone: --sandbox auto (required: refuse to run without one)",
    'danger-full-access': "Codex's sandbox mode; here that is --sandbox off",
    'read-only': "Codex's sandbox mode; here read-only is the policy's: --approval deny (read-only tools run, edits and commands are denied)",
    // Gemini CLI's --sandbox is a switch, its kind docker, podman or sandbox-exec.
    true: SANDBOX_ON,
    docker: SANDBOX_ON,
    podman: SANDBOX_ON,
    'sandbox-exec': SANDBOX_ON,
  },
  approval: {
    yolo: AUTO,
    bypassPermissions: AUTO,
    'full-auto': AUTO,
    never: 'Codex asks nobody and runs every call; here that is --approval auto-approve (or allowlist with --allow rules)',
    auto_edit: "here edits without asking are an allow rule: --approval allowlist --allow edit --allow write_file",
    acceptEdits: "here edits without asking are an allow rule: --approval allowlist --allow edit --allow write_file",
    'auto-edit': "here edits without asking are an allow rule: --approval allowlist --allow edit --allow write_file",
    auto: AUTO,
    // Codex's modes that ask the person at the keyboard, and the peers' default (ask): nobody is here.
    untrusted: ASKS,
    'on-request': ASKS,
    'on-failure': ASKS,
    default: ASKS,
    dontAsk: "Claude Code's dontAsk refuses what its allow rules do not name; here that is --approval allowlist with --allow rules",
    plan: "here plan mode is a recipe's `mode: plan` (read-only tools until the model calls exit_plan_mode); --approval deny keeps a run read-only",
  },
};

const ARGUMENT = /^\s*Argument: ([\w-]+), Given: (.*), Choices: (.*)$/;
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;

/** yargs' message for values outside their choices in our words; any other message as it is. */
export function choicesInOurWords(message: string): string {
  if (!message.startsWith('Invalid values:')) return message;
  const lines = message.split('\n').slice(1).map((line) => ARGUMENT.exec(line));
  if (lines.length === 0 || lines.some((m) => m === null)) return message;
  return lines
    .map((m) => {
      const [, flag, given, choices] = m!;
      const allowed = words(choices!);
      const wrong = words(given!).filter((value) => !allowed.includes(value));
      const got = wrong.map((value) => JSON.stringify(value)).join(', ');
      const peers = PEER_VALUES[flag!];
      // `--sandbox` with no value, as Gemini CLI's switch is written: yargs gives it as a bare true.
      if (wrong.length === 0 && given === 'true' && peers && Object.hasOwn(peers, 'true')) return `--${flag} needs a value, one of ${allowed.join(', ')}: ${peers.true}`;
      // Own keys only: `--sandbox constructor` is no peer's value.
      if (wrong.length === 1 && peers && Object.hasOwn(peers, wrong[0]!)) return `--${flag} must be one of ${allowed.join(', ')} (got ${got}): ${peers[wrong[0]!]}`;
      const hint = wrong.length === 1 ? (flag === 'provider' ? providerHint(wrong[0]!, allowed, '--base-url') : didYouMean(wrong[0]!, allowed).replace(/^ \((.*)\)$/, ': $1')) : '';
      return `--${flag} must be one of ${allowed.join(', ')} (got ${got || given})${hint}`;
    })
    .join('\n');
}

function words(list: string): string[] {
  return [...list.matchAll(QUOTED)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}
