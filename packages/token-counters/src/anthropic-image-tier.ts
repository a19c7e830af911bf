import { checkInteger, checkName, invalidOption } from './check-option.js';
import { claudeModelVersion } from './claude-model-version.js';

/** A Claude resolution tier: the largest image a model reads without scaling it down. */
export interface AnthropicImageTier {
  /** `standard` or `high-resolution`. */
  readonly name: 'standard' | 'high-resolution';
  /** Longest side, in pixels. */
  readonly maxLongEdge: number;
  /** Most visual tokens (28 × 28-px patches) per image. */
  readonly maxVisualTokens: number;
}

/** Where the tiers and the patch formula come from. */
export const ANTHROPIC_IMAGE_SOURCE =
  'https://platform.claude.com/docs/en/build-with-claude/vision';

/**
 * Claude's resolution tiers ("Resolution and token cost"): high resolution (Claude Opus 4.7 and
 * later, Claude Sonnet 5, Claude Fable 5, Claude Mythos 5) reads up to 2576 px and 4784 visual
 * tokens per image; every other model up to 1568 px and 1568 visual tokens.
 */
export const ANTHROPIC_IMAGE_TIERS: Readonly<
  Record<AnthropicImageTier['name'], AnthropicImageTier>
> = Object.freeze({
  standard: Object.freeze({ name: 'standard', maxLongEdge: 1568, maxVisualTokens: 1568 }),
  'high-resolution': Object.freeze({
    name: 'high-resolution',
    maxLongEdge: 2576,
    maxVisualTokens: 4784,
  }),
});

/**
 * The resolution tier of a Claude model: high resolution for Claude 4.7 and later (and the Fable
 * and Mythos models), standard for every other model, as the vision guide lists them.
 *
 * @param model - A model id such as `claude-opus-4-7` or `claude-sonnet-4-5-20250929`.
 * @returns the model's tier
 * @throws InvalidOptionError (`invalid_option`) when `model` is not a non-empty string
 * @see https://platform.claude.com/docs/en/build-with-claude/vision ("Resolution and token cost")
 */
export function anthropicImageTier(model: string): AnthropicImageTier {
  checkName('anthropicImageTier', 'model', model);
  const version = claudeModelVersion(model);
  const highResolution =
    version !== undefined &&
    (version.family === 'fable' ||
      version.family === 'mythos' ||
      version.major > 4 ||
      (version.major === 4 && version.minor >= 7));
  return ANTHROPIC_IMAGE_TIERS[highResolution ? 'high-resolution' : 'standard'];
}

/**
 * Checks a tier the caller wrote: an object with positive whole limits.
 *
 * @param tier - The tier as the caller gave it.
 * @param caller - The public function, named in errors.
 * @param option - The argument it was given as.
 * @returns the tier
 * @throws InvalidOptionError (`invalid_option`) when a limit is not a positive integer
 */
export function checkAnthropicImageTier(
  tier: AnthropicImageTier,
  caller: string,
  option: string,
): AnthropicImageTier {
  if (typeof tier !== 'object' || tier === null) {
    throw invalidOption(caller, option, tier, 'a tier object');
  }
  checkInteger(caller, `${option}.maxLongEdge`, tier.maxLongEdge, 1, 'a positive integer');
  checkInteger(caller, `${option}.maxVisualTokens`, tier.maxVisualTokens, 1, 'a positive integer');
  return tier;
}
