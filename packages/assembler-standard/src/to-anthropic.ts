import {
  InvalidMessageError,
  isReasoningPart,
  type Message,
  type OptionKeys,
  optionChecker,
  type Part,
  partLabel,
  type ReasoningPart,
  type ThinkingPart,
  type ToolCallPart,
  type ToolOutputContentPart,
  type ToolResultPart,
  validateMessages,
} from '@ctxkit/context-core';
import { toAnthropicMedia } from './anthropic-media.js';
import type {
  AnthropicAssistantBlock,
  AnthropicCacheControl,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicServerToolResultBlock,
  AnthropicServerToolUseBlock,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicToolResultContentBlock,
  AnthropicToolUseBlock,
  AnthropicUserBlock,
} from './anthropic-message.js';
import { SOURCE } from './package-source.js';
import { cacheControlOf } from './provider-options.js';
import { isRedactedThinking } from './redacted-thinking.js';
import { toolInputObject } from './tool-input.js';
import { lateSystemMessage, unsendableError, unsendablePart } from './unsendable-error.js';
import { validateAnthropic } from './validate-anthropic.js';

/**
 * The `system` and `messages` of an Anthropic Messages request for `messages`: spread the result
 * into the request body. The leading system messages become `system` (their text as a string when
 * there is one system message with string content and no cache control, as text blocks
 * otherwise); tool messages become user messages of `tool_result` blocks; consecutive messages
 * of the same wire role are merged into one message of blocks. Parts map as the API defines them:
 *
 * - text → `text`; images → `image` (base64 with its media type, or `url`); PDFs → `document`
 *   (base64 or `url`, the file name as `title`); inline `text/plain` files → `document` with a
 *   `text` source. An image or file Anthropic has no block for (another file type, text by URL,
 *   an inline image of unknown type, any image or file in an assistant message) is sent as a
 *   `text` block holding its label (`partLabel`, e.g. `[file notes.txt, text/plain, 2.0 KB]`),
 *   so the model knows it was there.
 * - reasoning with a `signature` (and a deprecated `thinking` part with one) → `thinking`; with
 *   `redactedData` (or a deprecated `RedactedThinkingPart`) → `redacted_thinking`; reasoning
 *   Anthropic cannot verify (no signature: plain, or OpenAI's `encryptedContent`) is left out,
 *   as is reasoning outside assistant messages.
 * - tool calls → `tool_use`; provider-executed ones → `server_tool_use`, and their result in the
 *   same assistant message → `<toolName>_tool_result` with the JSON output's value as `content`
 *   (`tool_search_tool_*` tools answer with `tool_search_tool_result`).
 * - tool results → `tool_result`: a string output as `content` (left out when empty), a JSON
 *   output as its JSON text, content output as `text`, `image` and `document` blocks (labels for
 *   the rest); `isError` → `is_error`.
 * - `providerOptions.anthropic.cacheControl` of a part → that block's `cache_control`; of a
 *   message → its last block that may carry one (not `thinking` or `redacted_thinking`, which
 *   the API refuses it on), unless that block has its own. Other provider options are not sent.
 * - approval requests and responses are left out: they are between the application and its
 *   user; the model sees the call and its result.
 *
 * An opaque part cannot be sent (ctxkit does not know what it holds): it throws a `ContextError`
 * (`invalid_message`, `details: { index, part }`) naming the message and the part; so do a tool
 * input that is not a JSON object and a provider-executed result whose output is not JSON. `id`,
 * `meta` and cached counts are not sent; a message whose parts were all left out is left out.
 * The output always passes {@link validateAnthropic}: input it cannot turn into a valid request
 * (a system message after the conversation started, a first message from the assistant, a call
 * without its results) gets a `ContextError` naming the message. The input is not mutated.
 *
 * With `cacheBreakpoints`, it also marks what the provider's prompt cache should keep: the last
 * system block (which caches the tools too: Anthropic's cache prefix is tools, then system, then
 * messages) and the last block of the last message that can carry one (so the next request, the
 * same messages plus new ones, reads all of this one from the cache). A block marked already keeps
 * its own; no more are added than Anthropic's limit of 4 per request allows (the last message's
 * first, then the system's).
 *
 * @param messages - the prompt to send, such as the assembler's output
 * @param options - whether to place cache breakpoints, and their TTL
 * @returns the request's `system` (when there is one) and `messages`
 * @throws InvalidMessageError (`invalid_message`) for malformed messages, an opaque part, a tool
 *   input that is not a JSON object, a provider-executed result whose output is not JSON, and
 *   input that makes no valid request; `details.index` names the message when one is at fault
 */
