import type { ImageSize } from './image-dimensions.js';
import type { OpenAITileTokenization } from './openai-image-tokenization.js';

/** Side of the square a tile model first fits an image into. */
const FIT_SIDE = 2048;
/** Longest shortest side a tile model keeps. */
const SHORT_SIDE = 768;
/** Side of one tile. */
const TILE_SIDE = 512;

/**
 * Tokens of an image at `detail: 'high'` on a tile model: scale down to fit 2048 × 2048, then,
 * when the shortest side exceeds 768 px, scale it down to 768 px (rounding the other side down);
 * count the 512-px tiles that cover the result, `tileTokens` each, plus `baseTokens`. Smaller
 * images are never enlarged. Both scalings round down: an image is whole pixels.
 *
 * @param size - The image's size in pixels.
 * @param tokenization - The model's base and tile tokens.
 * @returns the image's tokens
 * @see https://developers.openai.com/api/docs/guides/images-vision ("Tile-based image tokenization")
 */
export function openAITileTokens(size: ImageSize, tokenization: OpenAITileTokenization): number {
  let [long, short] =
    size.width >= size.height ? [size.width, size.height] : [size.height, size.width];
  if (long > FIT_SIDE) {
    short = Math.max(1, Math.floor((short * FIT_SIDE) / long));
    long = FIT_SIDE;
  }
  if (short > SHORT_SIDE) {
    long = Math.floor((long * SHORT_SIDE) / short);
    short = SHORT_SIDE;
  }
  const tiles = Math.ceil(long / TILE_SIDE) * Math.ceil(short / TILE_SIDE);
  return tokenization.baseTokens + tiles * tokenization.tileTokens;
}

/** The largest image a tile model keeps after fitting: 2048 px by a 768-px shortest side. */
export const OPENAI_LARGEST_TILED_IMAGE: ImageSize = Object.freeze({
  width: FIT_SIDE,
  height: SHORT_SIDE,
});
