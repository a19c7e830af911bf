import {
  isMediaPart,
  isReasoningPart,
  type Message,
  type Part,
  partLabel,
  sameData,
  type ToolOutputContentPart,
  type ToolResultOutput,
  toolOutputText,
} from '@ctxkit/context-core';
import { defaultMaskMarker } from './mask-old-tool-results.js';
import { defaultTruncationMarker } from './truncation-marker.js';

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

/** What a copy is, as a stored prompt's origin names it. */
export type CopyDerivation = 'truncated' | 'masked' | 'stripped';

/**
 * Whether `copy` could have been made from `source` as it is now by this package's strategies
 * doing `derivation`: the same message (see {@link sameMessage}), or one whose every field but
 * `content` is the same and whose content is what that strategy makes of `source`'s. `stripped`:
 * the source's parts in order with only reasoning parts taken out. `truncated` and `masked`: the
 * source's parts in order, only reasoning, opaque and media parts taken out, each other part the
 * same, or a text part naming a removed part (its label, as a stand-in does), or one whose texts
 * (a text part's, a tool output's, a content output's items, or those items' text together) are
 * the source's texts cut once as the strategy cuts them: a start, the strategy's default marker
 * with the true count in it (`truncated`: the characters removed; `masked`: the characters of
 * the original, with the ellipses and line feeds around it that masking adds) and an end. A JSON
 * output may be cut to a text of its JSON. What no strategy makes from `source`, such as a
 * message from another conversation, a message written over in a store, a start and an end of
 * the source with no marker between them, or a cut of the message as it was before an edit, does
 * not pass. A cut made with a custom marker does not pass either: the text that stands for what
 * was cut cannot be told from new text.
 *
 * @param copy - the message to check, such as one a store read back
 * @param source - the input message its origin names
 * @param derivation - what its origin says was done to `source`
 * @returns whether `copy` derives from `source`
 */
export function derivesFrom(
  copy: Message,
  source: Message,
  derivation: CopyDerivation = 'truncated',
): boolean {
  if (sameMessage(copy, source)) return true;
  if (!sameBut(copy, source, 'content', 'tokens', 'tokenCounter')) return false;
  const copies = partsOf(copy.content);
  const sources = partsOf(source.content);
  if (derivation === 'stripped') {
    return inOrder(copies, sources, (part) => isReasoningPart(part), sameData);
  }
  const kind = derivation === 'masked' ? MASK : TRUNCATION;
  return inOrder(copies, sources, isRemovable, (part, from) => partDerivesFrom(part, from, kind));
}

// --- internal helpers ---

