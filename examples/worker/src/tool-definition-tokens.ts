import type { TokenCounter } from '@ctxkit/context-core';
import type { ToolDefinition } from './chat-model.js';

/** Tokens the tool definitions add to every request, counted as sent: the JSON of the chat-completions `tools` field. */
export function toolDefinitionTokens(
  definitions: readonly ToolDefinition[],
  counter: TokenCounter,
): number {
  if (definitions.length === 0) return 0;
  return counter.count(
    JSON.stringify(definitions.map((definition) => ({ type: 'function', function: definition }))),
  );
}
