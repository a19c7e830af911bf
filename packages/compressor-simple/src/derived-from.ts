import {
  type Message,
  type Part,
  partLabel,
  sameData,
  type ToolOutputContentPart,
  type ToolResultOutput,
  toolOutputText,
} from '@ctxkit/context-core';

/**
 * Whether `a` and `b` are the same message: every field holds the same data, but the cached
 * count (`tokens`, `tokenCounter`), which says nothing of what is sent.
 */
export function sameMessage(a: Message, b: Message): boolean {
  if (a === b) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (key === 'tokens' || key === 'tokenCounter') continue;
    if (
      !sameData(
        (a as unknown as Record<string, unknown>)[key],
        (b as unknown as Record<string, unknown>)[key],
      )
    )
      return false;
  }
  return true;
}

/**
 * Whether `copy` could have been made from `source` as it is now by this package's strategies:
 * the same message (see {@link sameMessage}), or one whose every field but `content` is the
 * same and whose content holds nothing `source` lacks. Its parts are some of the source's
 * parts, in order (others removed), each the same, or a text part naming a removed part (its
 * label, as a stand-in does), or one whose texts (a text part's, a tool output's, a content
 * output's items) are the source's texts cut short: a start, a known marker (the default
 * truncation marker, the default mask marker, either with the ellipses and line feeds around
 * it that masking adds) and an end. A JSON output may be cut to a text of its JSON. What no
 * strategy makes from `source`, such as a message from another conversation, a message
 * written over in a store, or a cut of the message as it was before an edit, does not pass. A
 * cut made with a custom marker does not pass either: the text that stands for what was cut
 * cannot be told from new text.
 *
 * @param copy - the message to check, such as one a store read back
 * @param source - the input message its origin names
 * @returns whether `copy` derives from `source`
 */
export function derivesFrom(copy: Message, source: Message): boolean {
  if (sameMessage(copy, source)) return true;
  const keys = new Set([...Object.keys(copy), ...Object.keys(source)]);
  for (const key of keys) {
    if (key === 'tokens' || key === 'tokenCounter' || key === 'content') continue;
    if (
      !sameData(
        (copy as unknown as Record<string, unknown>)[key],
        (source as unknown as Record<string, unknown>)[key],
      )
    )
      return false;
  }
  return inOrder(partsOf(copy.content), partsOf(source.content), partDerivesFrom);
}

// --- internal helpers ---

/** A message's content as parts: a string is one text part. */
function partsOf(content: Message['content']): readonly Part[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/**
 * Whether each of `copies` derives from one of `sources`, in order, each source used once. The
 * earliest source a copy derives from is taken: any match leaves the later sources to the later
 * copies, so taking the earliest never misses one.
 */
function inOrder<Item>(
  copies: readonly Item[],
  sources: readonly Item[],
  derives: (copy: Item, source: Item) => boolean,
): boolean {
  let next = 0;
  for (const copy of copies) {
    while (next < sources.length && !derives(copy, sources[next] as Item)) next += 1;
    if (next === sources.length) return false;
    next += 1;
  }
  return true;
}

/** Whether `copy` is `source`, its stand-in, or `source` with its texts cut. */
function partDerivesFrom(copy: Part, source: Part): boolean {
  if (sameData(copy, source)) return true;
  if (copy.type === 'text' && source.type !== 'text' && isStandIn(copy, source)) return true;
  if (copy.type !== source.type) return false;
  if (copy.type === 'text') {
    return sameBut(copy, source, 'text') && isCutOf(copy.text, (source as typeof copy).text);
  }
  if (copy.type === 'tool-result') {
    const output = (source as typeof copy).output;
    return sameBut(copy, source, 'output') && outputDerivesFrom(copy.output, output);
  }
  return false;
}

/** Whether a text part stands for the removed `source`: its label, with its provider options. */
function isStandIn(copy: Part & { type: 'text' }, source: Part): boolean {
  if (copy.text !== partLabel(source)) return false;
  return (
    copy.providerOptions === undefined || sameData(copy.providerOptions, source.providerOptions)
  );
}

/** Whether two objects hold the same data in every key but `except`. */
function sameBut(copy: object, source: object, except: string): boolean {
  const keys = new Set([...Object.keys(copy), ...Object.keys(source)]);
  for (const key of keys) {
    if (key === except) continue;
    if (!sameData((copy as Record<string, unknown>)[key], (source as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

/** Whether a tool output is `source` with its text cut, its JSON cut as text, or items cut. */
function outputDerivesFrom(copy: ToolResultOutput, source: ToolResultOutput): boolean {
  if (sameData(copy, source)) return true;
  if (typeof copy === 'string') {
    if (typeof source === 'string') return isCutOf(copy, source);
    return source.type === 'json' && isCutOf(copy, toolOutputText(source));
  }
  if (copy.type !== 'content' || typeof source === 'string' || source.type !== 'content')
    return false;
  return inOrder(copy.value, source.value, itemDerivesFrom);
}

/** Whether a content output's item is `source`, its stand-in, or its text cut. */
function itemDerivesFrom(copy: ToolOutputContentPart, source: ToolOutputContentPart): boolean {
  return partDerivesFrom(copy, source);
}

/**
 * The markers this package's strategies put where they cut text, with their numbers as any
 * digits: the default truncation marker, and the default mask marker with the ellipses and line
 * feeds masking puts around it.
 */
const MARKERS =
  /\n\n\.\.\. \[\d+ characters truncated\] \.\.\.\n\n|…?\n?\[\.\.\. \d+ lines? omitted, \d+ characters originally \.\.\.\]\n?…?/g;

/**
 * Whether `text` is `source` cut short: a start of it and an end of it, with at most one known
 * marker between them (either may be empty), and no longer than `source`.
 */
function isCutOf(text: string, source: string): boolean {
  if (text === source) return true;
  if (startAndEnd(text, source)) return true;
  for (const match of text.matchAll(MARKERS)) {
    const head = text.slice(0, match.index);
    const tail = text.slice(match.index + match[0].length);
    if (
      head.length + tail.length <= source.length &&
      source.startsWith(head) &&
      source.endsWith(tail)
    ) {
      return true;
    }
  }
  return false;
}

/** Whether `text` is a start of `source` followed by an end of it, not overlapping. */
function startAndEnd(text: string, source: string): boolean {
  if (text.length > source.length) return false;
  let prefix = 0;
  while (prefix < text.length && text.charCodeAt(prefix) === source.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (
    suffix < text.length &&
    text.charCodeAt(text.length - 1 - suffix) === source.charCodeAt(source.length - 1 - suffix)
  ) {
    suffix += 1;
  }
  return prefix + suffix >= text.length;
}
