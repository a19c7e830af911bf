import { cacheAware, contextGuard, threeLayer } from '@ctxkit/compressor-simple';
import {
  createExtractiveSummarizer,
  createSummarizingCompressor,
} from '@ctxkit/compressor-summarize';
import {
  type ContextCompressor,
  createInMemoryToolOutputStore,
  type Message,
  type TokenCounter,
  type ToolDeclaration,
  type ToolOutputStore,
} from '@ctxkit/context-core';
import { cacheAwareHybrid, createContextManager, hybrid } from '@ctxkit/context-manager';
import { aiSdkPruneMessages } from './ai-sdk-prune-messages.js';
import { langchainTrimMessages } from './langchain-trim-messages.js';

/** What a strategy knows of the task it runs in. */
export interface StrategyContext {
  /** The system prompt every request carries. */
  readonly system: string;
  /** The tool definitions every request carries. */
  readonly tools: readonly ToolDeclaration[];
  /** The counter of the whole run. */
  readonly counter: TokenCounter;
  /** The most tokens a request may take: system, tools and messages. */
  readonly window: number;
  /** What the system prompt and tools leave of the window for the messages. */
  readonly messageBudget: number;
  /** The task's conversation id. */
  readonly conversationId: string;
  /** The model the window is for (its tool pricing). */
  readonly model: string;
}

/** One task's run of a strategy. */
export interface StrategySession {
  /** Given the whole history so far, the messages the request sends. */
  send(history: readonly Message[]): Promise<readonly Message[]>;
  /** Where offloaded tool outputs went, for a strategy that offloads (`get_tool_output` reads it). */
  readonly toolOutputs?: ToolOutputStore;
}

/** A way of choosing what each request sends. */
export interface QualityStrategy {
  /** Its name in the table. */
  readonly name: string;
  /** Starts one task: a strategy may keep state (caches, stores) per task. */
  start(context: StrategyContext): StrategySession;
}

/** The summarizing compressor with the extractive summarizer: no model runs in the benchmark. */
function extractiveSummary() {
  return createSummarizingCompressor({ summarize: createExtractiveSummarizer() });
}

/** Messages kept by the keep-last-N strategy: about what the window holds on these tasks. */
export const KEEP_LAST_MESSAGES = 10;

/**
 * Every strategy of the benchmark, in table order. A new ctxkit preset is one line:
 * `fromCompressor('name', () => preset())`, `fromManager('name', { compressor: preset() })`, or
 * `withToolOutputs('name', (store) => preset(store))` for one that offloads tool outputs.
 */
export const STRATEGIES: readonly QualityStrategy[] = [
  noManagement(),
  keepLastMessages(KEEP_LAST_MESSAGES),
  langchainTrimMessages(),
  aiSdkPruneMessages(KEEP_LAST_MESSAGES),
  fromCompressor('contextGuard', () => contextGuard()),
  fromCompressor('threeLayer', () => threeLayer()),
  fromManager('manager (defaults)'),
  // No model runs here: the summarizing presets use the extractive summarizer.
  fromCompressor('hybrid', () => hybrid({ summary: extractiveSummary() })),
  fromCompressor('cacheAware', () => cacheAware()),
  withToolOutputs('cacheAwareHybrid', (toolOutputs) =>
    cacheAwareHybrid({ toolOutputs, summary: extractiveSummary() }),
  ),
];

/**
 * Sends the whole history every time.
 *
 * @returns the strategy
 */
export function noManagement(): QualityStrategy {
  return { name: 'no management', start: () => ({ send: async (history) => history }) };
}

/**
 * Sends the newest `count` messages, wherever that cuts (a tool result may lose its call).
 *
 * @param count - how many messages
 * @returns the strategy
 */
export function keepLastMessages(count: number): QualityStrategy {
  return {
    name: `keep last ${count}`,
    start: () => ({ send: async (history) => history.slice(-count) }),
  };
}

/**
 * A ctxkit compressor given the history and what the system prompt and tools leave.
 *
 * @param name - its name in the table
 * @param create - makes a fresh compressor per task
 * @returns the strategy
 */
export function fromCompressor(name: string, create: () => ContextCompressor): QualityStrategy {
  return {
    name,
    start: (context) => compressorSession(create(), context),
  };
}

/**
 * `createContextManager` for the run's model, window and counter; its other options as given
 * (none: the defaults).
 *
 * @param name - its name in the table
 * @param options - more manager options, such as a `compressor`
 * @returns the strategy
 */
export function fromManager(
  name: string,
  options: { compressor?: ContextCompressor } = {},
): QualityStrategy {
  return {
    name,
    start: (context) => {
      const manager = createContextManager({
        ...options,
        model: context.model,
        maxTokens: context.window,
        counter: context.counter,
      });
      return {
        send: async (history) =>
          (
            await manager.fit(history, {
              system: context.system,
              tools: context.tools,
              conversationId: context.conversationId,
            })
          ).messages,
      };
    },
  };
}

/**
 * A ctxkit compressor that offloads tool outputs to a store of its own per task, which the
 * benchmark reads back through `get_tool_output` for facts behind a reference.
 *
 * @param name - its name in the table
 * @param create - makes a fresh compressor per task, given its store
 * @returns the strategy
 */
export function withToolOutputs(
  name: string,
  create: (toolOutputs: ToolOutputStore) => ContextCompressor,
): QualityStrategy {
  return {
    name,
    start: (context) => {
      const toolOutputs = createInMemoryToolOutputStore();
      return { ...compressorSession(create(toolOutputs), context), toolOutputs };
    },
  };
}

/** A task's run of `compressor`: each request is the history fitted to the messages' budget. */
function compressorSession(
  compressor: ContextCompressor,
  context: StrategyContext,
): StrategySession {
  return {
    send: async (history) =>
      (
        await compressor.compress(
          history,
          { maxTokens: context.messageBudget },
          { counter: context.counter, conversationId: context.conversationId },
        )
      ).messages,
  };
}
