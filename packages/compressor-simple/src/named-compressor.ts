import type { ContextCompressor } from '@ctxkit/context-core';

/** `compressor` under another name (a preset's, instead of its stages' `a > b > c`). */
export function namedCompressor(name: string, compressor: ContextCompressor): ContextCompressor {
  return Object.freeze({ ...compressor, name });
}
