import type { Message } from '@ctxkit/context-core';

/** Options of {@link renderTranscript}. */
export interface RenderTranscriptOptions {
  /** Characters of each tool output and tool-call input kept (head and tail around a marker). */
  maxToolChars: number;
}

/**
 * The messages as plain text for a summarizing model, one block per message headed by its role
 * (`[user]`, `[assistant]`, `[tool call read_file]`, `[tool result read_file]`). Thinking is left
 * out; tool outputs and tool-call inputs longer than `maxToolChars` keep their start and end.
 */
export function renderTranscript(
  messages: readonly Message[],
  options: RenderTranscriptOptions,
): string {
  const blocks: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      blocks.push(`[${message.role}]\n${message.content}`);
      continue;
    }
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
          blocks.push(`[${message.role}]\n${part.text}`);
          break;
        case 'tool-call':
          blocks.push(
            `[tool call ${part.toolName}]\n${shorten(stringify(part.input), options.maxToolChars)}`,
          );
          break;
        case 'tool-result':
          blocks.push(
            `[tool result ${part.toolName}${part.isError ? ', error' : ''}]\n${shorten(part.output, options.maxToolChars)}`,
          );
          break;
        case 'thinking':
          break;
      }
    }
  }
  return blocks.join('\n\n');
}

// --- internal helpers ---

function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.ceil(maxChars / 2);
  const tail = maxChars - head;
  const removed = text.length - head - tail;
  return `${text.slice(0, head)}\n… [${removed} characters left out] …\n${tail > 0 ? text.slice(-tail) : ''}`;
}

function stringify(input: unknown): string {
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return String(input);
  }
}
