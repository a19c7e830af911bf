import type { TokenCounter, ToolDefinition } from '@ctxkit/context-core';
import { checkToolDeclarations } from './tool-declaration.js';

/**
 * An estimate of the input tokens a list of function declarations adds to a Gemini request: each
 * declaration as the JSON the API receives — `{"name":…,"description":…,"parameters":…}` —
 * counted with `counter`. Google publishes no framing for function declarations (and no
 * tokenizer for Gemini); `countTokens` on the API gives the exact figure. No tools cost nothing.
 *
 * @param tools - The function declarations sent with the request, in any shape
 *   `toolDeclarationOf` takes, counted with their schema.
 * @param counter - A text counter standing in for Gemini's tokenizer.
 * @returns the estimated tokens of the declarations
 * @throws InvalidOptionError (`invalid_option`) when a definition is none of the shapes, has no
 *   name, a description that is not a string, or a schema that is not JSON Schema (nor converts
 *   to it)
 * @see https://ai.google.dev/gemini-api/docs/function-calling ("Function declarations")
 */
export function countGeminiToolTokens(
  tools: readonly ToolDefinition[],
  counter: TokenCounter,
): number {
  const declarations = checkToolDeclarations(tools, 'countGeminiToolTokens');
  let total = 0;
  for (const tool of declarations) {
    total += counter.count(
      JSON.stringify({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      }),
    );
  }
  return total;
}
