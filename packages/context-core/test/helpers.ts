import type { Message, TokenCounter } from '../src/index.js';

/** A counter where one character is one token: easy to reason about in tests. */
export const charCounter: TokenCounter = Object.freeze({
  name: 'test:chars',
  count: (text: string) => text.length,
});

export function user(content: string, meta?: Message['meta']): Message {
  return meta ? { role: 'user', content, meta } : { role: 'user', content };
}

export function assistant(content: string): Message {
  return { role: 'assistant', content };
}

export function call(...ids: string[]): Message {
  return {
    role: 'assistant',
    content: ids.map((toolCallId) => ({
      type: 'tool-call' as const,
      toolCallId,
      toolName: 'read_file',
      input: { path: toolCallId },
    })),
  };
}

export function result(id: string, output = `output of ${id}`): Message {
  return {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output }],
  };
}
