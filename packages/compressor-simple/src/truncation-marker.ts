/**
 * Builds the text that stands where characters were cut out; it is told how many were removed.
 *
 * @param removedChars - how many characters were cut out
 * @returns the text put in their place
 */
export type TruncationMarker = (removedChars: number) => string;

/**
 * The default {@link TruncationMarker}: `\n\n... [N characters truncated] ...\n\n`.
 *
 * @param removedChars - how many characters were cut out
 * @returns the text put in their place
 */
export const defaultTruncationMarker: TruncationMarker = (removedChars) =>
  `\n\n... [${removedChars} characters truncated] ...\n\n`;
