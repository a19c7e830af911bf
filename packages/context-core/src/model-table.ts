import { InvalidOptionError } from './error-families.js';
import { canonicalModelId, matchModelId } from './match-model-id.js';
import { type OptionKeys, optionChecker } from './option-checker.js';
import { UnknownModelError } from './unknown-model-error.js';

/** The window and answer limits of a model, in tokens. */
export interface ModelLimits {
  /** Context window in tokens: input and output together. */
  contextWindow: number;
  /** Largest answer the model may produce, in tokens. */
  maxOutputTokens: number;
}

/**
 * What a model costs, in US dollars per million tokens, as its provider published it on
 * `pricesReadOn`. Where a provider prices by prompt length, these are the rates of the shortest
 * prompts (the tier is named in the table's comment).
 */
export interface ModelPrices {
  /** Input tokens that are not read from a prompt cache. */
  input: number;
  /** Input tokens read from a prompt cache (a cache hit); null where the source gives no rate. */
  cachedInput: number | null;
  /**
   * Input tokens written to a prompt cache (Anthropic's 5-minute write); null where the provider
   * charges no separate write (OpenAI, Gemini, DeepSeek) or the source gives no rate.
   */
  cacheWrite: number | null;
  /** Output tokens, reasoning tokens included. */
  output: number;
  /** The day the prices were read from `source`, as `YYYY-MM-DD`. */
  pricesReadOn: string;
  /** The page the prices were read from. */
  source: string;
}

/** A row of the model table or of the overrides: limits, and prices when known. */
export interface ModelTableEntry extends ModelLimits {
  /** What the model costs; undefined when the table has no published prices for it. */
  prices?: ModelPrices;
}

/** What ctxkit knows about a model. */
export interface ModelInfo extends ModelTableEntry {
  /** The id of the table (or overrides) row the model resolved to, such as `gpt-4o`. */
  id: string;
}

/** The day the prices in {@link MODEL_TABLE} were read. */
export const PRICES_READ_ON = '2026-11-24';

const OPENAI_PRICES = 'https://developers.openai.com/api/docs/pricing';
const ANTHROPIC_PRICES = 'https://platform.claude.com/docs/en/about-claude/pricing';
const GEMINI_PRICES = 'https://ai.google.dev/gemini-api/docs/pricing';
const MISTRAL_PRICES = 'https://mistral.ai/pricing#api-pricing';
const DEEPSEEK_PRICES = 'https://api-docs.deepseek.com/quick_start/pricing';
const QWEN_PRICES = 'https://www.alibabacloud.com/help/en/model-studio/models';

/**
 * Published limits (and, where known, prices) of common models, keyed by id. Ids resolve as
 * {@link getModelInfo} describes. A model whose window depends on the host (open weights) has the
 * window of its model card; pass `contextWindow` when your server serves less. Where a provider
 * publishes no separate answer limit, the answer shares the window (`maxOutputTokens` is the
 * window).
 */
