import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_IMAGE_TIERS,
  anthropicImageTier,
  anthropicResizedImageSize,
  anthropicVisualTokens,
  countAnthropicImageTokens,
} from '../src/index.js';
import { expectInvalidOption, imageSize, scale } from './helpers.js';

const STANDARD = 'claude-sonnet-4-5-20250929';
const HIGH_RESOLUTION = 'claude-opus-4-7';

describe('countAnthropicImageTokens: the guide’s table', () => {
  // "Resolution and token cost": image size, standard-tier tokens, high-resolution-tier tokens.
  const table: [width: number, height: number, standard: number, highResolution: number][] = [
    [200, 200, 64, 64],
    [1000, 1000, 1296, 1296],
    [1092, 1092, 1521, 1521],
    [1920, 1080, 1560, 2691],
    [2000, 1500, 1564, 3888],
    [3840, 2160, 1560, 4784],
  ];
  it.each(table)(
    '%i × %i px: %i tokens standard, %i high resolution',
    (width, height, standard, high) => {
      expect(countAnthropicImageTokens({ width, height }, STANDARD)).toBe(standard);
      expect(countAnthropicImageTokens({ width, height }, HIGH_RESOLUTION)).toBe(high);
    },
  );

  it('scales as the reference implementation does: 1920 × 1080 to 1456 × 819, an A4 scan to 924 × 1307', () => {
    const standard = ANTHROPIC_IMAGE_TIERS.standard;
    expect(anthropicResizedImageSize({ width: 1920, height: 1080 }, standard)).toEqual({
      width: 1456,
      height: 819,
    });
    // 1075 × 1520 fits the edge limit but needs 39 × 55 = 2145 patches.
    expect(anthropicVisualTokens({ width: 1075, height: 1520 })).toBe(2145);
    expect(anthropicResizedImageSize({ width: 1075, height: 1520 }, standard)).toEqual({
      width: 924,
      height: 1307,
    });
    expect(countAnthropicImageTokens({ width: 1075, height: 1520 }, STANDARD)).toBe(33 * 47);
    // The high-resolution tier reads the same scan as it is.
    expect(
      anthropicResizedImageSize(
        { width: 1075, height: 1520 },
        ANTHROPIC_IMAGE_TIERS['high-resolution'],
      ),
    ).toEqual({ width: 1075, height: 1520 });
  });
});

describe('anthropicImageTier', () => {
  it('puts Claude 4.7 and later, Sonnet 5, Fable and Mythos on the high-resolution tier', () => {
    for (const model of [
      'claude-opus-4-7',
      'claude-opus-4-8',
      'claude-opus-4-7-20260416',
      'us.anthropic.claude-opus-4-7-v1:0',
      'claude-sonnet-5',
      'claude-fable-5',
      'claude-mythos-5',
    ]) {
      expect(anthropicImageTier(model).name, model).toBe('high-resolution');
    }
  });

  it('puts every other model on the standard tier, a snapshot date never read as a version', () => {
    for (const model of [
      'claude-opus-4-6',
      'claude-opus-4-20250514',
      'claude-sonnet-4-5-20250929',
      'claude-haiku-4-5',
      'claude-3-7-sonnet-latest',
      'claude-3-5-haiku-20241022',
      'some-other-model',
    ]) {
      expect(anthropicImageTier(model).name, model).toBe('standard');
    }
  });
});

describe('countAnthropicImageTokens: properties', () => {
  const model = fc.constantFrom(STANDARD, HIGH_RESOLUTION);

  it('counts an image that fits as its patches, unscaled', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 1000 }),
        (width, height) => {
          expect(countAnthropicImageTokens({ width, height }, HIGH_RESOLUTION)).toBe(
            Math.ceil(width / 28) * Math.ceil(height / 28),
          );
        },
      ),
      fuzzParameters(100),
    );
  });

  it('is a positive integer within the tier, read at a size within its limits', () => {
    fc.assert(
      fc.property(model, imageSize, (id, size) => {
        const tier = anthropicImageTier(id);
        const tokens = countAnthropicImageTokens(size, id);
        expect(Number.isInteger(tokens)).toBe(true);
        expect(tokens).toBeGreaterThan(0);
        expect(tokens).toBeLessThanOrEqual(tier.maxVisualTokens);
        expect(tokens).toBeLessThanOrEqual(countAnthropicImageTokens({}, id));
        const read = anthropicResizedImageSize(size, tier);
        expect(Math.max(read.width, read.height)).toBeLessThanOrEqual(tier.maxLongEdge);
        expect(read.width).toBeLessThanOrEqual(size.width);
        expect(read.height).toBeLessThanOrEqual(size.height);
      }),
      fuzzParameters(150),
    );
  });

  it('never costs less when the same image is larger', () => {
    fc.assert(
      fc.property(model, imageSize, scale, (id, size, factor) => {
        const larger = { width: size.width * factor, height: size.height * factor };
        expect(countAnthropicImageTokens(larger, id)).toBeGreaterThanOrEqual(
          countAnthropicImageTokens(size, id),
        );
      }),
      fuzzParameters(150),
    );
  });
});

describe('countAnthropicImageTokens: unknown size and invalid input', () => {
  it('costs the tier’s most when the size is unknown', () => {
    expect(countAnthropicImageTokens({}, STANDARD)).toBe(1568);
    expect(countAnthropicImageTokens({}, HIGH_RESOLUTION)).toBe(4784);
  });

  it('rejects sizes that are not positive integers, and an empty model', () => {
    expectInvalidOption(
      () => countAnthropicImageTokens({ width: -1, height: 10 }, STANDARD),
      'width',
    );
    expectInvalidOption(
      () => countAnthropicImageTokens({ width: 10, height: Number.NaN }, STANDARD),
      'height',
    );
    expectInvalidOption(() => countAnthropicImageTokens({ height: 10 }, STANDARD), 'width');
    expectInvalidOption(() => countAnthropicImageTokens({ width: 10, height: 10 }, ''), 'model');
    expectInvalidOption(
      () =>
        countAnthropicImageTokens(
          { width: 10, height: 10 },
          { name: 'standard', maxLongEdge: 1568, maxVisualTokens: 0 },
        ),
      'model.maxVisualTokens',
    );
    expectInvalidOption(() => anthropicVisualTokens({ width: 0, height: 10 }), 'width');
    expectInvalidOption(() => anthropicVisualTokens({} as never), 'width');
    expectInvalidOption(
      () =>
        anthropicResizedImageSize(
          { width: 10, height: 10 },
          { name: 'standard', maxLongEdge: Number.NaN, maxVisualTokens: 1568 },
        ),
      'tier.maxLongEdge',
    );
  });
});
