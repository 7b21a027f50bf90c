// The runner's message model -> the Anthropic Messages API request (types only; no SDK loaded).
//
// - Thinking blocks go back exactly as received (text and signature, or redacted data) and in
//   their place before the tool_use blocks: the API verifies the signature and answers 400 if a
//   block of a tool-use turn is missing or changed. Thought parts from other providers have no
//   signature and are dropped.
// - tool_result blocks open the user message (the API requires them first); an image a tool
//   returned goes inside its tool_result, where the API accepts images, and so does the note that
//   later replaced it, so every image stays beside the call it answers.
// - Prompt caching: breakpoints (`cache_control`) on the last tool, the system prompt, the latest
//   user message (it writes the prefix the next turn reads) and the last user message of the
//   stable prefix: the history the runner has not rewritten since the previous request and knows it
//   will not rewrite next (ModelRequest.stablePrefix: a superseded file read is about to become a
//   note, or just did). The API reads a cached prefix only at a breakpoint or up to 20 blocks before
//   one, so a rewrite deep in the history would otherwise cost the whole prefix after the system
//   prompt; with nothing pending, the second breakpoint is the user message before the latest, which
//   reads what the previous turn wrote. Four is the API's maximum.
import type {
  Base64ImageSource,
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Content, FunctionDeclaration, Part } from '../types/content.js';
import { cleanSchema, functionResponseText } from './openai-mapping.js';
import { imageSize } from '../util/image-type.js';

const EPHEMERAL = { type: 'ephemeral' } as const;
type ImageMediaType = Base64ImageSource['media_type'];
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
/**
 * The API refuses a request holding an image whose base64 is longer than this ("image exceeds 5 MB
 * maximum: 5404560 bytes > 5242880 bytes", anthropics/claude-code#13381), and such an image stays
 * in the history: every later request of the run would be refused too. A screenshot from an MCP
 * server can be that large (read_file stops at 4 MB of file, 5.3 MB of base64).
 */
export const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
export const MAX_IMAGE_SIDE = 8000;

export interface AnthropicRequestParts {
  system: TextBlockParam[] | undefined;
  tools: Tool[] | undefined;
  messages: MessageParam[];
}

export function toAnthropicRequest(
  systemInstruction: string,
  contents: Content[],
  declarations: FunctionDeclaration[],
  cache: boolean,
  stablePrefix = contents.length,
  /** The model takes no images (a server refused one): each is named instead. */
  noImages = false,
): AnthropicRequestParts {
  const stable = { contents: stablePrefix, messages: 0 };
  const messages = withinImageCount(toAnthropicMessages(contents, stable), noImages ? 0 : MAX_REQUEST_IMAGES);
  const tools = declarations.length > 0 ? anthropicTools(declarations) : undefined;
  const system = systemInstruction.trim() === '' ? undefined : [{ type: 'text' as const, text: systemInstruction }];
  if (!cache) return { system, tools, messages };
  return {
    system: system?.map((block) => ({ ...block, cache_control: EPHEMERAL })),
    tools: tools?.map((tool, i) => (i === tools.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool)),
    messages: markBreakpoints(messages, stable.messages),
  };
}

/**
 * A request with more than this many images is refused when any of them is over 2000 pixels a
 * side ("At least one of the image dimensions exceed max allowed size for many-image requests:
 * 2000 pixels", anthropics/claude-code#9375 and #17598), as every screenshot of a retina display
 * is; the images stay in the history, so every later request would be refused too. The latest
 * are sent; older ones become a note (the model has seen them, and can ask for one again).
 */
export const MAX_REQUEST_IMAGES = 20;

/** The messages with every image but the latest `keep` a note; the same array when there are no more. `keep` 0: the model takes none. */
function withinImageCount(messages: MessageParam[], keep: number): MessageParam[] {
  const isImage = (block: { type?: string }) => block.type === 'image';
  const inBlock = (block: ContentBlockParam) => (isImage(block) ? 1 : block.type === 'tool_result' && Array.isArray(block.content) ? block.content.filter(isImage).length : 0);
  const count = (message: MessageParam) => (typeof message.content === 'string' ? 0 : message.content.reduce((sum, block) => sum + inBlock(block), 0));
  let excess = messages.reduce((sum, message) => sum + count(message), 0) - keep;
  if (excess <= 0) return messages;
  const why = keep === 0 ? 'this model takes text only' : `a request with more than ${keep} images takes none over 2000 pixels a side, so only the latest ${keep} are sent`;
  const note = (image: ImageBlockParam): TextBlockParam => {
    excess--;
    const type = image.source.type === 'base64' ? image.source.media_type : 'image';
    return { type: 'text', text: `[${type} image omitted: ${why}]` };
  };
  // Entries are shared across requests (translated once): changed ones are copies.
  return messages.map((message) => {
    if (excess <= 0 || count(message) === 0 || typeof message.content === 'string') return message;
    const content = message.content.map((block): ContentBlockParam => {
      if (excess > 0 && block.type === 'image') return note(block);
      if (excess <= 0 || block.type !== 'tool_result' || !Array.isArray(block.content)) return block;
      return { ...block, content: block.content.map((inner) => (excess > 0 && inner.type === 'image' ? note(inner) : inner)) };
    });
    return { ...message, content } as MessageParam;
  });
}

