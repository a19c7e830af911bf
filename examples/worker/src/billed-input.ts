import type { TokenCounter } from '@ctxkit/context-core';
import {
  cacheRequestFromMessages,
  type PromptCacheSimulation,
  simulatePromptCache,
} from '@ctxkit/prompt-cache';
import type { ModelRequestRecord } from './process-task.js';

/** Seconds between two requests of a replay: an agent's tool loop, not a person typing. */
const SECONDS_APART = 5;

/**
 * What a run's requests would have been billed for their input by `model`'s provider, prompt
 * cache included: the requests replayed in order, `SECONDS_APART` seconds apart, with Anthropic's
 * cache breakpoints where `toAnthropic({ cacheBreakpoints: true })` puts them (after the system
 * prompt and on the last message).
 *
 * @param requests - the run's requests, in order
 * @param model - a model of the table with prices, such as `claude-sonnet-4-5`
 * @param counter - the run's counter
 * @returns the totals: tokens read from the cache, written, uncached, and the cost in US dollars
 */
export function billedInput(
  requests: readonly ModelRequestRecord[],
  model: string,
  counter: TokenCounter,
): PromptCacheSimulation['totals'] {
  const replay = requests.map((request, index) => {
    const leading = request.messages.findIndex((message) => message.role !== 'system');
    const systemEnd = (request.tools.length > 0 ? 1 : 0) + Math.max(0, leading) - 1;
    const last = (request.tools.length > 0 ? 1 : 0) + request.messages.length - 1;
    return cacheRequestFromMessages({
      at: index * SECONDS_APART * 1000,
      messages: request.messages,
      counter,
      tools: request.tools,
      breakpoints: [...new Set([systemEnd, last])]
        .filter((at) => at >= 0)
        .map((at) => ({ index: at })),
    });
  });
  return simulatePromptCache(replay, { model }).totals;
}
