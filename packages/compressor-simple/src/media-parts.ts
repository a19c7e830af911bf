import {
  type FilePart,
  type ImagePart,
  isMediaPart,
  type Message,
  type Part,
} from '@ctxkit/context-core';
import { editsToolOutputs } from './editable-text.js';

/**
 * The images and files of `message` that strategies may replace, in order: those of its content
 * (user and assistant messages) and those inside the content outputs of a tool message's results.
 * Media inside a provider-executed result stay with that result, whole.
 */
export function mediaParts(message: Message): (ImagePart | FilePart)[] {
  const media: (ImagePart | FilePart)[] = [];
  visitMedia(message, (part) => media.push(part));
  return media;
}

/** How many images and files `message` holds that strategies may replace (see {@link mediaParts}). */
export function mediaCount(message: Message): number {
  let count = 0;
  visitMedia(message, () => {
    count += 1;
  });
  return count;
}

/** Whether `message` holds an image or file that strategies may replace (see {@link mediaParts}). */
export function hasMedia(message: Message): boolean {
  return mediaCount(message) > 0;
}

// --- internal helpers ---

function visitMedia(message: Message, visit: (part: ImagePart | FilePart) => void): void {
  if (typeof message.content === 'string') return;
  const tools = editsToolOutputs(message);
  for (const part of message.content as readonly Part[]) {
    if (isMediaPart(part)) visit(part);
    else if (tools && part.type === 'tool-result' && typeof part.output === 'object') {
      if (part.output.type !== 'content') continue;
      for (const item of part.output.value) if (isMediaPart(item)) visit(item);
    }
  }
}
