import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countGeminiImageTokens, GEMINI_3_IMAGE_TOKENS } from '../src/index.js';
import { expectInvalidOption, imageSize, scale } from './helpers.js';

describe('countGeminiImageTokens: Gemini 2.5 and earlier (tiles)', () => {
  // Google gives the rule but no worked example; these follow the rule step by step.
  it('costs 258 tokens when both sides are at most 384 px', () => {
    expect(countGeminiImageTokens({ width: 384, height: 384 }, 'gemini-2.5-flash')).toBe(258);
    expect(countGeminiImageTokens({ width: 1, height: 384 }, 'gemini-2.0-flash')).toBe(258);
  });

  it('cuts a larger image into crop units of its shortest side / 1.5, 258 tokens each', () => {
    // 1024 × 1024: unit 682.67 px, 2 × 2 units.
    expect(countGeminiImageTokens({ width: 1024, height: 1024 }, 'gemini-2.5-pro')).toBe(4 * 258);
    // 1500 × 600: unit 400 px, 4 × 2 units (1500 / 400 = 3.75).
    expect(countGeminiImageTokens({ width: 1500, height: 600 }, 'gemini-2.5-pro')).toBe(8 * 258);
    // 1200 × 600: unit 400 px, exactly 3 × 2 units, no rounding error.
    expect(countGeminiImageTokens({ width: 1200, height: 600 }, 'gemini-2.5-pro')).toBe(6 * 258);
  });

  it('keeps the crop unit between 256 and 768 px', () => {
    // 385 × 300: 300 / 1.5 = 200, raised to 256: 2 × 2 units.
    expect(countGeminiImageTokens({ width: 385, height: 300 }, 'gemini-2.0-flash')).toBe(4 * 258);
    // 2400 × 2400: 1600, lowered to 768: 4 × 4 units.
    expect(countGeminiImageTokens({ width: 2400, height: 2400 }, 'gemini-1.5-pro')).toBe(16 * 258);
  });

  it('first scales an image down to fit 3072 × 3072', () => {
    // 6144 × 6144 → 3072 × 3072: unit 768, 4 × 4.
    expect(countGeminiImageTokens({ width: 6144, height: 6144 }, 'gemini-2.5-flash')).toBe(
      16 * 258,
    );
  });

  it('costs at most 24 tiles, the count of an image of unknown size', () => {
    expect(countGeminiImageTokens({}, 'gemini-2.5-flash')).toBe(24 * 258);
    fc.assert(
      fc.property(imageSize, (size) => {
        const tokens = countGeminiImageTokens(size, 'gemini-2.5-flash');
        expect(tokens % 258).toBe(0);
        expect(tokens).toBeGreaterThanOrEqual(258);
        expect(tokens).toBeLessThanOrEqual(24 * 258);
      }),
      fuzzParameters(150),
    );
  });

  it('never costs less when the same image is larger', () => {
    fc.assert(
      fc.property(imageSize, scale, (size, factor) => {
        const larger = { width: size.width * factor, height: size.height * factor };
        expect(countGeminiImageTokens(larger, 'gemini-2.5-flash')).toBeGreaterThanOrEqual(
          countGeminiImageTokens(size, 'gemini-2.5-flash'),
        );
      }),
      fuzzParameters(150),
    );
  });
});

describe('countGeminiImageTokens: Gemini 3 (media resolution)', () => {
  it('costs the media resolution’s budget whatever the size; unspecified is high', () => {
    const image = { width: 4000, height: 3000 };
    expect(
      countGeminiImageTokens({ ...image, mediaResolution: 'low' }, 'gemini-3-pro-preview'),
    ).toBe(280);
    expect(countGeminiImageTokens({ ...image, mediaResolution: 'medium' }, 'gemini-3-flash')).toBe(
      560,
    );
    expect(countGeminiImageTokens({ ...image, mediaResolution: 'high' }, 'gemini-3.1-pro')).toBe(
      1120,
    );
    expect(
      countGeminiImageTokens({ ...image, mediaResolution: 'ultra_high' }, 'gemini-3-pro'),
    ).toBe(2240);
    expect(countGeminiImageTokens(image, 'models/gemini-3-pro-preview')).toBe(1120);
    expect(countGeminiImageTokens({}, 'google/gemini-3-flash')).toBe(GEMINI_3_IMAGE_TOKENS.high);
  });

  it('does not depend on the size', () => {
    fc.assert(
      fc.property(imageSize, (size) => {
        expect(countGeminiImageTokens({ ...size, mediaResolution: 'low' }, 'gemini-3-flash')).toBe(
          280,
        );
      }),
      fuzzParameters(100),
    );
  });
});

describe('countGeminiImageTokens: invalid input', () => {
  it('rejects bad sizes, an unknown media resolution and a model that is not Gemini', () => {
    expectInvalidOption(
      () => countGeminiImageTokens({ width: -2, height: 2 }, 'gemini-2.5-flash'),
      'width',
    );
    expectInvalidOption(
      () => countGeminiImageTokens({ width: 2, height: Number.NaN }, 'gemini-2.5-flash'),
      'height',
    );
    expectInvalidOption(
      () => countGeminiImageTokens({ mediaResolution: 'max' as never }, 'gemini-3-flash'),
      'mediaResolution',
    );
    expectInvalidOption(() => countGeminiImageTokens({}, 'gpt-4o'), 'model');
  });
});
