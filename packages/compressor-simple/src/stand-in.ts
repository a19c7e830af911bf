import { type FilePart, type ImagePart, partLabel, type TextPart } from '@ctxkit/context-core';

/**
 * The text part that takes the place of a removed image or file: its label (`[image image/png,
 * 12.0 KB]`, `[file report.pdf, application/pdf, 2.1 MB]`), with the part's `providerOptions`
 * kept, so that a cache breakpoint on it stays where it was.
 */
export function standIn(part: ImagePart | FilePart): TextPart {
  return part.providerOptions === undefined
    ? { type: 'text', text: partLabel(part) }
    : { type: 'text', text: partLabel(part), providerOptions: part.providerOptions };
}
