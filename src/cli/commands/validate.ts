// `unattended validate`: every problem of every recipe as file:line:col: message; exit 52 if any.
// A goose recipe's conversion warnings (what a run would ignore) follow on stderr.
import { formatProblem, inspectRecipeFile } from '../../recipe/index.js';
import { ExitCode } from '../../types/outcome.js';

export async function validateCommand(files: string[]): Promise<number> {
  let failed = false;
  for (const file of files) {
    const { problems, warnings } = inspectRecipeFile(file);
    for (const w of warnings) process.stderr.write(`${file}: warning: ${w}\n`);
    if (problems.length === 0) {
      process.stdout.write(`ok ${file}\n`);
      continue;
    }
    failed = true;
    for (const p of problems) process.stderr.write(`${formatProblem(p)}\n`);
  }
  return failed ? ExitCode.badRecipe : ExitCode.success;
}
