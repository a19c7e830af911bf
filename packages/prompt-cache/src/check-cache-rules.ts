import { optionChecker } from '@ctxkit/context-core';
import type {
  AnthropicCacheRules,
  CacheRules,
  GeminiCacheRules,
  OpenAICacheRules,
} from './cache-rules.js';

const check = optionChecker('prompt-cache', 'simulatePromptCache');

/**
 * Checks caching rules given by the caller: a known provider, and whole numbers where the
 * provider's rules have them (minimum and lookback of at least 0, increment and retention of at
 * least 1).
 *
 * @param rules - the `rules` option
 * @returns the rules
 * @throws InvalidOptionError (`invalid_option`) naming the field and its value
 */
export function checkCacheRules(rules: CacheRules): CacheRules {
  switch ((rules as { provider?: unknown } | null)?.provider) {
    case 'none':
      return rules;
    case 'openai':
      wholeNumber('rules.incrementTokens', (rules as OpenAICacheRules).incrementTokens, 1);
      wholeNumber('rules.retentionMs', (rules as OpenAICacheRules).retentionMs, 1);
      break;
    case 'gemini':
      wholeNumber('rules.retentionMs', (rules as GeminiCacheRules).retentionMs, 1);
      break;
    case 'anthropic':
      wholeNumber('rules.lookbackBlocks', (rules as AnthropicCacheRules).lookbackBlocks, 0);
      break;
    default:
      throw check.invalid(
        'rules.provider',
        (rules as { provider?: unknown } | null)?.provider,
        "'openai', 'anthropic', 'gemini' or 'none'",
      );
  }
  wholeNumber('rules.minimumTokens', (rules as { minimumTokens?: unknown }).minimumTokens, 0);
  return rules;
}

// --- internal helpers ---

/** Refuses `undefined` too: every field of a provider's rules is required. */
function wholeNumber(option: string, value: unknown, minimum: number): void {
  if (value === undefined)
    throw check.invalid(option, value, `a whole number of at least ${minimum}`);
  check.wholeNumber(option, value, undefined, minimum);
}