export function toAnthropic(
  messages: readonly Message[],
  options: ToAnthropicOptions = {},
): AnthropicRequest {
  const check = optionChecker(SOURCE, 'toAnthropic');
  check.knownKeys(options, OPTION_KEYS);
  if (typeof options.cacheBreakpoints === 'object') {
    check.knownKeys(options.cacheBreakpoints, { ttl: true }, 'cacheBreakpoints');
  }
  validateMessages(messages, { source: SOURCE });
  let start = 0;
  while (messages[start]?.role === 'system') start += 1;
  const request: AnthropicRequest = { messages: [] };
  const system = systemOf(messages.slice(0, start));
  if (system !== undefined) request.system = system;
  const origins: [number, number][] = [];
  for (let index = start; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    const converted = convert(message, index);
    if (converted === undefined) continue;
    const previous = request.messages[request.messages.length - 1];
    if (previous === undefined || previous.role !== converted.role) {
      request.messages.push(converted);
      origins.push([index, index]);
      continue;
    }
    if (typeof previous.content === 'string') previous.content = [textBlock(previous.content)];
    const blocks = previous.content as (AnthropicUserBlock | AnthropicAssistantBlock)[];
    if (typeof converted.content === 'string') blocks.push(textBlock(converted.content));
    else blocks.push(...converted.content);
    (origins[origins.length - 1] as [number, number])[1] = index;
  }
  if (options.cacheBreakpoints) placeBreakpoints(request, options.cacheBreakpoints);
  try {
    validateAnthropic(request);
  } catch (error) {
    throw unsendableError('toAnthropic', error, origins);
  }
  return request;
}

/** Options of {@link toAnthropic}. */
export interface ToAnthropicOptions {
  /**
   * Place cache breakpoints on the last system block and on the last message (`true`: with the
   * default 5-minute TTL; `{ ttl: '1h' }` for the one-hour cache).
   * @default false
   */
  cacheBreakpoints?: boolean | { ttl?: '5m' | '1h' };
}

// --- internal helpers ---

const NAME = 'toAnthropic';
type Block = AnthropicUserBlock | AnthropicAssistantBlock;

function systemOf(messages: readonly Message[]): AnthropicRequest['system'] {
  const only = messages[0];
  if (
    messages.length === 1 &&
    typeof only?.content === 'string' &&
    cacheControlOf(only.providerOptions) === undefined
  ) {
    return only.content;
  }
  const blocks: AnthropicTextBlock[] = [];
  messages.forEach((message, index) => {
    const own: AnthropicTextBlock[] = [];
    if (typeof message.content === 'string') own.push(textBlock(message.content));
    else {
      message.content.forEach((part, partIndex) => {
        if (part.type === 'text') own.push(textBlock(part.text, part));
        else throw opaque(index, partIndex);
      });
    }
    markLast(own, message);
    blocks.push(...own);
  });
  return blocks.length === 0 ? undefined : blocks;
}

function convert(message: Message, index: number): AnthropicMessage | undefined {
  if (message.role === 'system')
    throw lateSystemMessage('toAnthropic', index, 'Anthropic carries system text only before it');
  const role = message.role === 'assistant' ? 'assistant' : 'user';
  if (typeof message.content === 'string') {
    return cacheControlOf(message.providerOptions) === undefined
      ? { role, content: message.content }
      : { role, content: markLast([textBlock(message.content)], message) };
  }
  const blocks: Block[] = [];
  message.content.forEach((part, partIndex) => {
    const block =
      role === 'assistant'
        ? assistantBlock(part, message.content as Part[], index, partIndex)
        : userBlock(part, index, partIndex);
    if (block) blocks.push(block);
  });
  if (blocks.length === 0) return undefined;
  markLast(blocks, message);
  return role === 'assistant'
    ? { role, content: blocks as AnthropicAssistantBlock[] }
    : { role, content: blocks as AnthropicUserBlock[] };
}