export const MODEL_TABLE: Readonly<Record<string, Readonly<ModelTableEntry>>> = Object.freeze({
  // OpenAI. Limits: https://developers.openai.com/api/docs/models (one page per model); prices:
  // OPENAI_PRICES. Old snapshots that differ from their family have their own rows.
  'gpt-3.5-turbo': row(16_385, 4_096),
  'gpt-3.5-turbo-1106': row(16_385, 4_096),
  'gpt-3.5-turbo-0613': row(4_096, 4_096),
  'gpt-3.5-turbo-0301': row(4_096, 4_096),
  'gpt-3.5-turbo-16k': row(16_385, 4_096),
  'gpt-3.5-turbo-instruct': row(4_096, 4_096),
  'gpt-4': row(8_192, 8_192),
  'gpt-4-32k': row(32_768, 32_768),
  'gpt-4-turbo': row(128_000, 4_096),
  'gpt-4-turbo-preview': row(128_000, 4_096),
  'gpt-4-1106-preview': row(128_000, 4_096),
  'gpt-4-0125-preview': row(128_000, 4_096),
  'gpt-4-vision-preview': row(128_000, 4_096),
  'gpt-4o': row(128_000, 16_384, openai(2.5, 1.25, 10)),
  'gpt-4o-2024-05-13': row(128_000, 4_096, openai(5, null, 15)),
  'gpt-4o-mini': row(128_000, 16_384, openai(0.15, 0.075, 0.6)),
  'chatgpt-4o': row(128_000, 16_384),
  'gpt-4.1': row(1_047_576, 32_768, openai(2, 0.5, 8)),
  'gpt-4.1-mini': row(1_047_576, 32_768, openai(0.4, 0.1, 1.6)),
  'gpt-4.1-nano': row(1_047_576, 32_768, openai(0.1, 0.025, 0.4)),
  'gpt-4.5-preview': row(128_000, 16_384),
  o1: row(200_000, 100_000, openai(15, 7.5, 60)),
  'o1-pro': row(200_000, 100_000, openai(150, null, 600)),
  'o1-mini': row(128_000, 65_536, openai(1.1, 0.55, 4.4)),
  'o1-preview': row(128_000, 32_768, openai(15, 7.5, 60)),
  o3: row(200_000, 100_000, openai(2, 0.5, 8)),
  'o3-pro': row(200_000, 100_000, openai(20, null, 80)),
  'o3-mini': row(200_000, 100_000, openai(1.1, 0.55, 4.4)),
  'o4-mini': row(200_000, 100_000, openai(1.1, 0.275, 4.4)),
  'gpt-5': row(400_000, 128_000, openai(1.25, 0.125, 10)),
  'gpt-5-mini': row(400_000, 128_000, openai(0.25, 0.025, 2)),
  'gpt-5-nano': row(400_000, 128_000, openai(0.05, 0.005, 0.4)),
  'gpt-5-chat': row(128_000, 16_384, openai(1.25, 0.125, 10)),
  'gpt-5-pro': row(400_000, 272_000, openai(15, null, 120)),
  'gpt-5.1': row(400_000, 128_000, openai(1.25, 0.125, 10)),
  // GPT-6: https://developers.openai.com/api/docs/models/gpt-6-sol (and -astra, gpt-6.2-sol),
  // as the Vercel AI Gateway model pages quote them; no cached-input rate was published there.
  'gpt-6-sol': row(1_050_000, 128_000, openai(2, null, 10)),
  'gpt-6.2-sol': row(1_050_000, 128_000, openai(2, null, 10)),
  'gpt-6-astra': row(1_050_000, 128_000, openai(10, null, 50)),
  // Open weights: https://developers.openai.com/api/docs/models/gpt-oss-120b (no OpenAI price).
  'gpt-oss-120b': row(131_072, 131_072),
  'gpt-oss-20b': row(131_072, 131_072),

  // Anthropic. Limits: https://platform.claude.com/docs/en/about-claude/models/overview and the
  // model pages https://platform.claude.com/docs/en/models/<model>/overview; prices:
  // ANTHROPIC_PRICES (cache write is the 5-minute write). Windows without the 1M-context beta.
  'claude-3-haiku': row(200_000, 4_096, anthropic(0.25, 0.03, 0.3, 1.25)),
  'claude-3-opus': row(200_000, 4_096, anthropic(15, 1.5, 18.75, 75)),
  'claude-3-5-haiku': row(200_000, 8_192, anthropic(0.8, 0.08, 1, 4)),
  'claude-3-5-sonnet': row(200_000, 8_192, anthropic(3, 0.3, 3.75, 15)),
  'claude-3-7-sonnet': row(200_000, 64_000, anthropic(3, 0.3, 3.75, 15)),
  'claude-sonnet-4': row(200_000, 64_000, anthropic(3, 0.3, 3.75, 15)),
  'claude-sonnet-4-0': row(200_000, 64_000, anthropic(3, 0.3, 3.75, 15)),
  'claude-opus-4': row(200_000, 32_000, anthropic(15, 1.5, 18.75, 75)),
  'claude-opus-4-0': row(200_000, 32_000, anthropic(15, 1.5, 18.75, 75)),
  'claude-opus-4-1': row(200_000, 32_000, anthropic(15, 1.5, 18.75, 75)),
  'claude-sonnet-4-5': row(200_000, 64_000, anthropic(3, 0.3, 3.75, 15)),
  'claude-haiku-4-5': row(200_000, 64_000, anthropic(1, 0.1, 1.25, 5)),
  'claude-opus-4-5': row(200_000, 64_000, anthropic(5, 0.5, 6.25, 25)),
  'claude-opus-4-6': row(1_000_000, 128_000, anthropic(5, 0.5, 6.25, 25)),
  'claude-sonnet-4-6': row(1_000_000, 128_000, anthropic(3, 0.3, 3.75, 15)),
  'claude-opus-4-8': row(1_000_000, 128_000, anthropic(5, 0.5, 6.25, 25)),
  // Sonnet 5 and later count with a new tokenizer (about 30% more tokens for the same text).
  'claude-sonnet-5': row(1_000_000, 128_000, anthropic(2, 0.2, 2.5, 10)),
  'claude-opus-5': row(1_000_000, 128_000, anthropic(5, 0.5, 6.25, 25)),
  // Sonnet 5.5's cache read was cut from $0.20 to $0.10 on 2026-10-07.
  'claude-sonnet-5-5': row(1_000_000, 128_000, anthropic(2, 0.1, 2.5, 10)),
  'claude-opus-5-5': row(1_000_000, 128_000, anthropic(4, 0.2, 5, 20)),
  // Haiku 5.5 is priced by prompt length: these are the rates of prompts up to 100,000 tokens.
  'claude-haiku-5-5': row(1_000_000, 128_000, anthropic(0.1, 0.01, 0.125, 0.5)),

  // Google Gemini. Limits: https://ai.google.dev/gemini-api/docs/models/<model> (the input token
  // limit is the window, so that a prompt never passes it); prices: GEMINI_PRICES, for prompts
  // up to 200k tokens where the price depends on prompt length.
  'gemini-1.5-pro': row(2_097_152, 8_192),
  'gemini-1.5-flash': row(1_048_576, 8_192),
  'gemini-2.0-flash': row(1_048_576, 8_192, gemini(0.1, 0.025, 0.4)),
  'gemini-2.0-flash-lite': row(1_048_576, 8_192, gemini(0.075, null, 0.3)),
  'gemini-2.5-pro': row(1_048_576, 65_536, gemini(1.25, 0.125, 10)),
  'gemini-2.5-flash': row(1_048_576, 65_536, gemini(0.3, 0.03, 2.5)),
  'gemini-2.5-flash-lite': row(1_048_576, 65_536, gemini(0.1, 0.01, 0.4)),
  'gemini-3-pro-preview': row(1_048_576, 65_536, gemini(2, 0.2, 12)),
  'gemini-3.1-pro-preview': row(1_048_576, 65_536, gemini(2, 0.2, 12)),

  // Mistral. Limits: https://docs.mistral.ai/getting-started/models (one window, shared by the
  // answer); prices: MISTRAL_PRICES. Dated ids only: the `-latest` aliases move between versions.
  'mistral-large-2411': row(131_072, 131_072, mistral(2, 6)),
  'mistral-large-2407': row(131_072, 131_072, mistral(2, 6)),
  'mistral-medium-2505': row(131_072, 131_072, mistral(0.4, 2)),
  'mistral-medium-3.5': row(262_144, 256_000, mistral(1.5, 7.5)),
  'mistral-small-2506': row(131_072, 131_072, mistral(0.1, 0.3)),
  'codestral-2501': row(262_144, 262_144, mistral(0.3, 0.9)),
  'ministral-8b': row(131_072, 131_072, mistral(0.1, 0.1)),
  'open-mistral-nemo': row(131_072, 131_072, mistral(0.15, 0.15)),

  // DeepSeek: https://api-docs.deepseek.com/quick_start/pricing (limits and prices; the
  // V4-Pro discount was made permanent). deepseek-chat and deepseek-reasoner were retired on
  // 2026-07-24.
  'deepseek-v4-flash': row(1_000_000, 384_000, deepseek(0.14, 0.0028, 0.28)),
  'deepseek-v4-pro': row(1_000_000, 384_000, deepseek(0.435, 0.003625, 0.87)),

  // Qwen. Limits and prices: QWEN_PRICES (Model Studio, international; prices of the shortest
  // prompt tier); open weights: the model card https://huggingface.co/Qwen/Qwen2.5-72B-Instruct.
  'qwen-max': row(32_768, 8_192),
  'qwen3-max': row(262_144, 65_536, qwen(1.2, 6)),
  'qwen3.8-max': row(991_000, 128_000, qwen(2, 6)),
  'qwen2.5': row(131_072, 8_192),

  // Moonshot (Kimi): https://platform.moonshot.ai/docs/introduction (the answer shares the
  // window).
  'moonshot-v1-8k': row(8_192, 8_192),
  'moonshot-v1-32k': row(32_768, 32_768),
  'moonshot-v1-128k': row(131_072, 131_072),
  'kimi-k2-0711-preview': row(131_072, 131_072),
  'kimi-k2-0905-preview': row(262_144, 262_144),
  'kimi-k2-thinking': row(262_144, 262_144),
  'kimi-k2.5': row(262_144, 262_144),
  'kimi-k2.6': row(262_144, 262_144),

  // Meta Llama: the model cards, https://www.llama.com/docs/model-cards-and-prompt-formats/ (the
  // answer shares the window). Hosts often serve less than the card's window (Llama 4 most of
  // all): pass `contextWindow` for yours.
  'llama-3': row(8_192, 8_192),
  llama3: row(8_192, 8_192),
  'meta-llama-3': row(8_192, 8_192),
  'llama-3.1': row(131_072, 131_072),
  'llama3.1': row(131_072, 131_072),
  'meta-llama-3.1': row(131_072, 131_072),
  'llama-3.2': row(131_072, 131_072),
  'llama3.2': row(131_072, 131_072),
  'llama-3.3': row(131_072, 131_072),
  'llama3.3': row(131_072, 131_072),
  'llama-4-scout': row(10_000_000, 10_000_000),
  'llama-4-maverick': row(1_000_000, 1_000_000),
});

