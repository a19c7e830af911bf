import type { TokenCounter, ToolDefinition } from '@ctxkit/context-core';
import {
  countAnthropicToolTokens,
  countGeminiToolTokens,
  countOpenAIToolTokens,
} from '@ctxkit/token-counters';
import { modelProvider } from './model-provider.js';

/**
 * Tokens a list of tool definitions adds to a request to `modelId`, by its provider's formula
 * (see `countOpenAIToolTokens`, `countAnthropicToolTokens`, `countGeminiToolTokens`), with their
 * schemas, whatever their shape (see `toolDeclarationOf`).
 *
 * @param tools - the tool definitions sent with the request
 * @param counter - the text counter
 * @param modelId - the model id; without one, OpenAI's formula for gpt-4o
 * @returns their tokens (0 for none)
 * @throws InvalidOptionError (`invalid_option`) naming the first malformed definition
 */
export function countToolDefinitions(
  tools: readonly ToolDefinition[],
  counter: TokenCounter,
  modelId: string | undefined,
): number {
  switch (modelProvider(modelId)) {
    case 'anthropic':
      return countAnthropicToolTokens(tools, counter, modelId as string);
    case 'gemini':
      return countGeminiToolTokens(tools, counter);
    default:
      return countOpenAIToolTokens(tools, counter, modelId);
  }
}
