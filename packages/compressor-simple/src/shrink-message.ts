import {
  isMediaPart,
  isReasoningPart,
  type Message,
  type Part,
  partLabel,
  type TokenCounter,
  type ToolOutputContentPart,
  type ToolResultPart,
  withContent,
} from '@ctxkit/context-core';
import { editsToolOutputs, jsonOutputText } from './editable-text.js';
import { mapContent } from './map-content.js';
import { mediaParts } from './media-parts.js';
import { standIn } from './stand-in.js';

/** How {@link shrinkMessage} shrinks a message. */
export interface Shrink {
  /** Cuts one piece of text (see `pieceLengths`); returns the same string to leave it whole. */
  cut?(text: string): string;
  /**
   * Parts to take out whole (see {@link removableParts}): an image or file leaves a text part
   * naming it, reasoning and opaque parts leave nothing.
   */
  remove?: ReadonlySet<Part>;
}

/**
 * `message` shrunk by `shrink`: its pieces of text cut (text, and the tool outputs of a tool
 * message: a JSON output whose text is cut becomes that text, a string; a content output has its
 * text items cut and its images and files kept), and the parts in `remove` taken out. Reasoning
 * (signed or not), images, files and opaque parts are never cut; tool calls, approvals and
 * provider-executed results are never changed. A message that
 * would be left with no part keeps the label of the first part removed. The same object when
 * nothing changed; otherwise a copy made with `withContent` (id, meta and providerOptions kept).
 */
export function shrinkMessage(message: Message, shrink: Shrink, counter: TokenCounter): Message {
  const content = shrinkContent(message, shrink);
  return content === message.content ? message : withContent(message, content, counter);
}

/**
 * The parts of `message` that a truncating strategy may take out whole when cutting text is not
 * enough: images and files (see `mediaParts`), reasoning and opaque parts.
 */
export function removableParts(message: Message): Part[] {
  if (typeof message.content === 'string') return [];
  const parts: Part[] = mediaParts(message);
  for (const part of message.content) {
    if (part.type === 'opaque' || isReasoningPart(part)) parts.push(part);
  }
  return parts;
}

// --- internal helpers ---

const KEEP = (text: string) => text;
const NOTHING: ReadonlySet<Part> = new Set();

function shrinkContent(message: Message, shrink: Shrink): Message['content'] {
  const cut = shrink.cut ?? KEEP;
  const remove = shrink.remove ?? NOTHING;
  const tools = editsToolOutputs(message);
  let firstRemoved: Part | undefined;
  const content = mapContent(message.content, (part) => {
    if (remove.has(part)) {
      firstRemoved ??= part;
      return isMediaPart(part) ? standIn(part) : undefined;
    }
    switch (part.type) {
      case 'text':
        return cutText(part, cut);
      case 'tool-result':
        return tools ? shrinkResult(part, cut, remove) : part;
      default:
        return part;
    }
  });
  if (content.length === 0 && message.content.length > 0 && firstRemoved !== undefined) {
    return [{ type: 'text', text: partLabel(firstRemoved) }];
  }
  return content;
}

function cutText<T extends { text: string }>(part: T, cut: (text: string) => string): T {
  const text = cut(part.text);
  return text === part.text ? part : { ...part, text };
}

function shrinkResult(
  part: ToolResultPart,
  cut: (text: string) => string,
  remove: ReadonlySet<Part>,
): ToolResultPart {
  const output = part.output;
  if (typeof output === 'string') {
    const text = cut(output);
    return text === output ? part : { ...part, output: text };
  }
  if (output.type === 'json') {
    const json = jsonOutputText(output);
    const text = cut(json);
    return text === json ? part : { ...part, output: text };
  }
  let changed: ToolOutputContentPart[] | undefined;
  for (const [index, item] of output.value.entries()) {
    let next: ToolOutputContentPart;
    if (item.type === 'text') next = cutText(item, cut);
    else next = remove.has(item) ? standIn(item) : item;
    if (next === item) continue;
    changed ??= [...output.value];
    changed[index] = next;
  }
  return changed === undefined ? part : { ...part, output: { type: 'content', value: changed } };
}
