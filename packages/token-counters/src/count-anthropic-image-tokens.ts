import {
  type AnthropicImageTier,
  anthropicImageTier,
  checkAnthropicImageTier,
} from './anthropic-image-tier.js';
import { resizedSizeOf, visualTokensOf } from './anthropic-resized-image-size.js';
import { type ImageDimensions, imageSizeOf } from './image-dimensions.js';

const CALLER = 'countAnthropicImageTokens';

/**
 * Input tokens one image costs on a Claude model: the image is scaled down (never up) to the
 * largest size within the model's tier — 1568 px and 1568 visual tokens on the standard tier,
 * 2576 px and 4784 on the high-resolution tier (Claude Opus 4.7 and later) — and costs one token
 * per 28 × 28-px patch, `ceil(width / 28) × ceil(height / 28)`. The guide's table, reproduced in
 * the tests: 200 × 200 is 64 tokens, 1000 × 1000 is 1296, 1092 × 1092 is 1521; 1920 × 1080 is
 * 1560 on the standard tier (read at 1456 × 819) and 2691 on the high-resolution tier.
 *
 * Earlier revisions of the guide estimated `width × height / 750` (1092 × 1092 ≈ 1590) with a
 * 1568-px long edge and about 1.15 megapixels; the patch formula replaced it and is used here.
 *
 * An image of unknown size (no `width`, no `height`) costs the tier's most, 1568 or 4784 tokens.
 *
 * @param image - The image's size in pixels, or neither side when unknown.
 * @param model - A Claude model id (its tier is looked up with `anthropicImageTier`), or a tier.
 * @returns the image's input tokens, an integer of at least 1
 * @throws InvalidOptionError (`invalid_option`) when a side is not a positive integer, only one
 *   side is given, `model` is an empty string, or a tier's limits are not positive integers
 * @see https://platform.claude.com/docs/en/build-with-claude/vision ("Resolution and token cost")
 */
export function countAnthropicImageTokens(
  image: ImageDimensions,
  model: string | AnthropicImageTier,
): number {
  const size = imageSizeOf(image, CALLER);
  const tier =
    typeof model === 'string'
      ? anthropicImageTier(model)
      : checkAnthropicImageTier(model, CALLER, 'model');
  if (size === undefined) return tier.maxVisualTokens;
  return visualTokensOf(resizedSizeOf(size, tier));
}
