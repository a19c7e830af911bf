import type { CacheRequest, PromptSegment } from '../src/index.js';

/** Segments of the given sizes, keyed by position and a prefix-wide label. */
export function segments(label: string, ...tokens: number[]): PromptSegment[] {
  return tokens.map((count, index) => ({ key: `${label}-${index}`, tokens: count }));
}

/** A request at `minutes` after the start. */
export function at(
  minutes: number,
  prefix: PromptSegment[],
  breakpoints?: CacheRequest['breakpoints'],
): CacheRequest {
  return { at: minutes * 60_000, prefix, ...(breakpoints ? { breakpoints } : {}) };
}
