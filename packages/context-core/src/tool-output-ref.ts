import type { ContextError } from './context-error.js';
import { StorageError } from './error-families.js';

const REF_PATTERN = /^toolout_[0-9a-f]{16}$/;

/**
 * A new random tool output reference: `toolout_` and 16 hex digits (64 bits from Web Crypto's
 * `crypto.getRandomValues`, which Node 20, browsers and edge runtimes all provide).
 *
 * @returns the reference
 */
export function createToolOutputRef(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return `toolout_${hex}`;
}

/**
 * The tool output references written in `text`, each once, in order of first appearance: what a
 * summary must carry on for the model to read those outputs back.
 *
 * @param text - any text, such as a tool result's offload header
 * @returns the references found
 */
export function toolOutputRefsIn(text: string): string[] {
  return [...new Set(text.match(/toolout_[0-9a-f]{16}/g) ?? [])];
}

/**
 * Throws a {@link ContextError} (`unknown_ref`) unless `ref` has the shape of a reference.
 *
 * @param ref - the value to check
 * @param source - the package named in the error
 * @throws StorageError (`unknown_ref`) when `ref` is not `toolout_` and 16 hex digits
 */
export function assertToolOutputRef(ref: unknown, source?: string): asserts ref is string {
  if (typeof ref !== 'string' || !REF_PATTERN.test(ref)) {
    throw new StorageError({
      code: 'unknown_ref',
      source,
      message: `${JSON.stringify(ref) ?? String(ref)} is not a tool output reference (expected toolout_ and 16 hex digits).`,
      details: { ref },
    });
  }
}

/**
 * The {@link ContextError} (`unknown_ref`) for a well-formed reference that a store does not hold
 * for `conversationId`. A store throws it alike for a reference never stored, evicted, or stored
 * for another conversation, so the error never tells that another conversation's output exists.
 *
 * @param ref - the reference
 * @param conversationId - the conversation that asked for it
 * @param source - the package named in the error
 * @returns the error, to throw
 */
export function unknownToolOutputRef(
  ref: string,
  conversationId: string,
  source?: string,
): ContextError {
  return new StorageError({
    code: 'unknown_ref',
    source,
    message: `Conversation ${JSON.stringify(conversationId)} has no tool output under ${ref}: it was never stored for this conversation, or has been evicted.`,
    details: { ref, conversationId },
  });
}
