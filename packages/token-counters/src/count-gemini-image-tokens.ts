import { checkOneOf } from './check-option.js';
import { geminiMajorVersion } from './gemini-model-version.js';
import { type ImageDimensions, type ImageSize, imageSizeOf } from './image-dimensions.js';

/**
 * Gemini's `media_resolution` (per request, or per part on Gemini 3), without the
 * `MEDIA_RESOLUTION_` prefix; `unspecified` is the API's default.
 */
export type GeminiMediaResolution = 'low' | 'medium' | 'high' | 'ultra_high' | 'unspecified';

/** The `media_resolution` values, for checks and lists. */
export const GEMINI_MEDIA_RESOLUTIONS: readonly GeminiMediaResolution[] = Object.freeze([
  'low',
  'medium',
  'high',
  'ultra_high',
  'unspecified',
]);

/**
 * Tokens of one image on Gemini 3 models by `media_resolution` (the most the model allocates per
 * image; `unspecified` is `high`, the default for images). `ultra_high` can only be set per part.
 */
export const GEMINI_3_IMAGE_TOKENS: Readonly<Record<GeminiMediaResolution, number>> = Object.freeze(
  {
    low: 280,
    medium: 560,
    high: 1120,
    ultra_high: 2240,
    unspecified: 1120,
  },
);

/** Tokens of one 768 × 768 tile (and of a small image) on Gemini 2.5 and earlier. */
export const GEMINI_TILE_TOKENS = 258;

/** An image input to a Gemini model: its size (when known) and its `media_resolution`. */
export interface GeminiImage extends ImageDimensions {
  /** The `media_resolution` in effect for the image; `unspecified` when left out. */
  readonly mediaResolution?: GeminiMediaResolution;
}

const CALLER = 'countGeminiImageTokens';
/** Side of the square larger images are scaled down to fit. */
const FIT_SIDE = 3072;
/** Images with both sides at most this many pixels cost one tile. */
const SMALL_SIDE = 384;
/** Bounds of the crop unit. */
const MIN_CROP_UNIT = 256;
const MAX_CROP_UNIT = 768;
/** The image of the most tiles: long side at the fit limit, short side where the unit is 256 px. */
const MOST_TILED_IMAGE: ImageSize = Object.freeze({ width: FIT_SIDE, height: SMALL_SIDE });

/**
 * Input tokens one image costs on a Gemini model.
 *
 * Gemini 3 and later: a fixed budget per image by `media_resolution` (low 280, medium 560, high
 * 1120, ultra high 2240; unspecified is high), whatever the size.
 *
 * Gemini 2.5 and earlier (Gemini 1.5 and 2.x): an image with both sides at most 384 px costs 258
 * tokens. A larger one is scaled down to fit 3072 × 3072 and cut into crop units of its shortest
 * side / 1.5, kept between 256 and 768 px; each unit is resized to a 768 × 768 tile of 258
 * tokens. `media_resolution` on these models is not modelled: the tile rule, their default, is
 * counted (the lower settings cost less, so this never undercounts).
 *
 * An image of unknown size (no `width`, no `height`) costs the Gemini 3 budget, or on earlier
 * models the most tiles any image can make: 24 (a 3072 × 384 image), 6192 tokens.
 *
 * @param image - The image's size in pixels (or neither side when unknown) and its
 *   `mediaResolution`.
 * @param model - A Gemini model id such as `gemini-2.5-flash` or `gemini-3-pro-preview`; a
 *   `models/` or gateway prefix is ignored.
 * @returns the image's input tokens
 * @throws InvalidOptionError (`invalid_option`) when a side is not a positive integer, only one
 *   side is given, `mediaResolution` is not one of its values, or `model` is not a Gemini id
 * @see https://ai.google.dev/gemini-api/docs/tokens ("Count multimodal tokens")
 * @see https://ai.google.dev/gemini-api/docs/media-resolution ("Token counts", Gemini 3)
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/image-understanding ("Images: Tokenization", the crop unit)
 */
export function countGeminiImageTokens(image: GeminiImage, model: string): number {
  const size = imageSizeOf(image, CALLER);
  const resolution = checkOneOf(
    CALLER,
    'mediaResolution',
    image.mediaResolution ?? 'unspecified',
    GEMINI_MEDIA_RESOLUTIONS,
  );
  if (geminiMajorVersion(model, CALLER) >= 3) return GEMINI_3_IMAGE_TOKENS[resolution];
  return geminiTiles(size ?? MOST_TILED_IMAGE) * GEMINI_TILE_TOKENS;
}

// --- internal helpers ---

/** Tiles of an image on Gemini 2.5 and earlier. */
function geminiTiles(size: ImageSize): number {
  const { width, height } = fitWithin(size);
  if (width <= SMALL_SIDE && height <= SMALL_SIDE) return 1;
  const shortest = Math.min(width, height);
  // The crop unit is shortest / 1.5 = 2 × shortest / 3, clamped; whole-pixel units divide
  // exactly, and the unclamped one is divided in integers so that 3 × side / (2 × shortest)
  // lands on whole tiles without rounding error.
  const across = (side: number): number => {
    if (2 * shortest < 3 * MIN_CROP_UNIT) return Math.ceil(side / MIN_CROP_UNIT);
    if (2 * shortest > 3 * MAX_CROP_UNIT) return Math.ceil(side / MAX_CROP_UNIT);
    return Math.ceil((3 * side) / (2 * shortest));
  };
  return across(width) * across(height);
}

function fitWithin(size: ImageSize): ImageSize {
  const long = Math.max(size.width, size.height);
  if (long <= FIT_SIDE) return size;
  const short = Math.max(1, Math.floor((Math.min(size.width, size.height) * FIT_SIDE) / long));
  return size.width >= size.height
    ? { width: FIT_SIDE, height: short }
    : { width: short, height: FIT_SIDE };
}