/** Options of {@link getModelInfo} and {@link findModelInfo}. */
export interface ModelInfoOptions {
  /**
   * Rows that replace or extend the table, by model id (matched like the table, first).
   *
   * @default {}
   */
  overrides?: Readonly<Record<string, ModelTableEntry>>;
}

/**
 * Refuses rows of model overrides that hold a key a {@link ModelTableEntry} (or its `prices`) does
 * not have, such as `contextWindw`: a misspelt limit must not fall back to the table's. Every
 * function that takes overrides checks them here.
 *
 * @param overrides - the rows given, by model id; `undefined` passes
 * @param source - the package raising the error
 * @param factory - the function the caller called, such as `createContextManager`
 * @param option - the option that holds the rows, such as `modelOverrides`
 * @throws InvalidOptionError (`unknown_option`) naming the row, the unknown key and the closest
 *   known one; (`invalid_option`) for rows or a row that is not an object
 */
export function assertModelOverrides(
  overrides: unknown,
  source: string,
  factory: string,
  option: string,
): void {
  const check = optionChecker(source, factory);
  if (overrides === undefined) return;
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    throw check.invalid(option, overrides, 'an object of rows by model id');
  }
  for (const [id, entry] of Object.entries(overrides as object)) {
    const row = `${option}[${JSON.stringify(id)}]`;
    check.knownKeys(entry, ENTRY_KEYS, row);
    const prices = (entry as ModelTableEntry | undefined)?.prices;
    if (prices !== undefined) check.knownKeys(prices, PRICES_KEYS, `${row}.prices`);
  }
}

