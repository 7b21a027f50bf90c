// The values the peers give a setting we share (Codex's sandbox `workspace-write`, the approval
// modes of Gemini CLI, Claude Code, Codex and Qwen Code) and what does that here, said for where it
// was written: a flag (`--approval yolo`), a recipe's key (`confirmation: {mode: yolo}`) or an
// input of the GitHub Action (`approval: yolo`), each told what to write in the same place.

export type Written = 'flag' | 'recipe' | 'input';
type Said = Record<Written, string>;

const AUTO: Said = { flag: 'here that is --approval auto-approve', recipe: 'here that is `mode: auto-approve`', input: 'here that is `approval: auto-approve`' };
const EDITS: Said = {
  flag: 'here edits without asking are an allow rule: --approval allowlist --allow edit --allow write_file',
  recipe: 'here edits without asking are allow rules: `mode: allowlist` with `allow: [edit, write_file]`',
  input: 'here edits without asking are allow rules: `approval: allowlist` with the lines edit and write_file in the `allow` input',
};
const ASKS: Said = {
  flag: 'that mode asks the person at the keyboard, and nobody is here: --approval allowlist approves what --allow rules name, --approval deny refuses every call that would ask',
  recipe: 'that mode asks the person at the keyboard, and nobody is here: `mode: allowlist` approves what the allow rules name, `mode: deny` refuses every call that would ask',
  input: 'that mode asks the person at the keyboard, and nobody is here: `approval: allowlist` approves what the `allow` input names, `approval: deny` refuses every call that would ask',
};
const SANDBOX_ON: Said = {
  flag: 'here the sandbox (bwrap on Linux, seatbelt on macOS) is on by default: --sandbox auto, or required to refuse to run without one',
  recipe: 'here the sandbox (bwrap on Linux, seatbelt on macOS) is on by default: `mode: auto`, or required to refuse to run without one',
  input: 'here the sandbox (bwrap on Linux, seatbelt on macOS) is on by default: `sandbox: auto`, or required to refuse to run without one',
};

const VALUES: Record<'approval' | 'sandbox', Record<string, Said>> = {
  sandbox: {
    'workspace-write': {
      flag: "Codex's sandbox mode; here the sandbox lets tools write the workspace alone: --sandbox auto (required: refuse to run without one)",
      recipe: "Codex's sandbox mode; here the sandbox lets tools write the workspace alone: `mode: auto` (required: refuse to run without one)",
      input: "Codex's sandbox mode; here the sandbox lets tools write the workspace alone: `sandbox: auto` (required: refuse to run without one)",
    },
    'danger-full-access': {
      flag: "Codex's sandbox mode; here that is --sandbox off",
      recipe: "Codex's sandbox mode; here that is `mode: off`",
      input: "Codex's sandbox mode; here that is `sandbox: off`",
    },
    'read-only': {
      flag: "Codex's sandbox mode; here read-only is the policy's: --approval deny (read-only tools run, edits and commands are denied)",
      recipe: "Codex's sandbox mode; here read-only is the policy's: `confirmation: {mode: deny}` (read-only tools run, edits and commands are denied)",
      input: "Codex's sandbox mode; here read-only is the policy's: `approval: deny` (read-only tools run, edits and commands are denied)",
    },
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
    auto: AUTO,
    never: {
      flag: 'Codex asks nobody and runs every call; here that is --approval auto-approve (or allowlist with --allow rules)',
      recipe: 'Codex asks nobody and runs every call; here that is `mode: auto-approve` (or allowlist with allow rules)',
      input: 'Codex asks nobody and runs every call; here that is `approval: auto-approve` (or allowlist with the `allow` input)',
    },
    auto_edit: EDITS,
    acceptEdits: EDITS,
    'auto-edit': EDITS,
    // Codex's modes that ask the person at the keyboard, and the peers' default (ask): nobody is here.
    untrusted: ASKS,
    'on-request': ASKS,
    'on-failure': ASKS,
    default: ASKS,
    dontAsk: {
      flag: "Claude Code's dontAsk refuses what its allow rules do not name; here that is --approval allowlist with --allow rules",
      recipe: "Claude Code's dontAsk refuses what its allow rules do not name; here that is `mode: allowlist` with allow rules",
      input: "Claude Code's dontAsk refuses what its allow rules do not name; here that is `approval: allowlist` with the `allow` input",
    },
    plan: {
      flag: "here plan mode is a recipe's `mode: plan` (read-only tools until the model calls exit_plan_mode); --approval deny keeps a run read-only",
      recipe: 'here plan mode is the top-level `mode: plan` (read-only tools until the model calls exit_plan_mode), beside a confirmation mode; `mode: deny` keeps a run read-only',
      input: "here plan mode is a recipe's `mode: plan` (read-only tools until the model calls exit_plan_mode); `approval: deny` keeps a run read-only",
    },
  },
};

/** What does `value` of a peer's here, for the approval mode or the sandbox mode; null for no peer's value. */
export function peerValueHint(setting: 'approval' | 'sandbox', value: string, written: Written): string | null {
  const said = VALUES[setting];
  // Own keys only: `--sandbox constructor` is no peer's value.
  return Object.hasOwn(said, value) ? said[value]![written] : null;
}
