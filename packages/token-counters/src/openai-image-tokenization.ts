import { checkName, invalidOption } from './check-option.js';
import { matchModel } from './match-model.js';

/**
 * The `detail` of an OpenAI image input. `original` exists on the models whose tokenization has
 * an `original` sizing (gpt-5.4 and later); `auto`, the API's default, means what
 * {@link OpenAIPatchTokenization.auto} says, and `high` on tile models.
 */
export type OpenAIImageDetail = 'low' | 'high' | 'original' | 'auto';

/** The `detail` values, for checks and lists. */
export const OPENAI_IMAGE_DETAILS: readonly OpenAIImageDetail[] = Object.freeze([
  'low',
  'high',
  'original',
  'auto',
]);

/**
 * Tile tokenization (gpt-4o, gpt-4.1, gpt-4.5, gpt-5, gpt-5.1, o1, o3, computer-use-preview):
 * `low` costs `baseTokens`; `high` and `auto` cost `baseTokens` plus `tileTokens` per 512-px tile
 * of the image fitted into 2048 × 2048 and then to a shortest side of at most 768 px.
 */
export interface OpenAITileTokenization {
  /** Discriminant. */
  readonly kind: 'tiles';
  /** Tokens of every image, and all a `low` image costs. */
  readonly baseTokens: number;
  /** Tokens per 512 × 512 tile at `high` detail. */
  readonly tileTokens: number;
}

/** How a patch model sizes an image at one detail level before counting patches. */
export interface OpenAIPatchSizing {
  /** Longest side, in pixels, the image is scaled down to fit (never enlarged). */
  readonly maxDimension: number;
  /** Most 32-px patches; an image needing more is scaled down to fit. Null: no budget. */
  readonly patchBudget: number | null;
}

/**
 * Patch tokenization (gpt-5.2 and later, the mini and nano models, o4-mini): the image is fitted
 * into `maxDimension`, then scaled down to the patch budget, and covered by 32 × 32-px patches;
 * the token count is the patch count times `multiplier`, rounded up.
 */
export interface OpenAIPatchTokenization {
  /** Discriminant. */
  readonly kind: 'patches';
  /** Tokens per patch, as published (1.2, 1.62, ...); applied to at most six decimals. */
  readonly multiplier: number;
  /** Sizing at `detail: 'low'`. */
  readonly low: OpenAIPatchSizing;
  /** Sizing at `detail: 'high'`. */
  readonly high: OpenAIPatchSizing;
  /** Sizing at `detail: 'original'`; absent where the model does not support it. */
  readonly original?: OpenAIPatchSizing;
  /** The sizing `detail: 'auto'` (and a missing `detail`) uses. */
  readonly auto: 'low' | 'high' | 'original';
}

/** How an OpenAI model turns an image into tokens. */
export type OpenAIImageTokenization = OpenAITileTokenization | OpenAIPatchTokenization;

/** Where every figure of {@link OPENAI_IMAGE_TOKENIZATION} comes from. */
export const OPENAI_IMAGE_SOURCE = 'https://developers.openai.com/api/docs/guides/images-vision';

/**
 * Image tokenization of OpenAI's vision models, keyed by model family (a snapshot or variant id
 * resolves to its longest matching key: `gpt-4o-2024-08-06` to `gpt-4o`, `gpt-5.4-mini` to
 * `gpt-5.4`).
 *
 * Source: {@link OPENAI_IMAGE_SOURCE} ("Model sizing behavior" and "Calculating costs"), the
 * revision that lists gpt-5.6. From that revision: every patch model's sizing and multiplier,
 * and the tiles of gpt-4o, gpt-4.1, gpt-4o-mini, gpt-5, gpt-5.1, o1 and o3. That revision leaves
 * its deprecated patch models (gpt-5-mini, gpt-5-nano, gpt-4.1-nano, o4-mini) out of the sizing
 * table; their sizing is the earlier revision's (`high`: 1,536 patches within 2048 px) and their
 * `low` the 512 × 512 px version every model receives at `low`. Also from the earlier revision:
 * gpt-4.5 and computer-use-preview (tiles), and the codex models it listed with a 1,536-patch
 * budget and no multiplier (a multiplier of 1 here). Earlier revisions gave other multipliers
 * (gpt-5-mini 1.62, gpt-5-nano 2.46): the table follows the newest.
 */
