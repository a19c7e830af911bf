import type { ImageSize } from './image-dimensions.js';
import type { OpenAIPatchSizing } from './openai-image-tokenization.js';

/** Side of one patch. */
const PATCH_SIDE = 32;
/**
 * Most patches the API accepts in one image; it rejects more ("Image input requirements" of
 * https://developers.openai.com/api/docs/guides/images-vision). Bounds the cost of an image of
 * unknown size where a sizing has no patch budget (gpt-5.6 at `original`).
 */
export const OPENAI_MAX_PATCHES = 30_000;

/**
 * Patches of an image on a patch model, before the multiplier, following the four steps of
 * OpenAI's "Patch-based image tokenization":
 * 1. fit the image into `maxDimension` (aspect kept, rounded to whole pixels, never enlarged);
 * 2. cover it with 32 × 32-px patches (a patch may reach past the edge);
 * 3. when that exceeds `patchBudget`, scale by `sqrt(32² × budget / (width × height))`, adjusted
 *    down so that whole patches fit (`× min(floor(w·s/32)/(w·s/32), floor(h·s/32)/(h·s/32))`),
 *    round both sides down, and cover again;
 * 4. cap the count at the budget.
 *
 * @param size - The image's size in pixels.
 * @param sizing - The model's sizing at the chosen detail.
 * @returns the patch count
 * @see https://developers.openai.com/api/docs/guides/images-vision ("Patch-based image tokenization")
 */
export function openAIPatchCount(size: ImageSize, sizing: OpenAIPatchSizing): number {
  const { width, height } = fitWithin(size, sizing.maxDimension);
  const patches = patchesCovering(width, height);
  const budget = sizing.patchBudget;
  if (budget === null || patches <= budget) return patches;
  const shrink = Math.sqrt((PATCH_SIDE * PATCH_SIDE * budget) / (width * height));
  const adjusted =
    shrink * Math.min(wholePatchRatio(width * shrink), wholePatchRatio(height * shrink));
  const resizedWidth = Math.max(1, Math.floor(width * adjusted));
  const resizedHeight = Math.max(1, Math.floor(height * adjusted));
  return Math.min(budget, patchesCovering(resizedWidth, resizedHeight));
}

/**
 * The most patches any image can need at `sizing`: the budget, or the patches of a square of
 * `maxDimension` when that is fewer, or {@link OPENAI_MAX_PATCHES} without a budget.
 */
export function openAIMaxPatchCount(sizing: OpenAIPatchSizing): number {
  const square = patchesCovering(sizing.maxDimension, sizing.maxDimension);
  return Math.min(square, sizing.patchBudget ?? OPENAI_MAX_PATCHES);
}

/**
 * `patches × multiplier`, rounded up, with the multiplier taken to six decimals in integer
 * arithmetic, so that `2500 × 1.2` is 3000 and not 3001.
 */
export function applyPatchMultiplier(patches: number, multiplier: number): number {
  const millionths = Math.round(multiplier * 1_000_000);
  return Math.ceil((patches * millionths) / 1_000_000);
}

// --- internal helpers ---

function fitWithin(size: ImageSize, maxDimension: number): ImageSize {
  const long = Math.max(size.width, size.height);
  if (long <= maxDimension) return size;
  const scale = maxDimension / long;
  return size.width >= size.height
    ? { width: maxDimension, height: Math.max(1, Math.round(size.height * scale)) }
    : { width: Math.max(1, Math.round(size.width * scale)), height: maxDimension };
}

function patchesCovering(width: number, height: number): number {
  return Math.ceil(width / PATCH_SIDE) * Math.ceil(height / PATCH_SIDE);
}

/** The share of a side's patches that whole patches cover (at least one patch). */
function wholePatchRatio(side: number): number {
  const patches = side / PATCH_SIDE;
  return Math.max(1, Math.floor(patches)) / patches;
}