/** The block of a part of a user or tool message, or `undefined` for what is left out. */
function userBlock(part: Part, index: number, partIndex: number): AnthropicUserBlock | undefined {
  switch (part.type) {
    case 'text':
      return textBlock(part.text, part);
    case 'image':
    case 'file':
      return toAnthropicMedia(part) ?? textBlock(partLabel(part), part);
    case 'tool-result':
      return toolResultBlock(part);
    case 'opaque':
      throw opaque(index, partIndex);
    default:
      // Reasoning outside assistant messages and approval responses are not sent.
      return undefined;
  }
}

/** The block of a part of an assistant message, or `undefined` for what is left out. */
function assistantBlock(
  part: Part,
  parts: readonly Part[],
  index: number,
  partIndex: number,
): AnthropicAssistantBlock | undefined {
  if (isReasoningPart(part)) return reasoningBlock(part);
  switch (part.type) {
    case 'text':
      return textBlock(part.text, part);
    case 'image':
    case 'file':
      return textBlock(partLabel(part), part);
    case 'tool-call':
      return toolUseBlock(part, index, partIndex);
    case 'tool-result':
      return serverToolResultBlock(part, parts, index, partIndex);
    case 'opaque':
      throw opaque(index, partIndex);
    default:
      // Approval requests are not sent.
      return undefined;
  }
}

function reasoningBlock(part: ReasoningPart | ThinkingPart): AnthropicAssistantBlock | undefined {
  if (part.type === 'thinking' && isRedactedThinking(part)) {
    return { type: 'redacted_thinking', data: part.signature };
  }
  if (part.signature !== undefined) {
    return { type: 'thinking', thinking: part.text, signature: part.signature };
  }
  if (part.type === 'reasoning' && part.redactedData !== undefined) {
    return { type: 'redacted_thinking', data: part.redactedData };
  }
  return undefined;
}

function toolUseBlock(
  part: ToolCallPart,
  index: number,
  partIndex: number,
): AnthropicAssistantBlock {
  const input = toolInputObject(part.input);
  if (input === undefined) {
    throw new InvalidMessageError({
      code: 'invalid_message',
      source: SOURCE,
      message: `toAnthropic: message ${index}, part ${partIndex}: Anthropic needs a JSON object as tool input, got ${typeof part.input === 'string' ? 'a string that is not the JSON of an object' : Array.isArray(part.input) ? 'an array' : typeof part.input}.`,
      details: { index, part: partIndex },
    });
  }
  const block: AnthropicToolUseBlock | AnthropicServerToolUseBlock = {
    type: part.providerExecuted === true ? 'server_tool_use' : 'tool_use',
    id: part.toolCallId,
    name: part.toolName,
    input,
  };
  return withCache(block, part);
}

/** The result block of a provider-executed call, in the assistant message that makes it. */
function serverToolResultBlock(
  part: ToolResultPart,
  parts: readonly Part[],
  index: number,
  partIndex: number,
): AnthropicAssistantBlock {
  if (typeof part.output === 'string' || part.output.type !== 'json') {
    throw unsendablePart(
      NAME,
      index,
      partIndex,
      `Anthropic sends the result of a provider-executed tool as the tool's own block, whose content is the JSON output the API returned; this result's output is ${typeof part.output === 'string' ? 'text' : 'content parts'}.`,
    );
  }
  const call = parts.find(
    (candidate): candidate is ToolCallPart =>
      candidate.type === 'tool-call' && candidate.toolCallId === part.toolCallId,
  ) as ToolCallPart;
  const block: AnthropicServerToolResultBlock = {
    type: serverToolResultType(call.toolName),
    tool_use_id: part.toolCallId,
    content: part.output.value,
  };
  return withCache(block, part);
}

