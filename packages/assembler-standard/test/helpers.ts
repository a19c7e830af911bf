import { readFileSync } from 'node:fs';
import type { Message, Part, ToolCallPart, ToolResultPart } from '@ctxkit/context-core';

/** A request body from `__fixtures__`, parsed. */
export function readFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));
}

export function system(content: string): Message {
  return { role: 'system', content };
}

export function user(content: string | Part[], meta?: Message['meta']): Message {
  return meta ? { role: 'user', content, meta } : { role: 'user', content };
}

export function assistant(content: string | Part[], meta?: Message['meta']): Message {
  return meta ? { role: 'assistant', content, meta } : { role: 'assistant', content };
}

export function text(value: string): Part {
  return { type: 'text', text: value };
}

export function callPart(
  id: string,
  toolName = 'read_file',
  input: unknown = { path: id },
): ToolCallPart {
  return { type: 'tool-call', toolCallId: id, toolName, input };
}

export function resultPart(
  id: string,
  output = `output of ${id}`,
  toolName = 'read_file',
): ToolResultPart {
  return { type: 'tool-result', toolCallId: id, toolName, output };
}

/** An assistant message calling `read_file` once per id. */
export function calls(...ids: string[]): Message {
  return { role: 'assistant', content: ids.map((id) => callPart(id)) };
}

/** A tool message with one `read_file` result per id. */
export function results(...ids: string[]): Message {
  return { role: 'tool', content: ids.map((id) => resultPart(id)) };
}
