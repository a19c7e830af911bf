import {
  type Message,
  type TokenCounter,
  toolOutputText,
  toolResultsOf,
  withContent,
} from '@ctxkit/context-core';

/** A tool output found by {@link largestToolOutput}. */
export interface ToolOutputRef {
  /** The call it answers. */
  toolCallId: string;
  /** The tool that produced it. */
  toolName: string;
  /** The length of its text in characters (`toolOutputText`). */
  chars: number;
}

/**
 * The tool output with the longest text (`toolOutputText`) in `messages` whose call is not in
 * `exclude`, or `undefined` if none is left.
 */
export function largestToolOutput(
  messages: readonly Message[],
  exclude: ReadonlySet<string>,
): ToolOutputRef | undefined {
  let largest: ToolOutputRef | undefined;
  for (const message of messages) {
    for (const part of toolResultsOf(message)) {
      if (exclude.has(part.toolCallId)) continue;
      const chars = toolOutputText(part.output).length;
      if (largest === undefined || chars > largest.chars) {
        largest = { toolCallId: part.toolCallId, toolName: part.toolName, chars };
      }
    }
  }
  return largest;
}

/**
 * `messages` with the outputs of the given calls replaced by a one-line notice, a string (the
 * result part stays, with its id, name, `isError` and `providerOptions`, so every call keeps its
 * result); images and files of a dropped content output go with it. Messages that change are copies with a fresh count;
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
            output: `[output of ${part.toolName} dropped: its ${toolOutputText(part.output).length} characters did not fit the model's context window]`,
          }
        : part,
    );
    return withContent(message, content, counter);
  });
}
