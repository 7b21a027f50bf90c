// MCP tool results -> the runner's Parts. Text stays text, images and audio become inlineData, and
// everything else becomes a line of text the model can act on, so nothing is silently dropped.
import type { Part } from '../../types/content.js';

/** The content block shapes of MCP's CallToolResult (kept structural: no SDK import at load time). */
export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string; description?: string }
  | { type: string; [key: string]: unknown };

export interface MappedContent {
  /** A plain string when every part is text (what providers handle best), else Parts. */
  llmContent: string | Part[];
  /** Markdown for people: binary data is summarised, never dumped. */
  display: string;
  /** All text, for error messages. */
  text: string;
}

/** Binary resources of these types can be shown to a multimodal model; others become a note. */
const INLINE_MIME = /^(image|audio)\/|^application\/pdf$/;
/**
 * A blob of these types is text in base64 (server-everything's blob resources are text/plain): it
 * reaches the model as the text it is, when it is UTF-8, not as "binary content omitted".
 */
const TEXT_MIME = /^text\/|^application\/(json|[\w.-]+\+json|xml|[\w.-]+\+xml|javascript|x-javascript|ecmascript|yaml|x-yaml|toml|x-sh|sql|graphql|x-ndjson)$/;

export function mapMcpContent(content: readonly McpContentBlock[], structuredContent?: unknown): MappedContent {
  const parts: Part[] = [];
  const display: string[] = [];
  for (const block of content) {
    const mapped = mapBlock(block);
    parts.push(mapped.part);
    display.push(mapped.display);
  }
  // Tools with an output schema may answer with structured content only.
  if (parts.length === 0 && structuredContent !== undefined) {
    const json = JSON.stringify(structuredContent, null, 2);
    parts.push({ text: json });
    display.push('```json\n' + json + '\n```');
  }
  const text = parts.flatMap((p) => (p.text === undefined ? [] : [p.text])).join('\n');
  const allText = parts.every((p) => p.text !== undefined);
  return {
    llmContent: allText ? text : parts,
    display: display.join('\n'),
    text,
  };
}

function mapBlock(block: McpContentBlock): { part: Part; display: string } {
  switch (block.type) {
    case 'text': {
      const text = String((block as { text: unknown }).text ?? '');
      return { part: { text }, display: text };
    }
    case 'image':
    case 'audio': {
      const { data, mimeType } = block as { data: string; mimeType: string };
      return { part: { inlineData: { mimeType, data } }, display: `[${block.type}: ${mimeType}, ${sizeOf(data)}]` };
    }
    case 'resource':
      return mapEmbeddedResource((block as Extract<McpContentBlock, { type: 'resource' }>).resource);
    case 'resource_link': {
      const link = block as Extract<McpContentBlock, { type: 'resource_link' }>;
      const details = [link.mimeType, link.description].filter(Boolean).join(', ');
      const text = `Resource link: ${link.name ?? link.uri} <${link.uri}>${details ? ` (${details})` : ''}`;
      return { part: { text }, display: text };
    }
    default: {
      const text = `[unsupported MCP content type '${block.type}' omitted]`;
      return { part: { text }, display: text };
    }
  }
}

function mapEmbeddedResource(resource: { uri: string; mimeType?: string; text?: string; blob?: string }): {
  part: Part;
  display: string;
} {
  if (typeof resource.text === 'string') {
    return { part: { text: resource.text }, display: `Resource ${resource.uri}:\n${resource.text}` };
  }
  const mimeType = resource.mimeType ?? 'application/octet-stream';
  const blob = resource.blob ?? '';
  const summary = `[resource ${resource.uri}: ${mimeType}, ${sizeOf(blob)}]`;
  const text = TEXT_MIME.test(mimeType.split(';')[0]!.trim().toLowerCase()) ? utf8Text(blob) : null;
  if (text !== null) return { part: { text }, display: `Resource ${resource.uri}:\n${text}` };
  if (INLINE_MIME.test(mimeType)) return { part: { inlineData: { mimeType, data: blob } }, display: summary };
  return { part: { text: `${summary} binary content omitted` }, display: summary };
}

/** The base64 data as UTF-8 text, or null when it is not UTF-8 (a mislabelled binary). */
function utf8Text(base64: string): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(base64, 'base64'));
  } catch {
    return null;
  }
}

/** Decoded size of base64 data, for people. */
function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}
