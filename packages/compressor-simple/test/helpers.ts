import {
  type CompressionReport,
  type ContextCompressor,
  type FilePart,
  type ImagePart,
  type Message,
  type TokenBudget,
  type TokenCounter,
  type ToolResultOutput,
  toolResultsOf,
} from '@ctxkit/context-core';
import { deepFreeze } from '@ctxkit/context-core/testing';

/** One character is one token: easy to reason about. */
export const charCounter: TokenCounter = Object.freeze({
  name: 'test:chars',
  count: (text: string) => text.length,
});

/** Runs `compressor` on a deep-frozen copy of `messages` with `counter`. */
export async function run(
  compressor: ContextCompressor,
  messages: readonly Message[],
  budget: TokenBudget,
  counter: TokenCounter = charCounter,
): Promise<{ messages: Message[]; report: CompressionReport }> {
  return compressor.compress(deepFreeze(messages), deepFreeze(budget), { counter });
}

/** Gives every message an id `m0`, `m1`, … in order. */
export function withIds(messages: readonly Message[]): Message[] {
  return messages.map((message, index) => ({ ...message, id: `m${index}` }));
}

export function system(text: string): Message {
  return { role: 'system', content: text };
}

export function user(text: string, meta?: Message['meta']): Message {
  return meta ? { role: 'user', content: text, meta } : { role: 'user', content: text };
}

export function assistant(text: string): Message {
  return { role: 'assistant', content: text };
}

/** An assistant message that thinks, then says `text`. */
export function thinking(thought: string, text?: string): Message {
  return {
    role: 'assistant',
    content: [
      { type: 'thinking', text: thought, signature: 'sig' },
      ...(text === undefined ? [] : [{ type: 'text' as const, text }]),
    ],
  };
}

/** An assistant message calling `ids`, each with `read_file`. */
export function call(...ids: string[]): Message {
  return {
    role: 'assistant',
    content: ids.map((toolCallId) => ({
      type: 'tool-call' as const,
      toolCallId,
      toolName: 'read_file',
      input: { path: `/srv/${toolCallId}` },
    })),
  };
}

/** A tool message answering `id` with `output`. */
export function result(id: string, output: ToolResultOutput): Message {
  return {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output }],
  };
}

/** `count` numbered lines of about `width` characters each, joined by line feeds. */
export function lines(count: number, width = 40): string {
  return Array.from({ length: count }, (_, index) => `line ${index} `.padEnd(width, 'x')).join(
    '\n',
  );
}

/** Every tool output of `messages`, oldest first. */
export function outputs(messages: readonly Message[]): ToolResultOutput[] {
  return messages.flatMap((message) => toolResultsOf(message).map((part) => part.output));
}

/** An inline PNG image of `kilobytes` KB (its label reads `[image image/png, N.0 KB]`). */
export function png(kilobytes: number): ImagePart {
  return { type: 'image', image: new Uint8Array(kilobytes * 1024), mediaType: 'image/png' };
}

/** A PDF file given by URL. */
export function pdf(name: string): FilePart {
  return {
    type: 'file',
    data: new URL(`https://files.example/${name}`),
    mediaType: 'application/pdf',
    filename: name,
  };
}

/** Characters of a tool output's text: a string's, a JSON output's JSON text, a content output's text items. */
export function outputTextChars(output: ToolResultOutput): number {
  if (typeof output === 'string') return output.length;
  if (output.type === 'json') return JSON.stringify(output.value).length;
  return output.value.reduce((sum, item) => sum + (item.type === 'text' ? item.text.length : 0), 0);
}
