import type { OpenAIChatMessage } from './openai-chat-message.js';
import { checkOpenAIChatShape } from './openai-chat-shape.js';
import { wireError } from './wire-shape.js';

const FORMAT = 'OpenAI chat';

/**
 * Checks an OpenAI Chat Completions `messages` array against the API's documented rules and
 * throws naming the first problem: fields of the wrong type, an unknown role, an empty array, an
 * assistant message with neither content nor tool calls, a duplicate tool call id, and the tool
 * ordering rule: every assistant message with `tool_calls` is followed at once by one `tool`
 * message per call (in any order), and a `tool` message appears only there. Fields and content
 * part types ctxkit does not carry (images, `name`, refusals) are accepted, since the API
 * accepts them.
 *
 * @param messages - the `messages` array of a request
 * @throws InvalidMessageError (`invalid_wire`) naming the first problem, with `details.path`
 *   and, when a message is at fault, its index in `details.index`
 */
export function validateOpenAIChat(messages: unknown): asserts messages is OpenAIChatMessage[] {
  const list = checkOpenAIChatShape(messages, 'lenient');
  if (list.length === 0) {
    throw wireError(FORMAT, 'messages', undefined, 'a request needs at least one message.');
  }
  const callIds = new Set<string>();
  let awaiting: { index: number; calls: Set<string>; answered: Set<string> } | undefined;
  const unanswered = () => {
    if (!awaiting || awaiting.answered.size === awaiting.calls.size) return;
    const missing = [...awaiting.calls].filter((id) => !awaiting?.answered.has(id));
    throw wireError(
      FORMAT,
      `messages[${awaiting.index}].tool_calls`,
      awaiting.index,
      `tool call ${missing.map((id) => JSON.stringify(id)).join(', ')} has no tool message answering it right after this message.`,
    );
  };
  list.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (Array.isArray(message.content) && message.content.length === 0) {
      throw wireError(FORMAT, `${path}.content`, index, 'a content array must not be empty.');
    }
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (!awaiting) {
        throw wireError(
          FORMAT,
          path,
          index,
          `tool message for ${JSON.stringify(id)} does not follow an assistant message with tool_calls.`,
        );
      }
      if (!awaiting.calls.has(id)) {
        throw wireError(
          FORMAT,
          `${path}.tool_call_id`,
          index,
          `${JSON.stringify(id)} is not a call of messages[${awaiting.index}].`,
        );
      }
      if (awaiting.answered.has(id)) {
        throw wireError(
          FORMAT,
          `${path}.tool_call_id`,
          index,
          `${JSON.stringify(id)} is answered twice.`,
        );
      }
      awaiting.answered.add(id);
      return;
    }
    unanswered();
    awaiting = undefined;
    if (message.role !== 'assistant') return;
    const calls = message.tool_calls ?? undefined;
    if (calls !== undefined && calls.length === 0) {
      throw wireError(
        FORMAT,
        `${path}.tool_calls`,
        index,
        'tool_calls must not be empty; leave it out.',
      );
    }
    if ((message.content === null || message.content === undefined) && calls === undefined) {
      throw wireError(FORMAT, path, index, 'an assistant message needs content or tool_calls.');
    }
    if (calls === undefined) return;
    awaiting = { index, calls: new Set(), answered: new Set() };
    calls.forEach((call, callIndex) => {
      if (callIds.has(call.id)) {
        throw wireError(
          FORMAT,
          `${path}.tool_calls[${callIndex}].id`,
          index,
          `duplicate tool call id ${JSON.stringify(call.id)}.`,
        );
      }
      callIds.add(call.id);
      awaiting?.calls.add(call.id);
    });
  });
  unanswered();
}
