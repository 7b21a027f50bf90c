// MCP tool results -> the runner's Parts. Text stays text, images and audio become inlineData, and
// everything else becomes a line of text the model can act on, so nothing is silently dropped.
import type { Part } from '../../types/content.js';
import { imageTypeOfBase64, SENDABLE_IMAGE_TYPES } from '../../util/image-type.js';

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
    // The result comes unchecked (client.ts callTool): a block is read only as far as it holds.
    const mapped = isObject(block) ? mapBlock(block) : unsupported(typeof block === 'string' ? 'a bare string' : String(block));
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
    case 'image': {
      const { data, mimeType } = block as { data: string; mimeType: string };
      return mapImage(String(mimeType ?? ''), String(data ?? ''), null);
    }
    case 'audio': {
      const { data, mimeType } = block as { data: unknown; mimeType: unknown };
      if (typeof data !== 'string' || typeof mimeType !== 'string') return unsupported('audio without its data and type');
      return { part: { inlineData: { mimeType, data } }, display: `[${block.type}: ${mimeType}, ${sizeOf(data)}]` };
    }
    case 'resource': {
      const resource: unknown = (block as { resource?: unknown }).resource;
      return isObject(resource) && typeof resource.uri === 'string' ? mapEmbeddedResource(resource as { uri: string }) : unsupported('resource without a uri');
    }
    case 'resource_link': {
      const link = block as Extract<McpContentBlock, { type: 'resource_link' }>;
      const details = [link.mimeType, link.description].filter(Boolean).join(', ');
      const text = `Resource link: ${link.name ?? link.uri} <${link.uri}>${details ? ` (${details})` : ''}`;
      return { part: { text }, display: text };
    }
    default:
      return unsupported(`type '${String(block.type)}'`);
  }
}

function unsupported(what: string): { part: Part; display: string } {
  const text = `[unsupported MCP content ${what} omitted]`;
  return { part: { text }, display: text };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  if (/^image\//i.test(mimeType)) return mapImage(mimeType, blob, resource.uri);
  if (INLINE_MIME.test(mimeType)) return { part: { inlineData: { mimeType, data: blob } }, display: summary };
  return { part: { text: `${summary} binary content omitted` }, display: summary };
}

/**
 * An image is sent as the type its bytes say, whatever type the server named: servers label a PNG
 * as JPEG (Figma's), write `image/jpg`, or send a data URL where base64 belongs. An SVG is sent as
 * the text it is (as read_file reads one); anything else no provider takes (BMP, TIFF, bytes that
 * are no image) is named, not sent, since the provider would refuse this request and every later one.
 */
function mapImage(declared: string, raw: string, uri: string | null): { part: Part; display: string } {
  const data = raw.replace(/^data:[^,]*;base64,/i, '');
  const mimeType = imageTypeOfBase64(data);
  const what = uri === null ? `image ${declared || '(no type)'}` : `resource ${uri}: ${declared}`;
  if (mimeType !== null) return { part: { inlineData: { mimeType, data } }, display: `[${uri === null ? 'image' : `resource ${uri}`}: ${mimeType}, ${sizeOf(data)}]` };
  const svg = /^image\/svg\+xml\b/i.test(declared) ? utf8Text(data) : null;
  if (svg !== null) return { part: { text: svg }, display: `${uri === null ? 'SVG image' : `Resource ${uri}`}:\n${svg}` };
  const text = `[${what}, ${sizeOf(data)}, omitted: its bytes are not ${SENDABLE_IMAGE_TYPES}, the kinds of image a model is sent]`;
  return { part: { text }, display: text };
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
