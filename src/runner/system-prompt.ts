// The fixed part of every request. Short on purpose: it is sent (and paid for) on every turn.
export function systemInstruction(workspace: string, recipeInstructions: string | null): string {
  const base =
    `You are a coding agent running unattended in the workspace ${workspace}. ` +
    'Nobody can answer questions: decide, act with the tools, and end with a short summary of what you did. ' +
    'Use absolute paths inside the workspace. A policy may deny a call: do not repeat a denied call; ' +
    'work around it or explain. Make minimal, correct changes.';
  return recipeInstructions ? `${base}\n\n${recipeInstructions.trim()}` : base;
}
