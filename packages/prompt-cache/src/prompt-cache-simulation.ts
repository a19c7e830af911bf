import type { BilledCost } from '@ctxkit/context-core';
import type { CacheRules } from './cache-rules.js';

/** What one request of the task was billed for its input, and whether it read the cache. */
export interface RequestCacheResult extends BilledCost {
  /** The request's position in the task, from 0. */
  index: number;
  /** When it was sent, in ms, as given. */
  at: number;
  /** Whether it read any token from the cache. */
  hit: boolean;
}

/** The input costs of a task's requests, one by one and in total. */
export interface PromptCacheSimulation {
  /** The model the requests were priced for, as the model table names it. */
  model: string;
  /** The caching rules applied. */
  rules: CacheRules;
  /** One result per request, in order. */
  requests: RequestCacheResult[];
  /** The requests summed; `inputUsd` is null when any request's cost is unknown. */
  totals: BilledCost & {
    /** Cached (read) tokens over all input tokens; 0 when there was no input. */
    hitRatio: number;
  };
  /** What made a cost unknown, and what the rules assume where the docs give no figure. */
  warnings: string[];
}
