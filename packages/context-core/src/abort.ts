import { ContextError } from './context-error.js';
import { AbortedError } from './error-families.js';

/** Throws a {@link ContextError} (`aborted`) when `signal` is aborted; `where` names the stage. */
export function throwIfAborted(signal: AbortSignal | undefined, where: string): void {
  if (signal?.aborted) {
    throw new AbortedError({
      message: `${where} was aborted.`,
      cause: signal.reason,
    });
  }
}
