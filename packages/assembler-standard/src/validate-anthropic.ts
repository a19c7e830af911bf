import type { ContextError } from '@ctxkit/context-core';
import type {
  AnthropicAssistantBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicUserBlock,
} from './anthropic-message.js';
import { checkAnthropicShape } from './anthropic-shape.js';
import { wireError } from './wire-shape.js';

const FORMAT = 'Anthropic';
const VISIBLE = /\S/;
const TRAILING_SPACE = /\s$/;

/**
 * Checks the `system` and `messages` of an Anthropic Messages request against the API's
 * documented rules and throws naming the first problem: fields of the wrong type, blocks in a role
 * that may not hold them, no messages, a first message that is not from the user, two messages
 * in a row from the same role, empty or blank text (a string, a text block or a system block;
 * only the final assistant message may be empty), trailing whitespace at the end of a final
 * assistant message, a duplicate `tool_use` or `server_tool_use` id, and the tool rules: the
 * message right after an assistant message with `tool_use` blocks is a user message holding one
 * `tool_result` for each of them, placed before any other block, and a `tool_result` answers only
 * a `tool_use` of the message right before it (a server tool's result sits in the assistant
 * message itself). A `tool_result` whose content is present must not be empty, and an error
 * result must have content. The blocks ctxkit writes (`image`, `document` with a base64, URL or
 * text source, `server_tool_use`, `<tool>_tool_result`, `cache_control` objects) are checked for
 * their field types; fields, block and source types ctxkit does not carry (citations, files by
 * id, search results) are accepted, since the API accepts them.
 *
 * @param request - the request body (fields other than `system` and `messages` are ignored)
 * @throws InvalidMessageError (`invalid_wire`) naming the first problem, with `details.path`
 *   and, when a message is at fault, its index in `details.index`
 */
export function validateAnthropic(request: unknown): asserts request is AnthropicRequest {
  const { system, messages } = checkAnthropicShape(request, 'lenient');
  if (Array.isArray(system)) {
    system.forEach((block, blockIndex) => {
      if (!VISIBLE.test(block.text)) {
        throw wireError(
          FORMAT,
          `system[${blockIndex}].text`,
          undefined,
          'a text block must not be blank.',
        );
      }
    });
  }
  if (messages.length === 0) {
    throw wireError(FORMAT, 'messages', undefined, 'a request needs at least one message.');
  }
  const toolUseIds = new Set<string>();
  let awaiting: { index: number; ids: Set<string> } | undefined;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as AnthropicMessage;
    const path = `messages[${index}]`;
    const previous = messages[index - 1];
    if (index === 0 && message.role !== 'user') {
      throw wireError(FORMAT, `${path}.role`, index, 'the first message must be from the user.');
    }
    if (previous && previous.role === message.role) {
      throw wireError(
        FORMAT,
        `${path}.role`,
        index,
        `two ${message.role} messages in a row; roles must alternate (merge them).`,
      );
    }
    const finalAssistant = index === messages.length - 1 && message.role === 'assistant';
    const answered = checkContent(message, index, finalAssistant, toolUseIds, awaiting);
    if (awaiting) {
      const missing = [...awaiting.ids].filter((id) => !answered.has(id));
      if (missing.length > 0) throw unanswered(awaiting.index, missing);
    }
    awaiting = undefined;
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      const ids = message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
      if (ids.length > 0) awaiting = { index, ids: new Set(ids) };
    }
  }
  if (awaiting) throw unanswered(awaiting.index, [...awaiting.ids]);
}

// --- internal helpers ---

/**
 * Checks one message's content (blank text, trailing whitespace, tool blocks) and returns the
 * ids its `tool_result` blocks answer.
 */
function checkContent(
  message: AnthropicMessage,
  index: number,
  finalAssistant: boolean,
  toolUseIds: Set<string>,
  awaiting: { ids: Set<string> } | undefined,
): Set<string> {
  const path = `messages[${index}].content`;
  const content = message.content;
  const answered = new Set<string>();
  if (typeof content === 'string') {
    if (!finalAssistant && !VISIBLE.test(content)) {
      throw wireError(FORMAT, path, index, 'content must not be blank.');
    }
    if (finalAssistant && TRAILING_SPACE.test(content)) {
      throw wireError(
        FORMAT,
        path,
        index,
        'a final assistant message must not end with whitespace.',
      );
    }
    return answered;
  }
  if (content.length === 0 && !finalAssistant) {
    throw wireError(FORMAT, path, index, 'content must not be empty.');
  }
  const last = content[content.length - 1];
  if (finalAssistant && last?.type === 'text' && TRAILING_SPACE.test(last.text)) {
    throw wireError(
      FORMAT,
      `${path}[${content.length - 1}]`,
      index,
      'a final assistant message must not end with whitespace.',
    );
  }
  let othersSeen = false;
  for (let blockIndex = 0; blockIndex < content.length; blockIndex += 1) {
    const block = content[blockIndex] as AnthropicUserBlock | AnthropicAssistantBlock;
    const where = `${path}[${blockIndex}]`;
    switch (block.type) {
      case 'text':
        if (!VISIBLE.test(block.text)) {
          throw wireError(FORMAT, `${where}.text`, index, 'a text block must not be blank.');
        }
        othersSeen = true;
        break;
      case 'tool_use':
      case 'server_tool_use':
        if (toolUseIds.has(block.id)) {
          throw wireError(
            FORMAT,
            `${where}.id`,
            index,
            `duplicate tool_use id ${JSON.stringify(block.id)}.`,
          );
        }
        toolUseIds.add(block.id);
        break;
      case 'tool_result': {
        const id = block.tool_use_id;
        if (othersSeen) {
          throw wireError(
            FORMAT,
            where,
            index,
            'tool_result blocks must come before any other block.',
          );
        }
        if (!awaiting?.ids.has(id)) {
          throw wireError(
            FORMAT,
            `${where}.tool_use_id`,
            index,
            `${JSON.stringify(id)} is not a tool_use of the message right before.`,
          );
        }
        if (answered.has(id)) {
          throw wireError(
            FORMAT,
            `${where}.tool_use_id`,
            index,
            `${JSON.stringify(id)} is answered twice.`,
          );
        }
        answered.add(id);
        if (block.content !== undefined && block.content.length === 0) {
          throw wireError(
            FORMAT,
            `${where}.content`,
            index,
            'tool_result content must not be empty; leave it out.',
          );
        }
        if (block.is_error === true && block.content === undefined) {
          throw wireError(
            FORMAT,
            `${where}.content`,
            index,
            'an error tool_result must have content.',
          );
        }
        break;
      }
      default:
        if (message.role === 'user') othersSeen = true;
    }
  }
  return answered;
}

function unanswered(index: number, ids: readonly string[]): ContextError {
  return wireError(
    FORMAT,
    `messages[${index}].content`,
    index,
    `tool_use ${ids.map((id) => JSON.stringify(id)).join(', ')} has no tool_result in the next message.`,
  );
}
