import type {
  Message,
  ModelInfo,
  PredictedCost,
  TokenCounter,
  ToolDeclaration,
} from '@ctxkit/context-core';
import {
  type CacheBreakpoint,
  type CacheRules,
  cacheRequestFromMessages,
  cacheRulesFor,
  createPromptCacheSimulator,
  type PromptCacheSimulator,
} from '@ctxkit/prompt-cache';

/** What one request sends, for {@link CostPredictor.predict}. */
export interface PredictedRequest {
  /** The system prompt's messages. */
  system: readonly Message[];
  /** The tool definitions. */
  tools: readonly ToolDeclaration[];
  /** The messages sent. */
  messages: readonly Message[];
}

/** Predicts each request's billed input, per conversation. */
export interface CostPredictor {
  /**
   * Replays `request` against the conversation's prompt cache (after its requests so far) and
   * prices its input.
   *
   * @param conversationId - the conversation; requests without one share a single cache
   * @param request - what the request sends
   * @returns its predicted cost
   */
  predict(conversationId: string | undefined, request: PredictedRequest): PredictedCost;
}

/** Options of {@link createCostPredictor}. */
export interface CostPredictorOptions {
  /** The model: its prices, and its provider's caching rules. */
  model: ModelInfo | undefined;
  /** Counts the messages. */
  counter: TokenCounter;
  /** Counts the tool definitions as the model's provider does. */
  countTools(tools: readonly ToolDeclaration[]): number;
  /** Conversations whose cache is remembered; the least recently used is forgotten first. */
  maxConversations: number;
  /** The time of a request, in milliseconds. */
  now(): number;
}

/** The slot of requests whose fit names no conversation. */
const NO_CONVERSATION = Symbol('no conversation');

/**
 * A {@link CostPredictor}: each conversation's requests replayed, in order, by
 * `createPromptCacheSimulator` under the model's provider's rules. Anthropic's cache needs
 * breakpoints: they are assumed where `toAnthropic({ cacheBreakpoints: true })` puts them (the
 * end of the tools and system prompt, and the last message). A model whose provider's caching is
 * not modelled is priced without a cache, and one without prices (or no model) has an unknown
 * cost; the prediction's `warnings` say so.
 *
 * @param options - the model, the counters, how many conversations to remember, the clock
 * @returns the predictor
 */
export function createCostPredictor(options: CostPredictorOptions): CostPredictor {
  const { model, counter, countTools, maxConversations, now } = options;
  const setup = rulesOf(model);
  const simulators = new Map<string | symbol, PromptCacheSimulator>();

  const simulatorOf = (key: string | symbol): PromptCacheSimulator | undefined => {
    if (model === undefined) return undefined;
    let simulator = simulators.get(key);
    if (simulator === undefined) {
      simulator = createPromptCacheSimulator({ model, rules: setup.rules, keepRequests: false });
      if (simulators.size >= maxConversations)
        simulators.delete(simulators.keys().next().value as string | symbol);
    } else simulators.delete(key);
    simulators.set(key, simulator);
    return simulator;
  };

  return Object.freeze({
    predict(conversationId: string | undefined, request: PredictedRequest): PredictedCost {
      const leading = (request.tools.length > 0 ? 1 : 0) + request.system.length;
      const total = leading + request.messages.length;
      const breakpoints: CacheBreakpoint[] =
        setup.rules.provider !== 'anthropic'
          ? []
          : [...new Set([leading - 1, total - 1])]
              .filter((index) => index >= 0)
              .map((index) => ({ index }));
      const cacheRequest = cacheRequestFromMessages({
        at: now(),
        messages: request.messages,
        counter,
        system: request.system,
        tools: request.tools,
        countTools,
        breakpoints,
      });
      const simulator = simulatorOf(conversationId ?? NO_CONVERSATION);
      if (simulator === undefined) {
        const inputTokens = cacheRequest.prefix.reduce((sum, segment) => sum + segment.tokens, 0);
        return {
          inputTokens,
          cachedInputTokens: 0,
          cacheWriteTokens: { '5m': 0, '1h': 0 },
          uncachedInputTokens: inputTokens,
          inputUsd: null,
          warnings: setup.warnings,
        };
      }
      const { index: _index, at: _at, hit: _hit, ...cost } = simulator.add(cacheRequest);
      return { ...cost, warnings: [...new Set([...setup.warnings, ...simulator.warnings])] };
    },
  });
}

// --- internal helpers ---

/** The caching rules of `model`'s provider, or none, and why. */
function rulesOf(model: ModelInfo | undefined): { rules: CacheRules; warnings: string[] } {
  if (model === undefined) {
    return {
      rules: { provider: 'none' },
      warnings: ['No model is known: input costs are unknown (null).'],
    };
  }
  try {
    const { rules, assumptions } = cacheRulesFor(model);
    return { rules, warnings: assumptions };
  } catch {
    return {
      rules: { provider: 'none' },
      warnings: [
        `The prompt caching of ${model.id}'s provider is not modelled: every input token is priced at the input rate.`,
      ],
    };
  }
}
