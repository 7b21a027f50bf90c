// The Gemini request body, assembled as text from pieces that were each encoded once.
//
// Every turn resends the whole history. The SDK (`models.generateContentStream`) converts every
// entry of it again on each request (a generic path-by-path copy, `getValueByPath`/`partToMldev`),
// then JSON-encodes the lot: work that grows with the history, for bytes that did not change.
// Here each history entry becomes its JSON text once (the loop never changes an entry in place: a
// pruned one is a new object, so the cache is keyed by identity), the system instruction and the
// tool declarations likewise, and a request's bytes are the last request's up to the first entry
// that changed, then the texts of the entries after it (list-body.ts).
//
// The stable parts lead (system instruction, tools, generation config, then the turns), so the
// bytes a provider can cache as a prefix are as long as possible even when compared raw.
import type { Content as GContent } from '@google/genai/web';
import type { Content, FunctionDeclaration } from '../types/content.js';
import { toGeminiPart } from './gemini-mapping.js';
import type { ChunkedBody, ListBody } from './list-body.js';
import type { ModelRequest } from './provider.js';

const entryJson = new WeakMap<Content, string>();

/** One history entry as the API's JSON text, encoded on first use. */
export function contentJson(content: Content): string {
  let json = entryJson.get(content);
  if (json === undefined) {
    const wire: GContent = { role: content.role, parts: content.parts.map(toGeminiPart) };
    json = JSON.stringify(wire);
    entryJson.set(content, json);
  }
  return json;
}

const toolsJson = new WeakMap<FunctionDeclaration[], string>();
let lastSystem: { text: string; json: string } | null = null;

export interface GeminiBodyOptions {
  /** The tool declarations as the API takes them (gemini.ts geminiTools), built once per array. */
  tools: (declarations: FunctionDeclaration[]) => unknown;
  maxOutputTokens: number | null;
}

/** The bytes of a generateContent / streamGenerateContent request, from the last ones `body` built. */
export function geminiRequestBody(request: ModelRequest, options: GeminiBodyOptions, body: ListBody<Content>): ChunkedBody {
  const fields: string[] = [];
  if (request.systemInstruction) fields.push(`"systemInstruction":${systemJson(request.systemInstruction)}`);
  if (request.tools.length > 0) {
    let tools = toolsJson.get(request.tools);
    if (tools === undefined) {
      tools = JSON.stringify(options.tools(request.tools));
      toolsJson.set(request.tools, tools);
    }
    fields.push(`"tools":${tools}`);
  }
  if (options.maxOutputTokens !== null) fields.push(`"generationConfig":{"maxOutputTokens":${options.maxOutputTokens}}`);
  fields.push('"contents":[');
  return body.next(`{${fields.join(',')}`, request.contents);
}

function systemJson(text: string): string {
  if (lastSystem?.text !== text) lastSystem = { text, json: JSON.stringify({ parts: [{ text }] }) };
  return lastSystem.json;
}