/** A message's content as parts: a string is one text part. */
function partsOf(content: Message['content']): readonly Part[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** Whether a strategy may take `part` out whole: reasoning, opaque and media parts. */
function isRemovable(part: Part): boolean {
  return isReasoningPart(part) || part.type === 'opaque' || isMediaPart(part);
}

/**
 * Whether each of `copies` derives from one of `sources`, in order, each source used once, and
 * every source no copy derives from may be skipped. The earliest source a copy derives from is
 * taken, skipping only sources that may be: any match leaves the later sources to the later
 * copies, so taking the earliest never misses one.
 */
function inOrder<Item>(
  copies: readonly Item[],
  sources: readonly Item[],
  skippable: (source: Item) => boolean,
  derives: (copy: Item, source: Item) => boolean,
): boolean {
  let next = 0;
  for (const copy of copies) {
    while (next < sources.length && !derives(copy, sources[next] as Item)) {
      if (!skippable(sources[next] as Item)) return false;
      next += 1;
    }
    if (next === sources.length) return false;
    next += 1;
  }
  for (; next < sources.length; next += 1) if (!skippable(sources[next] as Item)) return false;
  return true;
}

/** Whether `copy` is `source`, its stand-in, or `source` with its texts cut by `kind`. */
function partDerivesFrom(copy: Part, source: Part, kind: CutKind): boolean {
  if (sameData(copy, source)) return true;
  if (copy.type === 'text' && source.type !== 'text' && isStandIn(copy, source)) return true;
  if (copy.type !== source.type) return false;
  if (copy.type === 'text') {
    return sameBut(copy, source, 'text') && isCutOf(copy.text, (source as typeof copy).text, kind);
  }
  if (copy.type === 'tool-result') {
    const output = (source as typeof copy).output;
    return sameBut(copy, source, 'output') && outputDerivesFrom(copy.output, output, kind);
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

/** Whether two objects hold the same data in every key but those of `except`. */
function sameBut(copy: object, source: object, ...except: string[]): boolean {
  const keys = new Set([...Object.keys(copy), ...Object.keys(source)]);
  for (const key of keys) {
    if (except.includes(key)) continue;
    if (!sameData((copy as Record<string, unknown>)[key], (source as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

/**
 * Whether a tool output is `source` with its text cut, its JSON cut as text, or a content output
 * with its items cut one by one, or (truncation) their text cut as one, as `truncateToolResults`
 * cuts it: its other items the same or stand-ins, in place.
 */
function outputDerivesFrom(
  copy: ToolResultOutput,
  source: ToolResultOutput,
  kind: CutKind,
): boolean {
  if (sameData(copy, source)) return true;
  if (typeof copy === 'string') {
    if (typeof source === 'string') return isCutOf(copy, source, kind);
    return source.type === 'json' && isCutOf(copy, toolOutputText(source), kind);
  }
  if (copy.type !== 'content' || typeof source === 'string' || source.type !== 'content')
    return false;
  const itemWise =
    copy.value.length === source.value.length &&
    copy.value.every((item, index) =>
      partDerivesFrom(item, source.value[index] as ToolOutputContentPart, kind),
    );
  return itemWise || (kind === TRUNCATION && textCutAsOne(copy.value, source.value));
}

/**
 * Whether `copy` is `source` with the text of its text items cut as one, as
 * `truncateToolResults` cuts it: the items that are not text the same, in place, and each run of
 * text items between them what the cut leaves of it (the marker in the first run it reaches).
 */
function textCutAsOne(
  copy: readonly ToolOutputContentPart[],
  source: readonly ToolOutputContentPart[],
): boolean {
  const copyRuns = textRuns(copy);
  const sourceRuns = textRuns(source);
  if (!sameData(copyRuns.others, sourceRuns.others)) return false;
  const copyText = copyRuns.texts.join('');
  const sourceText = sourceRuns.texts.join('');
  const cut = cutAt(copyText, sourceText, TRUNCATION);
  if (cut === undefined) return false;
  const tailStart = sourceText.length - cut.tail;
  const marker = copyText.slice(cut.head, copyText.length - cut.tail);
  let marked = false;
  let start = 0;
  for (const [index, run] of sourceRuns.texts.entries()) {
    const end = start + run.length;
    let expected = run;
    if (end > cut.head && start < tailStart) {
      const head = start < cut.head ? sourceText.slice(start, cut.head) : '';
      const tail = end > tailStart ? sourceText.slice(tailStart, end) : '';
      expected = `${head}${marked ? '' : marker}${tail}`;
      marked = true;
    }
    if (copyRuns.texts[index] !== expected) return false;
    start = end;
  }
  return true;
}

/** The texts of a content output's runs of text items, and the items between them. */
function textRuns(items: readonly ToolOutputContentPart[]): {
  texts: string[];
  others: ToolOutputContentPart[];
} {
  const texts = [''];
  const others: ToolOutputContentPart[] = [];
  for (const item of items) {
    if (item.type === 'text') texts[texts.length - 1] += item.text;
    else {
      others.push(item);
      texts.push('');
    }
  }
  return { texts, others };
}

/** A kind of cut: `truncated` around the default truncation marker, `masked` around the mask's. */
type CutKind = 'truncated' | 'masked';

/** Where a truncated copy says it cut, as `defaultTruncationMarker` writes it. */
const TRUNCATION: CutKind = 'truncated';

/** Where a masked copy says it cut. */
const MASK: CutKind = 'masked';

/**
 * The default mask marker (see `defaultMaskMarker`), with the ellipses and line feeds masking
 * puts around it; its count of lines is checked against what `defaultMaskMarker` writes for it.
 */
const MASK_MARKER =
  /(…?)(\n?)(\[\.\.\. (\d+) lines? omitted, (\d+) characters originally \.\.\.\])(\n?)(…?)/g;

/**
 * Whether `text` is `source`, or `source` cut once by `kind` (see {@link cutAt}).
 */
function isCutOf(text: string, source: string, kind: CutKind): boolean {
  return text === source || cutAt(text, source, kind) !== undefined;
}

/**
 * How `text` is `source` cut once by `kind`: the length of the start and of the end of `source`
 * it keeps around the one marker it holds, whose count is the true one (the characters removed,
 * or, for a mask, the source's characters); undefined when it is not.
 */
function cutAt(
  text: string,
  source: string,
  kind: CutKind,
): { head: number; tail: number } | undefined {
  return kind === TRUNCATION ? truncatedAt(text, source) : maskedAt(text, source);
}

/**
 * {@link cutAt} for a truncation: the marker is `defaultTruncationMarker` of the characters
 * removed, which the lengths tell (the marker's length depends on its count's digits only), so
 * the marker looked for is the one the strategy writes, built by the same function.
 */
function truncatedAt(text: string, source: string): { head: number; tail: number } | undefined {
  for (let digits = 1, probe = 1; digits <= 16; digits += 1, probe *= 10) {
    const markerLength = defaultTruncationMarker(probe).length;
    const removed = source.length - text.length + markerLength;
    if (removed < 0 || removed > source.length) continue;
    const marker = defaultTruncationMarker(removed);
    if (marker.length !== markerLength) continue;
    for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) {
      const tail = text.length - at - marker.length;
      if (source.startsWith(text.slice(0, at)) && source.endsWith(text.slice(at + marker.length)))
        return { head: at, tail };
    }
  }
  return undefined;
}

/**
 * {@link cutAt} for a mask: a marker naming the characters of the whole original, written as
 * `defaultMaskMarker` writes it for the lines it says it omitted.
 */
function maskedAt(text: string, source: string): { head: number; tail: number } | undefined {
  for (const match of text.matchAll(MASK_MARKER)) {
    const head = text.slice(0, match.index);
    const tail = text.slice(match.index + match[0].length);
    const originalChars = Number(match[5]);
    if (originalChars !== source.length) continue;
    const written = defaultMaskMarker({
      omittedLines: Number(match[4]),
      // Not written by the default marker: the text does not tell it, and it changes nothing.
      originalLines: 0,
      originalChars,
    });
    if (match[3] !== written) continue;
    if (head.length + tail.length > source.length) continue;
    if (!source.startsWith(head) || !source.endsWith(tail)) continue;
    return { head: head.length, tail: tail.length };
  }
  return undefined;
}
