import type {
  JsonValue,
  Message,
  Part,
  ToolOutputContentPart,
  ToolResultPart,
} from '@ctxkit/context-core';
import { fromAnthropicMedia } from './anthropic-media.js';
import type {
  AnthropicAssistantBlock,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicUserBlock,
} from './anthropic-message.js';
import { checkAnthropicShape } from './anthropic-shape.js';
import { cacheControlOptions } from './provider-options.js';
import { wireError } from './wire-shape.js';

const FORMAT = 'Anthropic';

/**
 * ctxkit messages for the `system` and `messages` of an Anthropic Messages request (other
 * request fields are ignored). `system` becomes one system message (string or text parts); a
 * user message's `tool_result` blocks become one tool message (tool names taken from the matching
 * `tool_use`, `is_error` as `isError`, no content as an empty output, a string as a string
 * output, blocks as content output) followed by a user message for its other blocks; assistant
 * blocks become parts in order: `thinking` as reasoning with its `signature`,
 * `redacted_thinking` as reasoning with `redactedData`, `tool_use` as a tool call,
 * `server_tool_use` as a provider-executed call and its `<tool>_tool_result` as that call's
 * result with JSON output. `image` and `document` blocks become image and file parts (a `text`
 * document as a `text/plain` file, `title` as the file name); `cache_control` becomes
 * `providerOptions.anthropic.cacheControl` of the part. `toAnthropic(fromAnthropic(request))`
 * equals the request's `system` and `messages` when it passes `validateAnthropic` and is in the
 * form `toAnthropic` writes (see the package docs). A field set to `null` or `[]` is read as
 * absent, so a response's `content` (`citations: null`) is read as the SDK returns it.
 *
 * @param request - an Anthropic Messages request body, or just its `system` and `messages`
 * @returns the ctxkit messages: the system prompt first when there is one, then the turns in order
 * @throws InvalidMessageError naming the message index and the path: `invalid_wire` for
 *   malformed input, for a `tool_result` before another block or answering no earlier
 *   `tool_use`, for a server tool result answering no `server_tool_use` before it in its
 *   message, and for a duplicate id; `unsupported_wire` for what ctxkit cannot carry, such as
 *   citations, files by id or search results
 */
export function fromAnthropic(request: unknown): Message[] {
  const { system, messages } = checkAnthropicShape(request, 'strict');
  const output: Message[] = [];
  if (typeof system === 'string') output.push({ role: 'system', content: system });
  else if (system !== undefined && system.length > 0) {
    output.push({ role: 'system', content: system.map(textPart) });
  }
  const toolNames = new Map<string, string>();
  const answered = new Set<string>();
  messages.forEach((message, index) => {
    if (typeof message.content === 'string') {
      output.push({ role: message.role, content: message.content });
      return;
    }
    if (message.role === 'assistant') {
      output.push({
        role: 'assistant',
        content: assistantParts(message.content, index, toolNames, answered),
      });
      return;
    }
    const results: ToolResultPart[] = [];
    const rest: Part[] = [];
    message.content.forEach((block: AnthropicUserBlock, blockIndex) => {
      const where = `messages[${index}].content[${blockIndex}]`;
      if (block.type !== 'tool_result') {
        rest.push(block.type === 'text' ? textPart(block) : fromAnthropicMedia(block));
        return;
      }
      if (rest.length > 0) {
        throw wireError(
          FORMAT,
          where,
          index,
          'tool_result blocks must come before any other block.',
        );
      }
      const id = block.tool_use_id;
      const toolName = toolNames.get(id);
      if (toolName === undefined || answered.has(id)) {
        throw wireError(
          FORMAT,
          `${where}.tool_use_id`,
          index,
          toolName === undefined
            ? `${JSON.stringify(id)} answers no earlier tool_use.`
            : `${JSON.stringify(id)} is answered twice.`,
        );
      }
      answered.add(id);
      results.push(toolResultPart(block, toolName));
    });
    if (results.length > 0) output.push({ role: 'tool', content: results });
    if (rest.length > 0 || results.length === 0) output.push({ role: 'user', content: rest });
  });
  return output;
}

// --- internal helpers ---

function assistantParts(
  blocks: readonly AnthropicAssistantBlock[],
  index: number,
  toolNames: Map<string, string>,
  answered: Set<string>,
): Part[] {
  /** The server tool calls of this message, by id: their results must follow them here. */
  const serverCalls = new Map<string, string>();
  return blocks.map((block, blockIndex): Part => {
    const where = `messages[${index}].content[${blockIndex}]`;
    switch (block.type) {
      case 'text':
        return textPart(block);
      case 'thinking':
        return { type: 'reasoning', text: block.thinking, signature: block.signature };
      case 'redacted_thinking':
        return { type: 'reasoning', text: '', redactedData: block.data };
      case 'tool_use':
      case 'server_tool_use': {
        if (toolNames.has(block.id)) {
          throw wireError(
            FORMAT,
            `${where}.id`,
            index,
            `duplicate tool_use id ${JSON.stringify(block.id)}.`,
          );
        }
        toolNames.set(block.id, block.name);
        const server = block.type === 'server_tool_use';
        if (server) serverCalls.set(block.id, block.name);
        return withOptions(
          {
            type: 'tool-call',
            toolCallId: block.id,
            toolName: block.name,
            input: block.input,
            ...(server ? { providerExecuted: true } : {}),
          },
          block.cache_control,
        );
      }
      default: {
        const id = block.tool_use_id;
        const toolName = serverCalls.get(id);
        if (toolName === undefined || answered.has(id)) {
          throw wireError(
            FORMAT,
            `${where}.tool_use_id`,
            index,
            toolName === undefined
              ? `${JSON.stringify(id)} answers no server_tool_use before it in this message.`
              : `${JSON.stringify(id)} is answered twice.`,
          );
        }
        answered.add(id);
        return withOptions(
          {
            type: 'tool-result',
            toolCallId: id,
            toolName,
            output: { type: 'json', value: block.content as JsonValue },
          },
          block.cache_control,
        );
      }
    }
  });
}

function toolResultPart(block: AnthropicToolResultBlock, toolName: string): ToolResultPart {
  const { content } = block;
  const result: ToolResultPart = {
    type: 'tool-result',
    toolCallId: block.tool_use_id,
    toolName,
    output:
      content === undefined
        ? ''
        : typeof content === 'string'
          ? content
          : {
              type: 'content',
              value: content.map(
                (item): ToolOutputContentPart =>
                  item.type === 'text' ? textPart(item) : fromAnthropicMedia(item),
              ),
            },
  };
  if (block.is_error !== undefined) result.isError = block.is_error;
  return withOptions(result, block.cache_control);
}

function textPart(block: AnthropicTextBlock): { type: 'text'; text: string } {
  return withOptions({ type: 'text', text: block.text }, block.cache_control);
}

/** `part` with `providerOptions` for a block's `cache_control`, when it has one. */
function withOptions<P extends Part>(part: P, cacheControl: unknown): P {
  const providerOptions = cacheControlOptions(cacheControl);
  return providerOptions === undefined ? part : { ...part, providerOptions };
}