/** Copies of the latest user message and of the last one before `stableMessages` (or else the one before the latest) with a breakpoint. */
function markBreakpoints(messages: MessageParam[], stableMessages: number): MessageParam[] {
  const markable = (i: number) => {
    const message = messages[i]!;
    return message.role === 'user' && typeof message.content !== 'string' && message.content.length > 0;
  };
  const lastBefore = (end: number) => {
    for (let i = Math.min(end, messages.length) - 1; i >= 0; i--) if (markable(i)) return i;
    return -1;
  };
  const latest = lastBefore(messages.length);
  let second = lastBefore(stableMessages);
  if (second === latest) second = lastBefore(latest);
  const out = [...messages];
  for (const i of [latest, second]) {
    if (i < 0) continue;
    const message = out[i]!;
    const blocks = [...(message.content as ContentBlockParam[])];
    blocks[blocks.length - 1] = { ...blocks[blocks.length - 1]!, cache_control: EPHEMERAL } as ContentBlockParam;
    out[i] = { ...message, content: blocks } as MessageParam;
  }
  return out;
}

const toolsFor = new WeakMap<FunctionDeclaration[], Tool[]>();

function anthropicTools(declarations: FunctionDeclaration[]): Tool[] {
  let tools = toolsFor.get(declarations);
  if (!tools) {
    tools = declarations.map((d) => ({ name: d.name, description: d.description, input_schema: cleanSchema(d.parameters) as Tool['input_schema'] }));
    toolsFor.set(declarations, tools);
  }
  return tools;
}

// Entries never change in place (a pruned one is a new object): each is translated once per
// context. A model entry's context is its index (it names the ids we invent); a user entry's is the
// list of calls still open before it, compared by identity: that list is the previous model entry's
// cached one, so a history that only grew costs a lookup per entry, not a rebuilt string.
type OpenCall = { id: string; name: string };
interface TranslatedEntry {
  context: number | OpenCall[];
  message: MessageParam | null;
  /** Model entries: the calls they leave open. */
  openAfter: OpenCall[] | null;
}
const translated = new WeakMap<Content, TranslatedEntry>();
const NO_CALLS: OpenCall[] = [];

/** `stable.messages` is set to how many leading messages come only from the first `stable.contents` entries. */
export function toAnthropicMessages(contents: Content[], stable?: { contents: number; messages: number }): MessageParam[] {
  const messages: MessageParam[] = [];
  let openCalls: OpenCall[] = NO_CALLS;
  contents.forEach((content, turn) => {
    if (stable && turn === stable.contents) stable.messages = messages.length;
    const model = content.role === 'model';
    const context = model ? turn : openCalls;
    let entry = translated.get(content);
    if (!entry || entry.context !== context) {
      entry = model
        ? {
            context,
            message: assistantMessage(content.parts, turn),
            openAfter: content.parts.filter((p) => p.functionCall).map((p, i) => ({ id: p.functionCall!.id ?? syntheticId(turn, i), name: p.functionCall!.name })),
          }
        : { context, message: userMessage(content.parts, openCalls), openAfter: null };
      translated.set(content, entry);
    }
    if (entry.openAfter) openCalls = entry.openAfter;
    const message = entry.message;
    if (!message) return;
    // The API wants roles to alternate: an entry that translated to nothing (a turn of thinking
    // alone) would leave two user messages in a row, so they become one.
    const last = messages[messages.length - 1];
    if (last && last.role === message.role && Array.isArray(last.content) && Array.isArray(message.content)) {
      messages[messages.length - 1] = { ...last, content: [...last.content, ...message.content] } as MessageParam;
      // The merged message holds an entry past the stable prefix: it is not stable any more.
      if (stable && turn >= stable.contents && stable.messages === messages.length) stable.messages--;
    } else {
      messages.push(message);
    }
  });
  if (stable && stable.contents >= contents.length) stable.messages = messages.length;
  return messages;
}

function syntheticId(turn: number, index: number): string {
  return `toolu_unattended_${turn}_${index}`;
}

