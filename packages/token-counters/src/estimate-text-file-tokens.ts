import type { TokenCounter } from '@ctxkit/context-core';
import { checkInteger, invalidOption } from './check-option.js';

/** A text file sent to a model (plain text, Markdown, CSV, JSON, code): its text or its size. */
export interface TextFile {
  /** The file's text, when at hand: counted exactly with the counter. */
  readonly text?: string;
  /** The file's size in bytes (UTF-8), used when the text is not at hand. */
  readonly byteLength?: number;
}

/**
 * An estimate of the input tokens of a text file: its text counted with `counter` when the text
 * is at hand; otherwise its byte length, an upper bound (a byte-level tokenizer never makes a
 * token of less than one byte, so a file cannot cost more tokens than it has bytes). Providers
 * put a text file's text into the context (Gemini: "other types will be extracted as pure text");
 * the few tokens of a provider's wrapping around a file are not counted.
 *
 * @param file - The file's text, or its size in bytes.
 * @param counter - The text counter for the target model.
 * @returns the file's estimated input tokens
 * @throws InvalidOptionError (`invalid_option`) when neither `text` nor `byteLength` is given,
 *   `text` is not a string, or `byteLength` is not a non-negative integer
 * @see https://ai.google.dev/gemini-api/docs/document-processing ("Document types")
 */
export function estimateTextFileTokens(file: TextFile, counter: TokenCounter): number {
  const caller = 'estimateTextFileTokens';
  if (typeof file !== 'object' || file === null) {
    throw invalidOption(caller, 'file', file, 'an object with text or byteLength');
  }
  if (file.text !== undefined) {
    if (typeof file.text !== 'string') throw invalidOption(caller, 'text', file.text, 'a string');
    return counter.count(file.text);
  }
  if (file.byteLength === undefined) {
    throw invalidOption(caller, 'file', file, 'an object with text or byteLength');
  }
  return checkInteger(caller, 'byteLength', file.byteLength, 0, 'a non-negative integer');
}