/**
 * What ctxkit knows about `model`: its limits and, where published, its prices. The id is
 * matched in `overrides` first, then in the table, ignoring case, provider prefixes
 * (`openai/gpt-4o`, `anthropic/claude-3.5-sonnet`, Bedrock's `us.anthropic.…-v1:0`), Vertex dates
 * (`claude-3-5-sonnet-v2@20241022`), host tags (`llama3.1:8b`), dots for dashes in versions, and
 * snapshot suffixes (`gpt-4o-2024-08-06`, `claude-sonnet-4-5-20250929`, `-latest`). A shorter
 * id never claims another model: `gpt-4` does not match `gpt-4o`, `o1` does not match `o1-mini`.
 * Throws an {@link UnknownModelError} when nothing matches: pass the model's limits in
 * `overrides` (or as `contextWindow` / `maxOutputTokens` where a model is an option).
 *
 * @param model - the model id, as given to the provider's API
 * @param options - rows to match before the table
 * @returns the model's limits, and its prices when published
 * @throws UnknownModelError (`unknown_model`) when nothing matches
 * @throws InvalidOptionError (`invalid_option`) for an empty id, or a matching override whose
 *   limits are not positive whole numbers
 */
export function getModelInfo(model: string, options: ModelInfoOptions = {}): ModelInfo {
  const info = findModelInfo(model, options);
  if (!info) {
    throw new UnknownModelError({
      model,
      fix: 'Add `{ contextWindow, maxOutputTokens }` for it to the overrides (`overrides` of getModelInfo).',
    });
  }
  return info;
}