function assistantMessage(parts: Part[], turn: number): MessageParam | null {
  const blocks: ContentBlockParam[] = [];
  let calls = 0;
  for (const part of parts) {
    if (part.thought) {
      const block = part.echo?.anthropic_block as ContentBlockParam | undefined;
      if (block) blocks.push(block);
      continue;
    }
    if (part.functionCall) {
      const { id, name, args } = part.functionCall;
      blocks.push({ type: 'tool_use', id: id ?? syntheticId(turn, calls), name, input: args ?? {} });
      calls++;
    } else if (part.text !== undefined && part.text.trim() !== '') {
      // A blank block ("\n\n" before a call, as Claude models write) is refused on the next
      // request ("text content blocks must contain non-whitespace text"); it says nothing.
      blocks.push({ type: 'text', text: part.text });
    }
  }
  // The API rejects an empty assistant message (and one of thinking alone); a server tool's blocks
  // are content (a turn paused after them goes back holding only them: anthropic.ts).
  return blocks.some((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking') ? { role: 'assistant', content: blocks } : null;
}

function userMessage(parts: Part[], openCalls: Array<{ id: string; name: string }>): MessageParam | null {
  const unanswered = [...openCalls];
  const results: ToolResultBlockParam[] = [];
  const rest: ContentBlockParam[] = [];
  /** The last function response had no call to answer: what follows it is not an earlier result's. */
  let ownerless = false;
  for (const part of parts) {
    if (part.thought) continue;
    const response = part.functionResponse;
    if (response) {
      const at = response.id !== undefined ? unanswered.findIndex((c) => c.id === response.id) : unanswered.findIndex((c) => c.name === response.name);
      const [call] = unanswered.splice(at >= 0 ? at : 0, 1);
      const id = response.id && at >= 0 ? response.id : call?.id;
      if (id === undefined) {
        rest.push({ type: 'text', text: `Result of tool ${response.name}: ${functionResponseText(response.response)}` });
        ownerless = true;
        continue;
      }
      ownerless = false;
      const failed = Object.keys(response.response ?? {}).length === 1 && typeof response.response?.error === 'string';
      const text = failed ? String(response.response.error) : functionResponseText(response.response);
      // is_error tells the model the call failed (a denial, a bad argument) rather than returned this text.
      // The text as a plain string (the API's short form), not a one-block list: 24 bytes less on
      // every result, each resent with every later request. An image read with it makes it a list.
      results.push({ type: 'tool_result', tool_use_id: id, content: text || '(empty)', ...(failed ? { is_error: true } : {}) });
      continue;
    }
    const refused = part.inlineData ? refusedMedia(part.inlineData.mimeType, part.inlineData.data) : null;
    const block: TextBlockParam | ImageBlockParam | null = refused
      ? { type: 'text', text: refused }
      : part.inlineData
        ? { type: 'image', source: { type: 'base64', media_type: part.inlineData.mimeType as ImageMediaType, data: part.inlineData.data } }
        : part.text !== undefined && part.text.trim() !== ''
          ? { type: 'text', text: part.text }
          : null;
    if (!block) continue;
    // What follows a function response is that tool's: the media read_file returned, or the note
    // that replaced it once stale (stale-reads.ts) or to fit the window (compaction-history.ts).
    // It goes inside the tool's result, so each image stays beside the call it answers.
    const owner = results[results.length - 1];
    if (owner && !ownerless) {
      const blocks: Array<TextBlockParam | ImageBlockParam> = typeof owner.content === 'string' ? [{ type: 'text', text: owner.content }] : [...(owner.content ?? [])] as Array<TextBlockParam | ImageBlockParam>;
      blocks.push(block);
      owner.content = blocks;
    } else {
      rest.push(block);
    }
  }
  const content: ContentBlockParam[] = [...results, ...rest];
  return content.length > 0 ? { role: 'user', content } : null;
}

/**
 * The note the model reads in place of media the API does not take, saying why; null for an image
 * it takes. The API refuses a side over 8000 pixels ("At least one of the image dimensions exceed
 * max allowed size: 8000 pixels", a full-page screenshot of a long page, anthropics/claude-code#4778).
 */
function refusedMedia(mimeType: string, data: string): string | null {
  if (!IMAGE_TYPES.has(mimeType)) return `[${mimeType} attachment omitted: this provider sends only text and images]`;
  const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  const smaller = 'ask for a smaller one (a part, a lower resolution, JPEG)';
  if (data.length > MAX_IMAGE_BASE64) return `[${mimeType} image omitted: ${mb(data.length)} in base64, over the ${mb(MAX_IMAGE_BASE64)} the Anthropic API takes for one image; ${smaller}]`;
  const size = imageSize(Buffer.from(data, 'base64'));
  if (size && Math.max(size.width, size.height) > MAX_IMAGE_SIDE) {
    return `[${mimeType} image omitted: ${size.width} x ${size.height} pixels, over the ${MAX_IMAGE_SIDE} a side the Anthropic API takes; ${smaller}]`;
  }
  return null;
}
