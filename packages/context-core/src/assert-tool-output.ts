import { ContextError } from './context-error.js';
import { assertConversationId } from './conversation-id.js';
import { InvalidOptionError } from './error-families.js';
import { jsonDataProblem } from './json-data.js';
import type { ToolOutputMeta } from './tool-output-store.js';

/**
 * Checks what `ToolOutputStore.put` is given: throws a {@link ContextError} (`invalid_option`)
 * for an invalid conversation id, an output that is not a string, meta that is not an object of
 * JSON data reading back as written (see `jsonDataProblem`), meta without a tool name, or meta
 * whose `conversationId` names another conversation than the one the output is stored for.
 *
 * @param conversationId - the conversation the output is stored for
 * @param output - the tool's output
 * @param meta - the output's metadata
 * @param source - the package named in the error
 * @throws InvalidOptionError (`invalid_option`) naming what is wrong, as listed above
 */
export function assertToolOutput(
  conversationId: unknown,
  output: unknown,
  meta: unknown,
  source?: string,
): asserts conversationId is string {
  assertConversationId(conversationId, source);
  if (typeof output !== 'string') {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source,
      message: `A tool output must be a string, got ${typeof output}.`,
    });
  }
  const problem = jsonDataProblem(meta, 'meta');
  if (problem !== undefined || typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source,
      message: `Tool output meta must be an object of JSON data: ${problem ?? 'it is not an object.'}`,
    });
  }
  const { toolName, conversationId: named } = meta as Partial<ToolOutputMeta>;
  if (typeof toolName !== 'string' || toolName.length === 0) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source,
      message: 'Tool output meta needs a non-empty toolName.',
    });
  }
  if (named !== undefined && named !== conversationId) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source,
      message: `Tool output meta names conversation ${JSON.stringify(named) ?? String(named)}, but the output is stored for ${JSON.stringify(conversationId)}.`,
      details: { conversationId, metaConversationId: named },
    });
  }
}
