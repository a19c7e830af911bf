/** Builds the text that stands where characters were cut out; it is told how many were removed. */
export type TruncationMarker = (removedChars: number) => string;

/** The default {@link TruncationMarker}: `\n\n... [N characters truncated] ...\n\n` (seed 000). */
export const defaultTruncationMarker: TruncationMarker = (removedChars) =>
  `\n\n... [${removedChars} characters truncated] ...\n\n`;
