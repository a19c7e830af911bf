import type { Message, Part } from '@ctxkit/context-core';

/**
 * `content` with `change` applied to its text (a string content is one text piece) and to each
 * part; the same string or array when `change` returned every piece unchanged.
 */
export function mapContent(
  content: Message['content'],
  change: (part: Part) => Part,
): Message['content'] {
  if (typeof content === 'string') {
    const part = change({ type: 'text', text: content });
    return part.type === 'text' ? part.text : [part];
  }
  let changed: Part[] | undefined;
  content.forEach((part, index) => {
    const next = change(part);
    if (next === part) return;
    changed ??= [...content];
    changed[index] = next;
  });
  return changed ?? content;
}

/**
 * A function that applies `cut` to the text of text, thinking and tool-result parts, returning
 * the same part when `cut` returned its text unchanged. A cut thinking part loses its signature,
 * which no longer matches its text. Tool calls are never changed.
 */
export function cutTextParts(cut: (text: string) => string): (part: Part) => Part {
  return (part) => {
    switch (part.type) {
      case 'text': {
        const text = cut(part.text);
        return text === part.text ? part : { ...part, text };
      }
      case 'thinking': {
        const text = cut(part.text);
        return text === part.text ? part : { type: 'thinking', text };
      }
      case 'tool-result': {
        const output = cut(part.output);
        return output === part.output ? part : { ...part, output };
      }
      case 'tool-call':
        return part;
    }
  };
}
