import {
  countMessageTokens,
  type Message,
  messageParts,
  messageText,
  type TokenCounter,
  toolCallsOf,
  toolOutputText,
  toolResultsOf,
} from '@ctxkit/context-core';

/** A tool output that reached the model shorter than it was. */
export interface CutToolResult {
  /** The call it answers. */
  toolCallId: string;
  /** The tool that produced it. */
  toolName: string;
  /** Characters of its text before (`toolOutputText`). */
  fromChars: number;
  /** Characters of its text sent. */
  toChars: number;
}

/** What a compression did to individual messages, for the task log line. */
export interface CompressionDetails {
  /** Messages of the input missing from the output. */
  droppedMessages: number;
  /** Their tokens, by the counter. */
  droppedTokens: number;
  /** Tool outputs sent shorter than they were. */
  cutToolResults: CutToolResult[];
  /** Other messages whose text was cut. */
  cutMessages: number;
}

/**
 * Compares the messages a compressor was given with the prompt that was sent, by message `id`
 * (messages without one, like the system prompt, are ignored): which were dropped and with how
 * many tokens, which tool outputs were cut and from how many characters of text to how many. A
 * message counts as changed when its kinds of parts, its text (`messageText`: images and files
 * by their labels) or its tool calls differ.
 */
export function compressionDetails(
  before: readonly Message[],
  after: readonly Message[],
  counter: TokenCounter,
): CompressionDetails {
  const sent = new Map<string, Message>();
  for (const message of after) if (message.id !== undefined) sent.set(message.id, message);
  const details: CompressionDetails = {
    droppedMessages: 0,
    droppedTokens: 0,
    cutToolResults: [],
    cutMessages: 0,
  };
  for (const original of before) {
    if (original.id === undefined) continue;
    const copy = sent.get(original.id);
    if (copy === undefined) {
      details.droppedMessages += 1;
      details.droppedTokens += countMessageTokens(original, counter);
      continue;
    }
    if (copy === original || copy.content === original.content || sameText(copy, original))
      continue;
    const results = toolResultsOf(original);
    if (results.length === 0) {
      details.cutMessages += 1;
      continue;
    }
    const sentResults = new Map(toolResultsOf(copy).map((part) => [part.toolCallId, part]));
    for (const part of results) {
      const shorter = sentResults.get(part.toolCallId);
      if (shorter === undefined) continue;
      const fromChars = toolOutputText(part.output).length;
      const toChars = toolOutputText(shorter.output).length;
      if (toChars < fromChars) {
        details.cutToolResults.push({
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          fromChars,
          toChars,
        });
      }
    }
  }
  return details;
}

// --- internal helpers ---

/**
 * Whether two messages read the same: the same kinds of parts in the same order, the same text
 * and the same tool calls (JSON data). Bytes are not compared: a compressor keeps an image whole
 * or replaces it with text.
 */
function sameText(a: Message, b: Message): boolean {
  const kinds = (message: Message) =>
    messageParts(message)
      .map((part) => part.type)
      .join();
  return (
    kinds(a) === kinds(b) &&
    messageText(a) === messageText(b) &&
    JSON.stringify(toolCallsOf(a)) === JSON.stringify(toolCallsOf(b))
  );
}
