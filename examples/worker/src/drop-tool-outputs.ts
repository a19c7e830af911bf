import { type Message, type TokenCounter, toolResultsOf, withContent } from '@ctxkit/context-core';

/** A tool output found by {@link largestToolOutput}. */
export interface ToolOutputRef {
  /** The call it answers. */
  toolCallId: string;
  /** The tool that produced it. */
  toolName: string;
  /** Its length in characters. */
  chars: number;
}

/** The longest tool output in `messages` whose call is not in `exclude`, or `undefined` if none is left. */
export function largestToolOutput(
  messages: readonly Message[],
  exclude: ReadonlySet<string>,
): ToolOutputRef | undefined {
  let largest: ToolOutputRef | undefined;
  for (const message of messages) {
    for (const part of toolResultsOf(message)) {
      if (exclude.has(part.toolCallId)) continue;
      if (largest === undefined || part.output.length > largest.chars) {
        largest = {
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          chars: part.output.length,
        };
      }
    }
  }
  return largest;
}

/**
 * `messages` with the outputs of the given calls replaced by a one-line notice (the result part
 * stays, so every call keeps its result). Messages that change are copies with a fresh count;
 * the others are the same objects. The input is not mutated.
 */
export function withoutToolOutputs(
  messages: readonly Message[],
  toolCallIds: ReadonlySet<string>,
  counter: TokenCounter,
): Message[] {
  if (toolCallIds.size === 0) return [...messages];
  return messages.map((message) => {
    if (
      typeof message.content === 'string' ||
      !toolResultsOf(message).some((part) => toolCallIds.has(part.toolCallId))
    ) {
      return message;
    }
    const content = message.content.map((part) =>
      part.type === 'tool-result' && toolCallIds.has(part.toolCallId)
        ? {
            ...part,
            output: `[output of ${part.toolName} dropped: its ${part.output.length} characters did not fit the model's context window]`,
          }
        : part,
    );
    return withContent(message, content, counter);
  });
}
