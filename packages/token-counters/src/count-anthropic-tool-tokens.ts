import type { TokenCounter, ToolDefinition } from '@ctxkit/context-core';
import {
  type AnthropicToolChoice,
  anthropicToolSystemPromptTokens,
} from './anthropic-tool-system-prompt-tokens.js';
import { checkToolDeclarations } from './tool-declaration.js';

/**
 * An estimate of the input tokens a list of tools adds to an Anthropic request: the tool-use
 * system prompt Anthropic adds for the model and `tool_choice` (published, per model), plus each
 * tool as the JSON the API receives — `{"name":…,"description":…,"input_schema":…}` — counted
 * with `counter`. Anthropic publishes no tokenizer and no rendering of the tools, so the second
 * part is an estimate: pass a counter that leans high (a tiktoken count with a margin, or the
 * heuristic) for Claude. No tools cost nothing.
 *
 * @param tools - The tool definitions sent with the request, in any shape `toolDeclarationOf`
 *   takes (Anthropic's `input_schema`, ctxkit's `parameters`, ...), counted with their schema.
 * @param counter - A text counter standing in for Claude's tokenizer.
 * @param model - The Claude model id, for the system prompt's size.
 * @param toolChoice - The request's `tool_choice` type; `auto` by default.
 * @returns the estimated tokens of the tools
 * @throws InvalidOptionError (`invalid_option`) when a definition is none of the shapes or is
 *   malformed (its schema not JSON Schema, nor converted to it), `model` is
 *   empty or `toolChoice` is not one of `auto`, `none`, `any`, `tool`
 * @see https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview ("Pricing")
 */
export function countAnthropicToolTokens(
  tools: readonly ToolDefinition[],
  counter: TokenCounter,
  model: string,
  toolChoice: AnthropicToolChoice = 'auto',
): number {
  const declarations = checkToolDeclarations(tools, 'countAnthropicToolTokens');
  const systemPrompt = anthropicToolSystemPromptTokens(model, toolChoice);
  if (declarations.length === 0) return 0;
  let total = systemPrompt;
  for (const tool of declarations) {
    total += counter.count(
      JSON.stringify({
        name: tool.name,
        description: tool.description,
        input_schema: tool.parameters ?? { type: 'object' },
      }),
    );
  }
  return total;
}
