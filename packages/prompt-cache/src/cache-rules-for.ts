import { findModelInfo, InvalidOptionError, type ModelInfo } from '@ctxkit/context-core';
import type { CacheRules } from './cache-rules.js';

/** The rules {@link cacheRulesFor} found, and what they assume where the docs give no figure. */
export interface ResolvedCacheRules {
  /** The provider's rules for the model. */
  rules: CacheRules;
  /** Figures the docs do not give for this model and that the rules assume; empty when none. */
  assumptions: string[];
}

/** OpenAI: prompts from 1,024 tokens, cached in steps of 128 (prompt-caching guide). */
const OPENAI_MINIMUM = 1_024;
const OPENAI_INCREMENT = 128;
/** OpenAI keeps a prefix 5 to 10 minutes after its last use; the simulation takes the low end. */
const RETENTION_MS = 5 * 60_000;
/** Segments before a breakpoint that Anthropic checks for an earlier entry. */
const ANTHROPIC_LOOKBACK_BLOCKS = 20;

/**
 * Minimum cacheable prompt length of each Anthropic model of the model table, from
 * https://platform.claude.com/docs/en/build-with-claude/prompt-caching ("Cache limitations").
 */
const ANTHROPIC_MINIMUMS: Readonly<Record<string, number>> = Object.freeze({
  'claude-3-haiku': 2_048,
  'claude-3-5-haiku': 2_048,
  'claude-3-opus': 1_024,
  'claude-3-5-sonnet': 1_024,
  'claude-3-7-sonnet': 1_024,
  'claude-sonnet-4': 1_024,
  'claude-sonnet-4-0': 1_024,
  'claude-opus-4': 1_024,
  'claude-opus-4-0': 1_024,
  'claude-opus-4-1': 1_024,
  'claude-sonnet-4-5': 1_024,
  'claude-sonnet-4-6': 1_024,
  'claude-opus-4-8': 1_024,
  'claude-sonnet-5': 1_024,
  'claude-haiku-4-5': 4_096,
  'claude-opus-4-5': 4_096,
  'claude-opus-4-6': 4_096,
  'claude-opus-5': 512,
});

/** What an Anthropic model the list above lacks is assumed to need. */
const ANTHROPIC_ASSUMED_MINIMUM = 1_024;

/**
 * Minimum input of Gemini's implicit caching, by model family, from
 * https://ai.google.dev/gemini-api/docs/caching (Gemini 2.5: 2,048; Gemini 3 and later: 4,096).
 * Gemini 2.0 and older have no implicit caching.
 */
const GEMINI_MINIMUMS: readonly (readonly [RegExp, number])[] = [
  [/^gemini-2\.5-(pro|flash)$/, 2_048],
  [/^gemini-3(\.\d+)?-(pro|flash)(-preview)?$/, 4_096],
];

/**
 * The prompt caching rules of `model`'s provider, from its id: OpenAI (`gpt-`, `o1`, `o3`, `o4`,
 * `chatgpt-`), Anthropic (`claude-`), Gemini (`gemini-`). The id is resolved through the model
 * table first, so snapshots and provider prefixes are understood.
 *
 * @param model - a model id, or what `getModelInfo` returned
 * @returns the rules, and what they assume where the docs give no figure for the model
 * @throws InvalidOptionError (`invalid_option`) when the id is empty or names no provider whose
 *   rules are known (Mistral, DeepSeek, Qwen, ...): pass `rules` to `simulatePromptCache`
 */
export function cacheRulesFor(model: string | ModelInfo): ResolvedCacheRules {
  const id = typeof model === 'string' ? (findModelInfo(model)?.id ?? model) : model.id;
  const name = id.toLowerCase();
  if (/^(gpt-|chatgpt-|o[134](-|$))/.test(name)) {
    return {
      rules: {
        provider: 'openai',
        minimumTokens: OPENAI_MINIMUM,
        incrementTokens: OPENAI_INCREMENT,
        retentionMs: RETENTION_MS,
      },
      assumptions: [],
    };
  }
  if (name.startsWith('claude-')) {
    const known = ANTHROPIC_MINIMUMS[name];
    return {
      rules: {
        provider: 'anthropic',
        minimumTokens: known ?? ANTHROPIC_ASSUMED_MINIMUM,
        lookbackBlocks: ANTHROPIC_LOOKBACK_BLOCKS,
      },
      assumptions:
        known === undefined
          ? [
              `The minimum cacheable prompt length of ${id} is not published where ctxkit read it; assumed ${ANTHROPIC_ASSUMED_MINIMUM} tokens.`,
            ]
          : [],
    };
  }
  if (name.startsWith('gemini-')) return geminiRules(id, name);
  throw new InvalidOptionError({
    code: 'invalid_option',
    source: 'prompt-cache',
    message: `cacheRulesFor: no prompt caching rules are known for model ${JSON.stringify(id)}; pass \`rules\` (such as { provider: 'none' }).`,
    details: { model: id },
  });
}

// --- internal helpers ---

function geminiRules(id: string, name: string): ResolvedCacheRules {
  if (/^gemini-(1\.|2\.0)/.test(name)) return { rules: { provider: 'none' }, assumptions: [] };
  const known = GEMINI_MINIMUMS.find(([pattern]) => pattern.test(name))?.[1];
  const family = name.startsWith('gemini-2.5') ? 2_048 : 4_096;
  return {
    rules: { provider: 'gemini', minimumTokens: known ?? family, retentionMs: RETENTION_MS },
    assumptions: [
      'Gemini promises no implicit cache hit; the simulation counts every possible one.',
      'Gemini does not publish how long an implicit cache entry lives; assumed 5 minutes.',
      ...(known === undefined
        ? [
            `Gemini's docs list no implicit-caching minimum for ${id}; assumed ${family} tokens, as its family.`,
          ]
        : []),
    ],
  };
}
