import { ContextError, InvalidMessageError } from '@ctxkit/context-core';
import { SOURCE } from './package-source.js';

/**
 * Turns a wire validation error about the output of `toOpenAIChat` / `toAnthropic` into a
 * {@link ContextError} (`invalid_message`) naming the input messages the broken wire message was
 * built from (`details.index`, and `details.lastIndex` when several were merged). Other errors
 * are returned unchanged.
 */
export function unsendableError(
  functionName: string,
  error: unknown,
  origins: readonly (readonly [number, number])[],
): unknown {
  if (!ContextError.isInstance(error, 'invalid_wire')) return error;
  const wireIndex = error.details.index;
  const origin = typeof wireIndex === 'number' ? origins[wireIndex] : undefined;
  const problem = `${String(error.details.path)}: ${String(error.details.problem)}`;
  if (!origin) {
    return new InvalidMessageError({
      code: 'invalid_message',
      source: SOURCE,
      message: `${functionName}: the messages cannot be sent: ${problem}`,
      details: { path: error.details.path },
      cause: error,
    });
  }
  const [first, last] = origin;
  const which = first === last ? `message ${first}` : `messages ${first}-${last}`;
  return new InvalidMessageError({
    code: 'invalid_message',
    source: SOURCE,
    message: `${functionName}: ${which} cannot be sent (run it through the assembler first): ${problem}`,
    details: {
      index: first,
      ...(first === last ? {} : { lastIndex: last }),
      wireIndex,
      path: error.details.path,
    },
    cause: error,
  });
}

/**
 * The {@link ContextError} (`invalid_message`, `details: { index, part }`) for a part that
 * `functionName` cannot put in its wire format, such as an opaque part: `problem` says why.
 */
export function unsendablePart(
  functionName: string,
  index: number,
  part: number,
  problem: string,
): InvalidMessageError {
  return new InvalidMessageError({
    code: 'invalid_message',
    source: SOURCE,
    message: `${functionName}: message ${index}, part ${part} cannot be sent: ${problem}`,
    details: { index, part },
  });
}

/**
 * The {@link ContextError} (`invalid_message`, `details: { index }`) for a system message after
 * the conversation started, which `functionName`'s wire format carries only in `where`.
 */
export function lateSystemMessage(
  functionName: string,
  index: number,
  where: string,
): InvalidMessageError {
  return new InvalidMessageError({
    code: 'invalid_message',
    source: SOURCE,
    message: `${functionName}: message ${index} is a system message after the conversation started; ${where} (the assembler moves system messages to the top).`,
    details: { index },
  });
}
