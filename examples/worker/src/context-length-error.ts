import { ContextError, ContextLengthError, type ContextLengthFigures } from '@ctxkit/context-core';

/**
 * What a model API said when it rejected a prompt as too long: its message, and the window and
 * the requested tokens when it named them (read by `contextLengthFigures`).
 */
export interface ContextLengthInfo extends ContextLengthFigures {
  /** The API's own message. */
  message: string;
}

/** The error code the worker's models throw for a prompt that does not fit the model's window. */
export const CONTEXT_LENGTH_EXCEEDED = 'context_length_exceeded';

/** The `ContextError` a model throws for a context-length rejection, with the API's figures in `details`. */
export function contextLengthExceeded(
  info: ContextLengthInfo,
  where: { model: string; status?: number },
): ContextLengthError {
  return new ContextLengthError({
    source: 'example-worker',
    message: `Model ${where.model} rejected the prompt as longer than its context window${
      where.status === undefined ? '' : ` (HTTP ${where.status})`
    }: ${info.message}`,
    details: { ...where, ...info },
  });
}

/** Whether `error` is a context-length rejection thrown by one of the worker's models. */
export function isContextLengthExceeded(error: unknown): error is ContextError {
  return ContextError.isInstance(error, CONTEXT_LENGTH_EXCEEDED);
}
