import {
  contentHash,
  countMessageTokens,
  type Message,
  type OptionKeys,
  optionChecker,
  type TokenCounter,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import type { CacheBreakpoint, CacheRequest, PromptSegment } from './cache-request.js';
import { contentKey } from './content-key.js';

/** Options of {@link cacheRequestFromMessages}. */
export interface CacheRequestFromMessagesOptions {
  /** When the request was sent, in ms. */
  at: number;
  /** The conversation as sent: the messages a compressor or a manager returned. */
  messages: readonly Message[];
  /** Counts each message (`countMessageTokens`), and the tools unless `countTools` is given. */
  counter: TokenCounter;
  /**
   * The system prompt: one segment for a string, one per message for messages.
   *
   * @default `undefined`: none
   */
  system?: string | readonly Message[];
  /**
   * The tool definitions: one segment, first, as providers put them before the system prompt.
   *
   * @default `undefined`: none
   */
  tools?: readonly ToolDeclaration[];
  /**
   * Counts the tool definitions, such as a manager's `countTools` or token-counters'
   * `countOpenAIToolTokens`.
   *
   * @default `counter.count(JSON.stringify(tools))`, an estimate
   */
  countTools?: (tools: readonly ToolDeclaration[]) => number;
  /**
   * Anthropic `cache_control` markers, by index into the prefix this returns (tools, then
   * system, then messages).
   *
   * @default `undefined`: none
   */
  breakpoints?: readonly CacheBreakpoint[];
}

/**
 * The simulator's request for a prompt made of ctxkit messages: the tools (one segment), the
 * system prompt and every message, each segment keyed by a hash of what is sent (role, content
 * and provider options; not `id`, `tokens` or `meta`) and counted by `counter`. Feed the requests
 * a compressor produced, in order, to `simulatePromptCache`.
 *
 * @param options - the time, the messages, the counter, and the system prompt, tools and
 *   breakpoints when there are any
 * @returns the request
 * @throws InvalidOptionError (`invalid_option`) when the counter prices a media part at an
 *   invalid count (see `countMessageTokens`)
 */
export function cacheRequestFromMessages(options: CacheRequestFromMessagesOptions): CacheRequest {
  optionChecker('prompt-cache', 'cacheRequestFromMessages').knownKeys(options, OPTION_KEYS);
  const { counter, tools, system } = options;
  const prefix: PromptSegment[] = [];
  if (tools !== undefined && tools.length > 0) {
    const countTools =
      options.countTools ??
      ((all: readonly ToolDeclaration[]) => counter.count(JSON.stringify(all)));
    prefix.push({ key: `tools:${contentKey(tools)}`, tokens: countTools(tools) });
  }
  const systemMessages: readonly Message[] =
    typeof system === 'string' ? [{ role: 'system', content: system }] : (system ?? []);
  for (const message of [...systemMessages, ...options.messages]) {
    prefix.push({ key: segmentKey(message), tokens: countMessageTokens(message, counter) });
  }
  return {
    at: options.at,
    prefix,
    ...(options.breakpoints ? { breakpoints: options.breakpoints } : {}),
  };
}

// --- internal helpers ---

/**
 * A message's segment key: its role, core's `contentHash` of its content (made once per message
 * object and shared with the count cache) and its provider options. Content that is not plain
 * data is keyed by its JSON instead.
 */
function segmentKey(message: Message): string {
  const hash = contentHash(message);
  if (hash !== undefined && message.providerOptions === undefined) {
    // The same string again for an unchanged message: no string built, and the prefix tree
    // compares its keys by reference.
    const known = plainKeys.get(message);
    if (known !== undefined && known.hash === hash && known.role === message.role) return known.key;
    const key = `${message.role}:${hash}:`;
    plainKeys.set(message, { role: message.role, hash, key });
    return key;
  }
  const options = message.providerOptions === undefined ? '' : contentKey(message.providerOptions);
  return `${message.role}:${hash ?? `json:${contentKey(message.content)}`}:${options}`;
}

/** The segment keys of messages without provider options, with the role and hash they were made from. */
const plainKeys = new WeakMap<Message, { role: string; hash: string; key: string }>();

const OPTION_KEYS = Object.freeze({
  at: true,
  messages: true,
  counter: true,
  system: true,
  tools: true,
  countTools: true,
  breakpoints: true,
} satisfies OptionKeys<CacheRequestFromMessagesOptions>);
