import type { CacheTtl } from '@ctxkit/context-core';

/** One piece of a prompt (a tool list, a system prompt, a message) as the cache sees it. */
export interface PromptSegment {
  /** Equal for equal content and different otherwise, such as a hash of the content. */
  readonly key: string;
  /** The segment's input tokens: a whole number of at least 0. */
  readonly tokens: number;
}

/** Where a request carries an Anthropic `cache_control` marker. */
export interface CacheBreakpoint {
  /** The segment that carries the marker: the cached prefix ends with it (0-based). */
  readonly index: number;
  /**
   * How long the entry lives.
   *
   * @default '5m'
   */
  readonly ttl?: CacheTtl;
}

/** One request of a task, as the prompt-cache simulator takes it. */
export interface CacheRequest {
  /** When the request was sent, in milliseconds (such as `Date.now()`); never before the last. */
  readonly at: number;
  /** The whole prompt, in the order the provider reads it (tools, system, messages). */
  readonly prefix: readonly PromptSegment[];
  /** Anthropic `cache_control` markers, at most 4; other providers ignore them. */
  readonly breakpoints?: readonly CacheBreakpoint[];
}
