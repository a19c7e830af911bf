import {
  type Message,
  messageParts,
  type OptionKeys,
  optionChecker,
  type Part,
  partLabel,
  type Role,
  toolOutputText,
} from '@ctxkit/context-core';
import { SOURCE } from './summarizer-source.js';

/** Options of {@link renderTranscript}. */
export interface RenderTranscriptOptions {
  /** Characters of each tool output, tool-call input and reasoning kept (head and tail around a marker). */
  maxToolChars: number;
}

/**
 * The messages as plain text for a summarizing model, one block per part headed by its role
 * (`[user]`, `[assistant]`, `[assistant reasoning]`, `[tool call read_file]`,
 * `[tool result read_file]`). Text is given whole; reasoning (and the deprecated `thinking`
 * part) by its readable text, never its signature, redacted or encrypted data; tool outputs of
 * every shape by their text (`toolOutputText`: JSON as JSON text, content with its images and
 * files named). Images, files, opaque parts and tool approvals are named by `partLabel` (such as
 * `[image image/png, 1.0 MB]`), never given by their bytes. Reasoning, tool outputs and tool-call
 * inputs longer than `maxToolChars` keep their start and end.
 *
 * @param messages - the messages to render, oldest first
 * @param options - how much of each tool output, tool-call input and reasoning is kept
 * @returns the transcript, its blocks separated by blank lines
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take
 */
export function renderTranscript(
  messages: readonly Message[],
  options: RenderTranscriptOptions,
): string {
  const blocks: string[] = [];
  optionChecker(SOURCE, 'renderTranscript').knownKeys(options, OPTION_KEYS);
  for (const message of messages) {
    for (const part of messageParts(message)) {
      const block = renderPart(message.role, part, options.maxToolChars);
      if (block !== undefined) blocks.push(block);
    }
  }
  return blocks.join('\n\n');
}

// --- internal helpers ---

/** The block of one part; `undefined` for reasoning without readable text. */
function renderPart(role: Role, part: Part, maxChars: number): string | undefined {
  switch (part.type) {
    case 'text':
      return `[${role}]\n${part.text}`;
    case 'reasoning':
    case 'thinking':
      return part.text === '' ? undefined : `[${role} reasoning]\n${shorten(part.text, maxChars)}`;
    case 'tool-call':
      return `[tool call ${part.toolName}${part.providerExecuted ? ', run by the provider' : ''}]\n${shorten(stringify(part.input), maxChars)}`;
    case 'tool-result':
      return `[tool result ${part.toolName}${part.isError ? ', error' : ''}]\n${shorten(toolOutputText(part.output), maxChars)}`;
    default:
      return `[${role}]\n${partLabel(part)}`;
  }
}

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

const OPTION_KEYS = Object.freeze({
  maxToolChars: true,
} satisfies OptionKeys<RenderTranscriptOptions>);