/** `web_search` → `web_search_tool_result`; the tool search tools share one result type. */
function serverToolResultType(toolName: string): `${string}_tool_result` {
  return toolName.startsWith('tool_search_tool_')
    ? 'tool_search_tool_result'
    : `${toolName}_tool_result`;
}

function toolResultBlock(part: ToolResultPart): AnthropicToolResultBlock {
  const { output } = part;
  let content: AnthropicToolResultBlock['content'];
  if (typeof output === 'string') content = output === '' ? undefined : output;
  else if (output.type === 'json') content = JSON.stringify(output.value);
  else content = output.value.map(toolResultContentBlock);
  const block: AnthropicToolResultBlock = {
    type: 'tool_result',
    tool_use_id: part.toolCallId,
    ...(content === undefined ? {} : { content }),
    ...(part.isError === undefined ? {} : { is_error: part.isError }),
  };
  return withCache(block, part);
}

function toolResultContentBlock(item: ToolOutputContentPart): AnthropicToolResultContentBlock {
  if (item.type === 'text') return textBlock(item.text, item);
  return toAnthropicMedia(item) ?? textBlock(partLabel(item), item);
}

function textBlock(text: string, part?: Part): AnthropicTextBlock {
  const block: AnthropicTextBlock = { type: 'text', text };
  return withCache(block, part);
}

/** `block` with the `cache_control` that `part` asks for, if any. */
function withCache<B extends { cache_control?: AnthropicCacheControl }>(block: B, part?: Part): B {
  const cacheControl = cacheControlOf(part?.providerOptions);
  return cacheControl === undefined ? block : { ...block, cache_control: cacheControl };
}

/**
 * Puts the message's own cache breakpoint on its last block that may carry one and has none;
 * returns `blocks`.
 */
function markLast<B extends Block>(blocks: B[], message: Message): B[] {
  const cacheControl = cacheControlOf(message.providerOptions);
  if (cacheControl === undefined) return blocks;
  for (let at = blocks.length - 1; at >= 0; at -= 1) {
    const block = blocks[at] as B;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    if (!('cache_control' in block)) blocks[at] = { ...block, cache_control: cacheControl };
    break;
  }
  return blocks;
}

/** Anthropic's limit of cache breakpoints in one request. */
const MAX_BREAKPOINTS = 4;

/** Marks the last message's and the system's last blocks, within the limit (see `toAnthropic`). */
function placeBreakpoints(request: AnthropicRequest, setting: true | { ttl?: '5m' | '1h' }): void {
  const cacheControl: AnthropicCacheControl =
    setting === true || setting.ttl === undefined
      ? { type: 'ephemeral' }
      : { type: 'ephemeral', ttl: setting.ttl };
  if (typeof request.system === 'string') request.system = [textBlock(request.system)];
  const lists: Block[][] = [];
  const last = request.messages.at(-1);
  if (last !== undefined) {
    if (typeof last.content === 'string') last.content = [textBlock(last.content)];
    lists.push(last.content as Block[]);
  }
  if (request.system !== undefined) lists.push(request.system);
  let used = countBreakpoints(request);
  for (const blocks of lists) {
    if (used >= MAX_BREAKPOINTS) return;
    for (let at = blocks.length - 1; at >= 0; at -= 1) {
      const block = blocks[at] as Block;
      if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
      if (!('cache_control' in block)) {
        blocks[at] = { ...block, cache_control: cacheControl };
        used += 1;
      }
      break;
    }
  }
}

/** Cache breakpoints in `request` already. */
function countBreakpoints(request: AnthropicRequest): number {
  const blocks: object[] = typeof request.system === 'string' ? [] : [...(request.system ?? [])];
  for (const message of request.messages)
    if (typeof message.content !== 'string') blocks.push(...message.content);
  return blocks.filter((block) => 'cache_control' in block).length;
}

function opaque(index: number, partIndex: number): InvalidMessageError {
  return unsendablePart(
    NAME,
    index,
    partIndex,
    'an opaque part holds data ctxkit does not know, so it has no Anthropic block; remove it (or turn it into parts ctxkit knows) before sending.',
  );
}

const OPTION_KEYS = Object.freeze({
  cacheBreakpoints: true,
} satisfies OptionKeys<ToAnthropicOptions>);
