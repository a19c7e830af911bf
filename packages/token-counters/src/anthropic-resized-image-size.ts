import { type AnthropicImageTier, checkAnthropicImageTier } from './anthropic-image-tier.js';
import { type ImageSize, requireImageSize } from './image-dimensions.js';

/** Side of one Claude visual token. */
const PATCH_SIDE = 28;

/**
 * Visual tokens of an image Claude reads at this size: one per 28 × 28-px patch,
 * `ceil(width / 28) × ceil(height / 28)`.
 *
 * @param size - The size Claude reads the image at, in pixels.
 * @returns the visual tokens
 * @throws InvalidOptionError (`invalid_option`) when a side is missing or not a positive integer
 * @see https://platform.claude.com/docs/en/build-with-claude/vision ("Resolution and token cost")
 */
export function anthropicVisualTokens(size: ImageSize): number {
  return visualTokensOf(requireImageSize(size, 'anthropicVisualTokens'));
}

/**
 * The size Claude scales an image to before reading it: unchanged when it fits both limits of the
 * tier (no side, padded to whole patches, longer than `maxLongEdge`; at most `maxVisualTokens`
 * patches), otherwise the largest aspect-preserving size that does. This follows the reference
 * implementation in Anthropic's guide, a binary search along the long side with the short side
 * rounded half to even, so that it lands on the same pixel: 1920 × 1080 becomes 1456 × 819 on the
 * standard tier, an A4 scan of 1075 × 1520 becomes 924 × 1307.
 *
 * @param size - The image's size in pixels.
 * @param tier - The model's resolution tier (`anthropicImageTier(model)`).
 * @returns the size Claude reads, before padding to whole patches
 * @throws InvalidOptionError (`invalid_option`) when a side is missing or not a positive
 *   integer, or a tier limit is not a positive integer
 * @see https://platform.claude.com/docs/en/build-with-claude/vision-coordinates ("How Claude resizes and pads images")
 */
export function anthropicResizedImageSize(size: ImageSize, tier: AnthropicImageTier): ImageSize {
  const caller = 'anthropicResizedImageSize';
  return resizedSizeOf(
    requireImageSize(size, caller),
    checkAnthropicImageTier(tier, caller, 'tier'),
  );
}

/** {@link anthropicVisualTokens} of a checked size. */
export function visualTokensOf(size: ImageSize): number {
  return Math.ceil(size.width / PATCH_SIDE) * Math.ceil(size.height / PATCH_SIDE);
}

/** {@link anthropicResizedImageSize} of a checked size and tier. */
export function resizedSizeOf(size: ImageSize, tier: AnthropicImageTier): ImageSize {
  if (fits(size.width, size.height, tier)) return size;
  if (size.height > size.width) {
    const transposed = resizedSizeOf({ width: size.height, height: size.width }, tier);
    return { width: transposed.height, height: transposed.width };
  }
  const aspectRatio = size.width / size.height;
  const shortSide = (longSide: number): number =>
    Math.max(roundHalfToEven(longSide / aspectRatio), 1);
  // `low` always fits and `high` never does.
  let low = 1;
  let high = size.width;
  while (low + 1 < high) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle, shortSide(middle), tier)) low = middle;
    else high = middle;
  }
  return { width: low, height: shortSide(low) };
}

// --- internal helpers ---

function fits(width: number, height: number, tier: AnthropicImageTier): boolean {
  return (
    Math.ceil(width / PATCH_SIDE) * PATCH_SIDE <= tier.maxLongEdge &&
    Math.ceil(height / PATCH_SIDE) * PATCH_SIDE <= tier.maxLongEdge &&
    visualTokensOf({ width, height }) <= tier.maxVisualTokens
  );
}

/** Python's `round`: to the nearest integer, a half to the even one. */
function roundHalfToEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
