// A command given none of the words it works on: where yargs names the positional ("Missing
// required argument: source") its message stands; for a list of them (validate, batch merge) and
// batch's recipe it says "Not enough non-option arguments: got 0, need at least 1", which names
// neither what is missing nor how to give it.
const NEEDS: Record<string, string> = {
  validate: 'validate needs the recipe file(s) to check: unattended validate RECIPE.yaml [MORE.yaml...]',
  batch: 'batch needs the recipe to run on every target: unattended batch RECIPE.yaml --targets FILE (or --org ORG, --topic T, --search Q)',
  'batch merge': "batch merge needs the batch directories to combine (each job's --out): unattended batch merge DIR...",
};

/** What a command given too few positionals needs, in our words; null for any other failure. */
export function missingPositional(message: string, command: string): string | null {
  return message.startsWith('Not enough non-option arguments: got 0,') ? (NEEDS[command] ?? null) : null;
}