export const OPENAI_IMAGE_TOKENIZATION: Readonly<Record<string, OpenAIImageTokenization>> =
  Object.freeze({
    // Patch models: sizing table and multipliers of the gpt-5.6 revision.
    'gpt-5.6': patches(1.2, sizing(512), sizing(2048, 2500), 'original', sizing(65_535)),
    'gpt-5.5': patches(1.2, sizing(512), sizing(2048, 2500), 'original', sizing(6000, 10_000)),
    'gpt-5.4': patches(1.2, sizing(2048, 6144), sizing(2048, 2500), 'high', sizing(6000, 10_000)),
    'gpt-5.2': patches(1.2, sizing(2048, 6144), sizing(2048, 6144), 'high'),
    'gpt-4.1-mini': patches(1.62, sizing(2048, 6144), sizing(2048, 6144), 'high'),
    // Deprecated patch models: multipliers of the gpt-5.6 revision, sizing of the earlier one.
    'gpt-5-mini': patches(1.2, sizing(512), sizing(2048, 1536), 'high'),
    'gpt-5-nano': patches(1.5, sizing(512), sizing(2048, 1536), 'high'),
    'gpt-4.1-nano': patches(2.46, sizing(512), sizing(2048, 1536), 'high'),
    'o4-mini': patches(1.72, sizing(512), sizing(2048, 1536), 'high'),
    // Listed with a 1,536-patch budget and no multiplier by the earlier revision.
    'gpt-5-codex-mini': patches(1, sizing(512), sizing(2048, 1536), 'high'),
    'gpt-5.1-codex-mini': patches(1, sizing(512), sizing(2048, 1536), 'high'),
    'gpt-5.3-codex': patches(1, sizing(512), sizing(2048, 1536), 'high'),
    // Tile models.
    'gpt-5.1': tiles(70, 140),
    'gpt-5': tiles(70, 140),
    'gpt-4o': tiles(85, 170),
    'gpt-4.1': tiles(85, 170),
    'gpt-4.5': tiles(85, 170),
    'gpt-4o-mini': tiles(2833, 5667),
    o1: tiles(75, 150),
    o3: tiles(75, 150),
    'computer-use-preview': tiles(65, 129),
  });

/**
 * The image tokenization of an OpenAI model, from {@link OPENAI_IMAGE_TOKENIZATION}.
 *
 * @param model - A model id such as `gpt-4o` or `gpt-5.4-mini-2026-03-17`; a gateway prefix
 *   (`openai/`) is ignored.
 * @returns the model's tokenization
 * @throws InvalidOptionError (`invalid_option`) when the model is not in the table (pass an
 *   {@link OpenAIImageTokenization} of your own to the counting function instead)
 * @see {@link OPENAI_IMAGE_SOURCE}
 */
export function openAIImageTokenization(model: string): OpenAIImageTokenization {
  checkName('openAIImageTokenization', 'model', model);
  const key = matchModel(model, OPENAI_IMAGE_TOKENIZATION);
  if (key === undefined) {
    throw invalidOption(
      'openAIImageTokenization',
      'model',
      model,
      'an OpenAI vision model with a published image formula (or pass a tokenization object)',
    );
  }
  return OPENAI_IMAGE_TOKENIZATION[key] as OpenAIImageTokenization;
}

// --- internal helpers ---

function tiles(baseTokens: number, tileTokens: number): OpenAITileTokenization {
  return Object.freeze({ kind: 'tiles', baseTokens, tileTokens });
}

function sizing(maxDimension: number, patchBudget: number | null = null): OpenAIPatchSizing {
  return Object.freeze({ maxDimension, patchBudget });
}

function patches(
  multiplier: number,
  low: OpenAIPatchSizing,
  high: OpenAIPatchSizing,
  auto: OpenAIPatchTokenization['auto'],
  original?: OpenAIPatchSizing,
): OpenAIPatchTokenization {
  return Object.freeze(
    original === undefined
      ? { kind: 'patches', multiplier, low, high, auto }
      : { kind: 'patches', multiplier, low, high, original, auto },
  );
}
