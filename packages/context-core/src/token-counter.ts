import type { FilePart, ImagePart } from './message.js';

/**
 * Counts the tokens of a piece of text for one tokenizer, and optionally of images and files.
 *
 * Any tokenizer plugs in: wrap its encoder in an object with a stable `name` and a `count`
 * method. The name identifies the counts it produces: a cached {@link Message.tokens} is reused
 * only by a counter with the same name, so two counters that can disagree must not share one.
 * A counter without `countMedia` prices images and files by `estimateMediaTokens`.
 *
 * @example
 * ```ts
 * import { countTokens as gptCount } from 'gpt-tokenizer/encoding/o200k_base';
 * const counter: TokenCounter = { name: 'gpt-tokenizer:o200k_base', count: (text) => gptCount(text) };
 * ```
 */
export interface TokenCounter {
  /** Stable identifier of the tokenizer and its settings, stored beside cached counts. */
  readonly name: string;
  /**
   * Number of tokens in `text`. Must be deterministic, must not throw for any string.
   *
   * @param text - any string
   * @returns its tokens
   */
  count(text: string): number;
  /**
   * Tokens an image or file costs the model this counter is for (its name must then say which
   * pricing it applies). Must be deterministic, must not throw for a valid part.
   *
   * @param part - the image or file part
   * @returns its tokens
   */
  countMedia?(part: ImagePart | FilePart): number;
}
