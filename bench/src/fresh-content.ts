import type { Message, Part } from '@ctxkit/context-core';

/** A new object for `message` whose texts start with a mark of the run, so no cache knows it. */
export function freshContent(message: Message, run: number): Message {
  const mark = `r${run} `;
  if (typeof message.content === 'string') return { ...message, content: mark + message.content };
  const content = message.content.map((part): Part => {
    if (part.type === 'text') return { ...part, text: mark + part.text };
    if (part.type === 'tool-result' && typeof part.output === 'string')
      return { ...part, output: mark + part.output };
    return part;
  });
  return { ...message, content };
}
