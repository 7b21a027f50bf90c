// gen_ai.provider.name as the OpenTelemetry GenAI semantic conventions name providers: a backend's
// GenAI views and dashboards filter on those well-known values, and the recipe's `gemini` is not
// one of them (Gemini's API is `gcp.gemini`, Vertex AI's `gcp.vertex_ai`). `openai` and
// `anthropic` are already theirs; any other name (scripted) is kept as it is.

/** `vertex`: GOOGLE_GENAI_USE_VERTEXAI=true, with which the gemini provider calls Vertex AI (providers/vertex.ts). */
export function genAiProviderName(provider: string, vertex: boolean): string {
  if (provider !== 'gemini') return provider;
  return vertex ? 'gcp.vertex_ai' : 'gcp.gemini';
}

/** Whether the gemini provider goes to Vertex AI, as providers/vertex.ts decides it. */
export function usesVertex(env: Record<string, string | undefined>): boolean {
  return env.GOOGLE_GENAI_USE_VERTEXAI?.trim().toLowerCase() === 'true';
}
