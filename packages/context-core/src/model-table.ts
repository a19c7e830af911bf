import { ContextError } from './context-error.js';

/** What ctxkit needs to know about a model. */
export interface ModelInfo {
  /** The model id as the table knows it (or as given, for an unknown model). */
  id: string;
  /** Context window in tokens: input and output together. */
  contextWindow: number;
  /** Largest answer the model may produce, in tokens. */
  maxOutputTokens: number;
  /** False when the id matched nothing and the fallback was used. */
  known: boolean;
}

/** Window and output limits of a model, for the table and for overrides. */
export type ModelLimits = Pick<ModelInfo, 'contextWindow' | 'maxOutputTokens'>;

/**
 * Limits used for a model the table does not know: a small window, so an unknown model is
 * never overfilled. Pass an override for the real figures.
 */
export const FALLBACK_MODEL_LIMITS: Readonly<ModelLimits> = Object.freeze({
  contextWindow: 8192,
  maxOutputTokens: 2048,
});

/**
 * Published limits of common models, keyed by id. A dated or suffixed id (`gpt-4o-2024-08-06`,
 * `claude-sonnet-4-5-20250929`) resolves to its longest matching prefix.
 */
export const MODEL_TABLE: Readonly<Record<string, Readonly<ModelLimits>>> = Object.freeze({
  // OpenAI
  'gpt-3.5-turbo': limits(16_385, 4_096),
  'gpt-4': limits(8_192, 8_192),
  'gpt-4-turbo': limits(128_000, 4_096),
  'gpt-4o': limits(128_000, 16_384),
  'gpt-4o-mini': limits(128_000, 16_384),
  'gpt-4.1': limits(1_047_576, 32_768),
  'gpt-4.1-mini': limits(1_047_576, 32_768),
  'gpt-4.1-nano': limits(1_047_576, 32_768),
  'gpt-5': limits(400_000, 128_000),
  'gpt-5-mini': limits(400_000, 128_000),
  'gpt-5-nano': limits(400_000, 128_000),
  'gpt-5-chat': limits(128_000, 16_384),
  o1: limits(200_000, 100_000),
  o3: limits(200_000, 100_000),
  'o3-mini': limits(200_000, 100_000),
  'o4-mini': limits(200_000, 100_000),
  // Anthropic
  'claude-3-5-sonnet': limits(200_000, 8_192),
  'claude-3-5-haiku': limits(200_000, 8_192),
  'claude-3-7-sonnet': limits(200_000, 64_000),
  'claude-sonnet-4': limits(200_000, 64_000),
  'claude-opus-4': limits(200_000, 32_000),
  'claude-opus-4-1': limits(200_000, 32_000),
  'claude-sonnet-4-5': limits(200_000, 64_000),
  'claude-haiku-4-5': limits(200_000, 64_000),
  'claude-opus-4-5': limits(200_000, 64_000),
  // Google
  'gemini-2.0-flash': limits(1_048_576, 8_192),
  'gemini-2.0-flash-lite': limits(1_048_576, 8_192),
  'gemini-2.5-pro': limits(1_048_576, 65_536),
  'gemini-2.5-flash': limits(1_048_576, 65_536),
  'gemini-2.5-flash-lite': limits(1_048_576, 65_536),
  // Moonshot (the window is shared by input and output)
  'moonshot-v1-8k': limits(8_192, 4_096),
  'moonshot-v1-32k': limits(32_768, 8_192),
  'moonshot-v1-128k': limits(131_072, 8_192),
  // Qwen
  'qwen-turbo': limits(1_000_000, 8_192),
  'qwen-plus': limits(131_072, 8_192),
  'qwen-max': limits(32_768, 8_192),
  'qwen2.5': limits(131_072, 8_192),
  qwen3: limits(131_072, 8_192),
  // DeepSeek
  'deepseek-chat': limits(128_000, 8_192),
  'deepseek-reasoner': limits(128_000, 65_536),
  // Meta Llama
  llama3: limits(8_192, 4_096),
  'llama-3': limits(8_192, 4_096),
  'meta-llama-3': limits(8_192, 4_096),
  'meta-llama-3.1': limits(131_072, 4_096),
  'meta-llama-3.3': limits(131_072, 4_096),
  'llama-3.1': limits(131_072, 4_096),
  'llama-3.2': limits(131_072, 4_096),
  'llama-3.3': limits(131_072, 4_096),
  'llama3.1': limits(131_072, 4_096),
  'llama3.2': limits(131_072, 4_096),
  'llama3.3': limits(131_072, 4_096),
});

/** Options of {@link getModelInfo}. */
export interface ModelInfoOptions {
  /** Limits that replace or extend the table, by model id (matched like the table). */
  overrides?: Readonly<Record<string, ModelLimits>>;
}

/**
 * The limits of `model`: an exact id first, then the longest id prefix, in `overrides` before the
 * table. Provider prefixes (`openai/gpt-4o`) and case are ignored. An unknown model gets
 * {@link FALLBACK_MODEL_LIMITS} with `known: false`; callers report that as a warning.
 */
export function getModelInfo(model: string, options: ModelInfoOptions = {}): ModelInfo {
  if (typeof model !== 'string' || model.trim() === '') {
    throw new ContextError({
      code: 'invalid_option',
      message: `A model id must be a non-empty string, got ${JSON.stringify(model)}.`,
    });
  }
  const id = normalize(model);
  for (const table of [normalizeKeys(options.overrides ?? {}), MODEL_TABLE]) {
    const match = longestPrefix(id, table);
    if (match) {
      const found = table[match] as ModelLimits;
      checkLimits(match, found);
      return {
        id: match,
        contextWindow: found.contextWindow,
        maxOutputTokens: found.maxOutputTokens,
        known: true,
      };
    }
  }
  return { id: model, ...FALLBACK_MODEL_LIMITS, known: false };
}

// --- internal helpers ---

function limits(contextWindow: number, maxOutputTokens: number): Readonly<ModelLimits> {
  return Object.freeze({ contextWindow, maxOutputTokens });
}

function normalize(model: string): string {
  const lower = model.trim().toLowerCase();
  const slash = lower.lastIndexOf('/');
  return slash === -1 ? lower : lower.slice(slash + 1);
}

function normalizeKeys(table: Readonly<Record<string, ModelLimits>>): Record<string, ModelLimits> {
  const result: Record<string, ModelLimits> = {};
  for (const [key, value] of Object.entries(table)) result[normalize(key)] = value;
  return result;
}

function longestPrefix(id: string, table: Readonly<Record<string, unknown>>): string | undefined {
  if (Object.hasOwn(table, id)) return id;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (id.startsWith(key) && isBoundary(id, key.length) && (!best || key.length > best.length))
      best = key;
  }
  return best;
}

/** A prefix matches only at a separator, so `gpt-4` does not claim `gpt-4o`. */
function isBoundary(id: string, length: number): boolean {
  const previous = id[length - 1];
  const next = id[length];
  return next === undefined || /[-:@_.]/.test(next) || previous === '-' || previous === ':';
}

function checkLimits(id: string, found: ModelLimits): void {
  for (const field of ['contextWindow', 'maxOutputTokens'] as const) {
    const value = found[field];
    if (!Number.isInteger(value) || value <= 0) {
      throw new ContextError({
        code: 'invalid_option',
        message: `Model override ${JSON.stringify(id)} has an invalid ${field}: ${String(value)}.`,
        details: { model: id, field, value },
      });
    }
  }
}
