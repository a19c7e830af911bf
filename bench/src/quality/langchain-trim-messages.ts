import { countMessageTokens, type Message, type Part } from '@ctxkit/context-core';
import { toLangChainMessages } from '@ctxkit/langchain';
import { type BaseMessage, trimMessages } from '@langchain/core/messages';
import type { QualityStrategy } from './strategies.js';

/**
 * LangChain.js `trimMessages` as its docs set it up for a chat history (`strategy: 'last'`, no
 * partial messages), with `startOn` widened to AI messages so that an agent's tool loop is not cut
 * back to its last human message, and the run's counter. Messages go through `@ctxkit/langchain`'s
 * `toLangChainMessages` and come back by id (LangChain copies them), so what it drops is exactly
 * what is not sent.
 *
 * @returns the strategy
 */
export function langchainTrimMessages(): QualityStrategy {
  return {
    name: 'LangChain trimMessages',
    start: (context) => {
      const converted = new WeakMap<Message, BaseMessage[]>();
      const origins = new Map<string, Origin>();
      const toLangChain = (message: Message): BaseMessage[] => {
        const known = converted.get(message);
        if (known !== undefined) return known;
        const parts = typeof message.content === 'string' ? [] : message.content;
        const results = parts.filter((part) => part.type === 'tool-result');
        const messages = toLangChainMessages([message]);
        messages.forEach((langchain, index) => {
          const id = `lc-${origins.size}`;
          langchain.id = id;
          // A tool message with several results becomes one ToolMessage per result.
          const part = messages.length > 1 ? results[index] : undefined;
          const counted: Message = part ? { role: 'tool', content: [part] } : message;
          origins.set(id, { message, part, tokens: countMessageTokens(counted, context.counter) });
        });
        converted.set(message, messages);
        return messages;
      };
      const originOf = (langchain: BaseMessage): Origin => {
        const origin = origins.get(langchain.id ?? '');
        if (origin === undefined) throw new Error(`trimMessages returned an unknown message.`);
        return origin;
      };
      return {
        send: async (history) => {
          const trimmed = await trimMessages(history.flatMap(toLangChain), {
            maxTokens: context.messageBudget,
            strategy: 'last',
            tokenCounter: (messages) =>
              messages.reduce((sum, message) => sum + originOf(message).tokens, 0),
            startOn: ['human', 'ai'],
            allowPartial: false,
          });
          return regroup(trimmed.map(originOf));
        },
      };
    },
  };
}

// --- internal helpers ---

interface Origin {
  readonly message: Message;
  /** The tool result this LangChain message holds, when its ctxkit message holds several. */
  readonly part: Part | undefined;
  readonly tokens: number;
}

/** The ctxkit messages back: the original object, or a tool message with the results kept. */
function regroup(origins: readonly Origin[]): Message[] {
  const out: Message[] = [];
  let index = 0;
  while (index < origins.length) {
    const { message, part } = origins[index] as Origin;
    if (part === undefined) {
      out.push(message);
      index++;
      continue;
    }
    const parts: Part[] = [];
    while (index < origins.length && (origins[index] as Origin).message === message) {
      parts.push((origins[index] as Origin).part as Part);
      index++;
    }
    out.push(
      parts.length === (message.content as Part[]).length
        ? message
        : { ...message, content: parts },
    );
  }
  return out;
}
