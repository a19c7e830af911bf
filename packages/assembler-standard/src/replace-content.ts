import type { Message } from '@ctxkit/context-core';

/**
 * A copy of `message` with new content, keeping `role`, `id` and `meta` and leaving out the cached
 * token count, which no longer matches.
 */
export function replaceContent(message: Message, content: Message['content']): Message {
  const { tokens: _tokens, tokenCounter: _tokenCounter, ...rest } = message;
  return { ...rest, content };
}
