/** How one request's input met the cache, in tokens, before it is priced. */
export interface CacheUsage {
  /** Tokens read from the cache. */
  cachedInputTokens: number;
  /** Tokens written with a 5-minute lifetime. */
  written5m: number;
  /** Tokens written with a 1-hour lifetime. */
  written1h: number;
}
