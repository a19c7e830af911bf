import { checkInteger, checkOneOf, invalidOption } from './check-option.js';
import { type ImageDimensions, imageSizeOf } from './image-dimensions.js';
import {
  OPENAI_IMAGE_DETAILS,
  type OpenAIImageDetail,
  type OpenAIImageTokenization,
  type OpenAIPatchSizing,
  type OpenAIPatchTokenization,
  openAIImageTokenization,
} from './openai-image-tokenization.js';
import {
  applyPatchMultiplier,
  OPENAI_MAX_PATCHES,
  openAIMaxPatchCount,
  openAIPatchCount,
} from './openai-patch-tokens.js';
import { OPENAI_LARGEST_TILED_IMAGE, openAITileTokens } from './openai-tile-tokens.js';

/** An image input to an OpenAI model: its size (when known) and its `detail`. */
export interface OpenAIImage extends ImageDimensions {
  /** The `detail` sent with the image; `auto` (the API's default) when left out. */
  readonly detail?: OpenAIImageDetail;
}

const CALLER = 'countOpenAIImageTokens';

/**
 * Input tokens one image costs on an OpenAI model, by the formula OpenAI publishes for it.
 *
 * Tile models (gpt-4o, gpt-4.1, gpt-4.5, gpt-5, gpt-5.1, o1, o3): `low` costs the base tokens
 * whatever the size; `high` and `auto` fit the image into 2048 × 2048, scale its shortest side
 * down to 768 px, and add the tile tokens of every 512-px tile to the base (gpt-4o: 1024 × 1024
 * is 765 tokens, 2048 × 4096 is 1105, any size at `low` is 85).
 *
 * Patch models (gpt-5.2 and later, gpt-4.1-mini and -nano, gpt-5-mini and -nano, o4-mini): the
 * image is fitted into the detail's pixel limit, scaled down to its patch budget and covered by
 * 32-px patches; the tokens are the patches times the model's multiplier, rounded up (gpt-5.4 at
 * `high`: 1024 × 1024 is 1024 patches, `ceil(1024 × 1.2)` = 1229 tokens; 2048 × 2048 is cut to
 * 1600 × 1600, 2500 patches, 3000 tokens). `auto` uses the sizing the model's row names.
 *
 * An image of unknown size (no `width`, no `height`) costs the most any image can cost at that
 * detail: the base plus 8 tiles (a 2048 × 768 image), or the patch budget (bounded by the
 * detail's pixel limit, and by the 30,000 patches the API accepts where there is no budget).
 *
 * @param image - The image's size in pixels (or neither side when unknown) and its `detail`.
 * @param model - A model id looked up in `OPENAI_IMAGE_TOKENIZATION`, or a tokenization of
 *   your own for a model the table does not have.
 * @returns the image's input tokens, an integer of at least 1
 * @throws InvalidOptionError (`invalid_option`) when a side is not a positive integer, only one
 *   side is given, `detail` is not one of `low`, `high`, `original`, `auto`, `original` is asked
 *   of a model without it, the model is not in the table, or the image needs more than the
 *   30,000 patches the API accepts (possible only where a sizing has no patch budget)
 * @see https://developers.openai.com/api/docs/guides/images-vision ("Calculating costs")
 */
export function countOpenAIImageTokens(
  image: OpenAIImage,
  model: string | OpenAIImageTokenization,
): number {
  const size = imageSizeOf(image, CALLER);
  const detail = checkOneOf(CALLER, 'detail', image.detail ?? 'auto', OPENAI_IMAGE_DETAILS);
  const tokenization =
    typeof model === 'string' ? openAIImageTokenization(model) : checkTokenization(model);
  if (tokenization.kind === 'tiles') {
    if (detail === 'original') {
      throw invalidOption(CALLER, 'detail', detail, "'low', 'high' or 'auto' on a tile model");
    }
    if (detail === 'low') return tokenization.baseTokens;
    return openAITileTokens(size ?? OPENAI_LARGEST_TILED_IMAGE, tokenization);
  }
  const sizing = patchSizing(tokenization, detail);
  if (size === undefined) {
    return applyPatchMultiplier(openAIMaxPatchCount(sizing), tokenization.multiplier);
  }
  const patches = openAIPatchCount(size, sizing);
  if (patches > OPENAI_MAX_PATCHES) {
    throw invalidOption(
      CALLER,
      'image',
      `${size.width} × ${size.height} px (${patches} patches)`,
      `at most ${OPENAI_MAX_PATCHES} patches at this detail, the most the API accepts`,
    );
  }
  return applyPatchMultiplier(patches, tokenization.multiplier);
}

// --- internal helpers ---

/** A tokenization the caller wrote: whole, non-negative token figures and positive sizes. */
function checkTokenization(tokenization: OpenAIImageTokenization): OpenAIImageTokenization {
  if (typeof tokenization !== 'object' || tokenization === null) {
    throw invalidOption(CALLER, 'model', tokenization, 'a model id or a tokenization object');
  }
  const kind = checkOneOf(CALLER, 'model.kind', tokenization.kind, ['tiles', 'patches'] as const);
  if (kind === 'tiles') {
    const tiles = tokenization as OpenAIImageTokenization & { kind: 'tiles' };
    checkInteger(CALLER, 'model.baseTokens', tiles.baseTokens, 0, 'a non-negative integer');
    checkInteger(CALLER, 'model.tileTokens', tiles.tileTokens, 0, 'a non-negative integer');
    return tokenization;
  }
  const patches = tokenization as OpenAIPatchTokenization;
  const { multiplier } = patches;
  if (typeof multiplier !== 'number' || !Number.isFinite(multiplier) || multiplier <= 0) {
    throw invalidOption(CALLER, 'model.multiplier', multiplier, 'a positive number');
  }
  checkOneOf(CALLER, 'model.auto', patches.auto, ['low', 'high', 'original'] as const);
  for (const level of ['low', 'high', 'original'] as const) {
    const sizing = patches[level];
    if (sizing === undefined && level === 'original') continue;
    const option = `model.${level}`;
    if (typeof sizing !== 'object' || sizing === null) {
      throw invalidOption(CALLER, option, sizing, 'a sizing object');
    }
    checkInteger(CALLER, `${option}.maxDimension`, sizing.maxDimension, 1, 'a positive integer');
    if (sizing.patchBudget !== null) {
      checkInteger(
        CALLER,
        `${option}.patchBudget`,
        sizing.patchBudget,
        1,
        'a positive integer or null',
      );
    }
  }
  return tokenization;
}

function patchSizing(
  tokenization: OpenAIPatchTokenization,
  detail: OpenAIImageDetail,
): OpenAIPatchSizing {
  const level = detail === 'auto' ? tokenization.auto : detail;
  const sizing = tokenization[level];
  if (sizing === undefined) {
    throw invalidOption(CALLER, 'detail', detail, "'low', 'high' or 'auto' on this model");
  }
  return sizing;
}
