import type { Message, Part, TextPart, ToolResultPart } from '@ctxkit/context-core';
import type { AnthropicTextBlock } from './anthropic-message.js';
import { checkAnthropicShape } from './anthropic-shape.js';
import type { RedactedThinkingPart } from './redacted-thinking.js';
import { wireError } from './wire-shape.js';

const FORMAT = 'Anthropic';

/**
 * ctxkit messages for the `system` and `messages` of an Anthropic Messages request (other
 * request fields are ignored). `system` becomes one system message (string or text parts); a
 * user message's `tool_result` blocks become one tool message (tool names taken from the matching
 * `tool_use`, `is_error` as `isError`, no content as an empty output, text blocks joined by
 * newlines) followed by a user message for its other blocks; assistant blocks become parts in
 * order, `redacted_thinking` as a {@link RedactedThinkingPart}. Throws a `ContextError` naming
 * the index for malformed input (`invalid_wire`), for what ctxkit cannot carry such as images,
 * citations or cache control (`unsupported_wire`), for a `tool_result` before another block's
 * text or answering no earlier `tool_use`, and for a duplicate id.
 * `toAnthropic(fromAnthropic(request))` equals the request's `system` and `messages` when it
 * passes `validateAnthropic` and writes each `tool_result` content as a non-empty string.
 */
export function fromAnthropic(request: unknown): Message[] {
  const { system, messages } = checkAnthropicShape(request, 'strict');
  const output: Message[] = [];
  if (typeof system === 'string') output.push({ role: 'system', content: system });
  else if (system !== undefined && system.length > 0) {
    output.push({ role: 'system', content: system.map(textPart) });
  }
  const toolNames = new Map<string, string>();
  const answered = new Set<string>();
  messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (typeof message.content === 'string') {
      output.push({ role: message.role, content: message.content });
      return;
    }
    if (message.role === 'assistant') {
      const parts: Part[] = message.content.map((block, blockIndex): Part => {
        switch (block.type) {
          case 'text':
            return textPart(block);
          case 'thinking':
            return { type: 'thinking', text: block.thinking, signature: block.signature };
          case 'redacted_thinking': {
            const redacted: RedactedThinkingPart = {
              type: 'thinking',
              text: '',
              signature: block.data,
              redacted: true,
            };
            return redacted;
          }
          default:
            if (toolNames.has(block.id)) {
              throw wireError(
                FORMAT,
                `${path}.content[${blockIndex}].id`,
                index,
                `duplicate tool_use id ${JSON.stringify(block.id)}.`,
              );
            }
            toolNames.set(block.id, block.name);
            return {
              type: 'tool-call',
              toolCallId: block.id,
              toolName: block.name,
              input: block.input,
            };
        }
      });
      output.push({ role: 'assistant', content: parts });
      return;
    }
    const results: ToolResultPart[] = [];
    const rest: TextPart[] = [];
    message.content.forEach((block, blockIndex) => {
      const where = `${path}.content[${blockIndex}]`;
      if (block.type === 'text') {
        rest.push(textPart(block));
        return;
      }
      const id = block.tool_use_id;
      const toolName = toolNames.get(id);
      if (rest.length > 0) {
        throw wireError(
          FORMAT,
          where,
          index,
          'tool_result blocks must come before any other block.',
        );
      }
      if (toolName === undefined || answered.has(id)) {
        throw wireError(
          FORMAT,
          `${where}.tool_use_id`,
          index,
          toolName === undefined
            ? `${JSON.stringify(id)} answers no earlier tool_use.`
            : `${JSON.stringify(id)} is answered twice.`,
        );
      }
      answered.add(id);
      const content = block.content;
      const result: ToolResultPart = {
        type: 'tool-result',
        toolCallId: id,
        toolName,
        output:
          content === undefined
            ? ''
            : typeof content === 'string'
              ? content
              : content.map((inner) => inner.text).join('\n'),
      };
      if (block.is_error !== undefined) result.isError = block.is_error;
      results.push(result);
    });
    if (results.length > 0) output.push({ role: 'tool', content: results });
    if (rest.length > 0 || results.length === 0) output.push({ role: 'user', content: rest });
  });
  return output;
}

// --- internal helpers ---

function textPart(block: AnthropicTextBlock): TextPart {
  return { type: 'text', text: block.text };
}
