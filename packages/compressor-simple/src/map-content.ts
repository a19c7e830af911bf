import type { Message, Part } from '@ctxkit/context-core';

/**
 * `content` with `change` applied to each part (a string content is one text part); a part for
 * which `change` returns `undefined` is removed. The same string or array when `change` returned
 * every part unchanged; a string content stays a string while it stays one plain text part.
 */
export function mapContent(
  content: Message['content'],
  change: (part: Part) => Part | undefined,
): Message['content'] {
  if (typeof content === 'string') {
    const part = change({ type: 'text', text: content });
    if (part === undefined) return [];
    return part.type === 'text' && part.providerOptions === undefined ? part.text : [part];
  }
  let changed: Part[] | undefined;
  for (const [index, part] of content.entries()) {
    const next = change(part);
    if (next === part && changed === undefined) continue;
    changed ??= content.slice(0, index);
    if (next !== undefined) changed.push(next);
  }
  return changed ?? content;
}