/**
 * Like {@link getModelInfo}, but undefined for a model that neither `overrides` nor the table
 * knows, for a caller that has a way of its own to get the limits.
 *
 * @param model - the model id, as given to the provider's API
 * @param options - rows to match before the table
 * @returns the model's limits and prices, or `undefined` when nothing matches
 * @throws InvalidOptionError (`invalid_option`) for an empty id, or a matching override whose
 *   limits are not positive whole numbers; (`unknown_option`) for an option or an override's key
 *   that is not known
 */
export function findModelInfo(
  model: string,
  options: ModelInfoOptions = {},
): ModelInfo | undefined {
  if (typeof model !== 'string' || model.trim() === '') {
    throw new InvalidOptionError({
      code: 'invalid_option',
      message: `A model id must be a non-empty string, got ${JSON.stringify(model)}.`,
      details: { model },
    });
  }
  optionChecker('context-core', 'findModelInfo').knownKeys(options, INFO_OPTION_KEYS);
  assertModelOverrides(options.overrides, 'context-core', 'findModelInfo', 'overrides');
  const id = canonicalModelId(model);
  const overrides = canonicalRows(options.overrides ?? {});
  for (const rows of [overrides, TABLE_BY_CANONICAL_ID]) {
    const match = matchModelId(id, rows.keys());
    const found = match === undefined ? undefined : rows.get(match);
    if (found) {
      checkLimits(found.id, found.entry);
      return {
        id: found.id,
        contextWindow: found.entry.contextWindow,
        maxOutputTokens: found.entry.maxOutputTokens,
        ...(found.entry.prices ? { prices: found.entry.prices } : {}),
      };
    }
  }
  return undefined;
}

// --- internal helpers ---

type Row = { id: string; entry: Readonly<ModelTableEntry> };

const ENTRY_KEYS = Object.freeze({
  contextWindow: true,
  maxOutputTokens: true,
  prices: true,
} satisfies OptionKeys<ModelTableEntry>);

const PRICES_KEYS = Object.freeze({
  input: true,
  cachedInput: true,
  cacheWrite: true,
  output: true,
  pricesReadOn: true,
  source: true,
} satisfies OptionKeys<ModelPrices>);

const INFO_OPTION_KEYS = Object.freeze({ overrides: true } satisfies OptionKeys<ModelInfoOptions>);

const TABLE_BY_CANONICAL_ID = canonicalRows(MODEL_TABLE);

function canonicalRows(
  table: Readonly<Record<string, Readonly<ModelTableEntry>>>,
): Map<string, Row> {
  const rows = new Map<string, Row>();
  for (const [id, entry] of Object.entries(table)) rows.set(canonicalModelId(id), { id, entry });
  return rows;
}

function row(
  contextWindow: number,
  maxOutputTokens: number,
  prices?: ModelPrices,
): Readonly<ModelTableEntry> {
  return Object.freeze({ contextWindow, maxOutputTokens, ...(prices ? { prices } : {}) });
}

function prices(
  source: string,
  input: number,
  cachedInput: number | null,
  cacheWrite: number | null,
  output: number,
): ModelPrices {
  return Object.freeze({
    input,
    cachedInput,
    cacheWrite,
    output,
    pricesReadOn: PRICES_READ_ON,
    source,
  });
}

function openai(input: number, cachedInput: number | null, output: number): ModelPrices {
  return prices(OPENAI_PRICES, input, cachedInput, null, output);
}

function anthropic(input: number, cacheRead: number, cacheWrite: number, output: number) {
  return prices(ANTHROPIC_PRICES, input, cacheRead, cacheWrite, output);
}

function gemini(input: number, cachedInput: number | null, output: number): ModelPrices {
  return prices(GEMINI_PRICES, input, cachedInput, null, output);
}

function mistral(input: number, output: number): ModelPrices {
  return prices(MISTRAL_PRICES, input, null, null, output);
}

function deepseek(input: number, cacheHit: number, output: number): ModelPrices {
  return prices(DEEPSEEK_PRICES, input, cacheHit, null, output);
}

function qwen(input: number, output: number): ModelPrices {
  return prices(QWEN_PRICES, input, null, null, output);
}

function checkLimits(id: string, found: ModelLimits): void {
  for (const field of ['contextWindow', 'maxOutputTokens'] as const) {
    const value = found[field];
    if (!Number.isInteger(value) || value <= 0) {
      throw new InvalidOptionError({
        code: 'invalid_option',
        message: `Model override ${JSON.stringify(id)} has an invalid ${field}: ${String(value)}.`,
        details: { model: id, field, value },
      });
    }
  }
}
