// A flag given a value outside its choices, told as the recipe's checks tell the same mistake:
// yargs says "Invalid values: Argument: provider, Given: "claude", Choices: …", with nothing on
// what was meant; `provider: claude` in a recipe gets "Claude models are provider anthropic".
import { providerHint } from '../recipe/provider-hint.js';
import { didYouMean } from '../recipe/suggest.js';
import { peerValueHint } from '../recipe/peer-values.js';

const ARGUMENT = /^\s*Argument: ([\w-]+), Given: (.*), Choices: (.*)$/;
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;
/** Names of JSON lines (Codex's --json writes them; jq users call them jsonl or ndjson). */
const JSON_LINES = /^(jsonl|ndjson|json[-_]?lines|jsonstream|json[-_]stream|events)$/i;

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
      const setting = flag === 'approval' || flag === 'sandbox' ? flag : null;
      // `--sandbox` with no value, as Gemini CLI's switch is written: yargs gives it as a bare true.
      const bare = setting && wrong.length === 0 && given === 'true' ? peerValueHint(setting, 'true', 'flag') : null;
      if (bare) return `--${flag} needs a value, one of ${allowed.join(', ')}: ${bare}`;
      const peer = setting && wrong.length === 1 ? peerValueHint(setting, wrong[0]!, 'flag') : null;
      if (peer) return `--${flag} must be one of ${allowed.join(', ')} (got ${got}): ${peer}`;
      // JSON lines is stream-json here: "did you mean 'json'?" led to one report at the end instead.
      if (flag === 'output-format' && allowed.includes('stream-json') && wrong.length === 1 && JSON_LINES.test(wrong[0]!)) return `--${flag} must be one of ${allowed.join(', ')} (got ${got}): JSON lines, an event a line as it happens, is --output-format stream-json here (json prints the report once, at the end)`;
      const hint = wrong.length === 1 ? (flag === 'provider' ? providerHint(wrong[0]!, allowed, '--base-url') : didYouMean(wrong[0]!, allowed).replace(/^ \((.*)\)$/, ': $1')) : '';
      return `--${flag} must be one of ${allowed.join(', ')} (got ${got || given})${hint}`;
    })
    .join('\n');
}

function words(list: string): string[] {
  return [...list.matchAll(QUOTED)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}
