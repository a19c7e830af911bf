import type { Message } from '@ctxkit/context-core';
import type { BaseMessage } from '@langchain/core/messages';

const origins = new WeakMap<Message, BaseMessage>();

/**
 * Records that `message` was converted from `origin`, so that values JSON cannot carry (an
 * `artifact` holding a class instance, say) come back from it.
 *
 * @param message - the ctxkit message
 * @param origin - the LangChain message it was made from
 * @returns `message`
 */
export function rememberOrigin(message: Message, origin: BaseMessage): Message {
  origins.set(message, origin);
  return message;
}

/**
 * The LangChain message `message` was converted from, when it is that very object.
 *
 * @param message - the ctxkit message
 * @returns its origin, or `undefined`
 */
export function originOf(message: Message): BaseMessage | undefined {
  return origins.get(message);
}
