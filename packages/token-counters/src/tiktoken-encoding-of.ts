import type { TiktokenEncodingName } from './tiktoken-counter.js';

/**
 * The tiktoken encoding of an OpenAI model: `cl100k_base` for gpt-3.5 and gpt-4 (`gpt-4`,
 * `gpt-4-…`, not `gpt-4o` or `gpt-4.1`), `o200k_base` for the rest, which is also the estimate
 * for models whose tokenizer is not public. A provider prefix (`openai/gpt-4`) is ignored.
 *
 * @param model - the model id
 * @returns the encoding's name
 */
export function tiktokenEncodingOf(model: string): TiktokenEncodingName {
  const base = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  return /^gpt-(3\.5|4)(-|$)/.test(base) ? 'cl100k_base' : 'o200k_base';
}
