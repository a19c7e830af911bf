import {
  ContextError,
  type Message,
  messageParts,
  type ToolOutputStore,
  toolOutputText,
} from '@ctxkit/context-core';
import { executeGetToolOutput } from '@ctxkit/tool-output-store';

/**
 * Everything a model reads of `messages` as one text: texts, reasoning, tool call arguments (as
 * JSON) and tool outputs (as their text).
 *
 * @param messages - the messages sent
 * @returns their text, one part per line
 */
export function sentText(messages: readonly Message[]): string {
  const pieces: string[] = [];
  for (const message of messages) {
    for (const part of messageParts(message)) {
      if (part.type === 'text' || part.type === 'reasoning' || part.type === 'thinking') {
        pieces.push(part.text);
      } else if (part.type === 'tool-call') {
        pieces.push(JSON.stringify(part.input));
      } else if (part.type === 'tool-result') {
        pieces.push(toolOutputText(part.output));
      }
    }
  }
  return pieces.join('\n');
}

/**
 * Tool results whose call is not sent before them, and tool calls whose result is not sent (a
 * call in the last message, still waiting for its result, is not counted).
 *
 * @param messages - the messages sent
 * @returns how many of either
 */
export function countOrphans(messages: readonly Message[]): number {
  const calls = new Set<string>();
  const answered = new Set<string>();
  let orphans = 0;
  for (const message of messages) {
    for (const part of messageParts(message)) {
      if (part.type === 'tool-call' && !part.providerExecuted) calls.add(part.toolCallId);
      if (part.type === 'tool-result' && message.role === 'tool') {
        if (calls.has(part.toolCallId)) answered.add(part.toolCallId);
        else orphans++;
      }
    }
  }
  const last = messages.at(-1);
  const pending = new Set(
    last === undefined
      ? []
      : messageParts(last)
          .filter((part) => part.type === 'tool-call')
          .map((part) => part.toolCallId),
  );
  for (const id of calls) if (!answered.has(id) && !pending.has(id)) orphans++;
  return orphans;
}

/**
 * Whether the messages sent still hold the task's first user message, as it was (a copy with the
 * same content counts).
 *
 * @param messages - the messages sent
 * @param first - the task's first user message
 * @returns whether it is there
 */
export function holdsFirstInstruction(messages: readonly Message[], first: Message): boolean {
  const content = JSON.stringify(first.content);
  return messages.some(
    (message) =>
      message === first ||
      (message.role === first.role && JSON.stringify(message.content) === content),
  );
}

/**
 * Whether a fact can be read from a request: its text is in what is sent, or a tool-output
 * reference in what is sent leads `get_tool_output` (a grep for its start) to it.
 *
 * @param fact - the fact's text
 * @param text - what is sent, as {@link sentText} gives it
 * @param store - where the strategy offloaded outputs, if it does
 * @param conversationId - the task's conversation
 * @returns whether it is reachable
 */
export async function isFactReachable(
  fact: string,
  text: string,
  store: ToolOutputStore | undefined,
  conversationId: string,
): Promise<boolean> {
  if (text.includes(fact)) return true;
  if (store === undefined) return false;
  const grep = escapeRegExp(fact.slice(0, 60));
  for (const ref of new Set(text.match(/toolout_[0-9a-f]{16}/g) ?? [])) {
    // A ref-like string the strategy never stored (a tool output may quote one) leads nowhere.
    const found = await executeGetToolOutput(store, conversationId, {
      ref,
      grep,
      max_chars: 20_000,
    }).catch((error: unknown) => {
      if (ContextError.isInstance(error) && error.code === 'unknown_ref') return '';
      throw error;
    });
    // The first line is the tool's header, which repeats the pattern: only the selection counts.
    if (found.slice(found.indexOf('\n') + 1).includes(fact)) return true;
  }
  return false;
}

// --- internal helpers ---

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
