/**
 * OpenAI's automatic prompt caching: a prompt of at least `minimumTokens` reads the longest prefix
 * seen in an earlier request, in steps of `incrementTokens`, while that prefix was used within
 * `retentionMs`; nothing is charged for writing. Source:
 * https://developers.openai.com/api/docs/guides/prompt-caching.
 */
export interface OpenAICacheRules {
  /** Which provider's rules. */
  readonly provider: 'openai';
  /** Shortest prompt that is cached (1,024 tokens). */
  readonly minimumTokens: number;
  /** Cached tokens come in steps of this many (128). */
  readonly incrementTokens: number;
  /** How long a prefix stays cached after its last use, in ms (5 minutes: the low end of 5-10). */
  readonly retentionMs: number;
}

/**
 * Anthropic's explicit caching: a request reads the longest prefix, ending at one of its
 * `cache_control` breakpoints or within `lookbackBlocks` segments before one, that an earlier
 * request wrote and that has not expired; the prefix up to each breakpoint past it is written
 * (1.25 times the input rate for 5 minutes, 2 times for 1 hour) when it has at least
 * `minimumTokens`. Reads refresh the entry. Source:
 * https://platform.claude.com/docs/en/build-with-claude/prompt-caching.
 */
export interface AnthropicCacheRules {
  /** Which provider's rules. */
  readonly provider: 'anthropic';
  /** Shortest prefix that is cached: the model's minimum cacheable prompt length. */
  readonly minimumTokens: number;
  /** How many segments before a breakpoint are checked for an earlier entry (20). */
  readonly lookbackBlocks: number;
}

/**
 * Gemini's implicit caching (Gemini 2.5 and newer), modelled as prefix caching from the model's
 * documented minimum, to the segment; Google promises no hit, so this is the best case. Source:
 * https://ai.google.dev/gemini-api/docs/caching.
 */
export interface GeminiCacheRules {
  /** Which provider's rules. */
  readonly provider: 'gemini';
  /** Shortest prompt that is cached: the model's minimum input token count. */
  readonly minimumTokens: number;
  /** How long a prefix stays cached after its last use, in ms (not documented; 5 minutes). */
  readonly retentionMs: number;
}

/** No prompt caching: every input token is billed at the input rate. */
export interface NoCacheRules {
  /** Which provider's rules. */
  readonly provider: 'none';
}

/** A provider's prompt caching rules, as the simulator applies them. */
export type CacheRules = OpenAICacheRules | AnthropicCacheRules | GeminiCacheRules | NoCacheRules;
