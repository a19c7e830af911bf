import { ContextError } from './context-error.js';
import { AbortedError } from './error-families.js';

/**
 * Throws a {@link ContextError} (`aborted`) when `signal` is aborted; `where` names the stage.
 *
 * @param signal - the caller's signal, if any
 * @param where - the stage that stops, such as `Compression`, named in the message
 * @throws AbortedError (`aborted`) when `signal` is aborted, with its reason as `cause`
 */
export function throwIfAborted(signal: AbortSignal | undefined, where: string): void {
  if (signal?.aborted) {
    throw new AbortedError({
      message: `${where} was aborted.`,
      cause: signal.reason,
    });
  }
}
