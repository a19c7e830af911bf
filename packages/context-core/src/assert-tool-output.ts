import { ContextError } from './context-error.js';
import type { ToolOutputMeta } from './tool-output-store.js';

/** Throws a {@link ContextError} (`invalid_option`) for an output that is not a string or meta without a tool name. */
export function assertToolOutput(output: unknown, meta: unknown, source?: string): void {
  if (typeof output !== 'string') {
    throw new ContextError({
      code: 'invalid_option',
      source,
      message: `A tool output must be a string, got ${typeof output}.`,
    });
  }
  const toolName = (meta as ToolOutputMeta | undefined)?.toolName;
  if (typeof toolName !== 'string' || toolName.length === 0) {
    throw new ContextError({
      code: 'invalid_option',
      source,
      message: 'Tool output meta needs a non-empty toolName.',
    });
  }
}
