import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countOpenAIImageTokens,
  OPENAI_IMAGE_TOKENIZATION,
  type OpenAIPatchTokenization,
  type OpenAITileTokenization,
  openAIImageTokenization,
} from '../src/index.js';
import { expectInvalidOption, imageSize, scale } from './helpers.js';

const TILE_MODELS = Object.keys(OPENAI_IMAGE_TOKENIZATION).filter(
  (model) => OPENAI_IMAGE_TOKENIZATION[model]?.kind === 'tiles',
);
const PATCH_MODELS = Object.keys(OPENAI_IMAGE_TOKENIZATION).filter(
  (model) => OPENAI_IMAGE_TOKENIZATION[model]?.kind === 'patches',
);

/** A model with the 1,536-patch budget of the guide's examples, and no multiplier. */
const BUDGET_1536: OpenAIPatchTokenization = {
  kind: 'patches',
  multiplier: 1,
  low: { maxDimension: 512, patchBudget: null },
  high: { maxDimension: 2048, patchBudget: 1536 },
  auto: 'high',
};

describe('countOpenAIImageTokens: the guide’s worked examples', () => {
  it('tile model gpt-4o: 1024 × 1024 high is 765, 2048 × 4096 high is 1105, low is 85', () => {
    // 1024 is resized to 768 × 768: 4 tiles, 170 × 4 + 85.
    expect(countOpenAIImageTokens({ width: 1024, height: 1024, detail: 'high' }, 'gpt-4o')).toBe(
      765,
    );
    // 2048 × 4096 → 1024 × 2048 → 768 × 1536: 6 tiles, 170 × 6 + 85.
    expect(countOpenAIImageTokens({ width: 2048, height: 4096, detail: 'high' }, 'gpt-4o')).toBe(
      1105,
    );
    expect(countOpenAIImageTokens({ width: 4096, height: 8192, detail: 'low' }, 'gpt-4o')).toBe(85);
  });

  it('1,536-patch budget: 1024 × 1024 is 1024 patches, 1800 × 2400 is 1452 (read at 1056 × 1408)', () => {
    expect(countOpenAIImageTokens({ width: 1024, height: 1024 }, BUDGET_1536)).toBe(1024);
    expect(countOpenAIImageTokens({ width: 1800, height: 2400 }, BUDGET_1536)).toBe(1452);
    // With o4-mini's multiplier: 1452 × 1.72 = 2497.44, rounded up.
    expect(countOpenAIImageTokens({ width: 1800, height: 2400 }, 'o4-mini')).toBe(2498);
  });

  it('gpt-5.4 at high: 1024 × 1024 is 1229 tokens, 2048 × 2048 is 3000', () => {
    expect(countOpenAIImageTokens({ width: 1024, height: 1024, detail: 'high' }, 'gpt-5.4')).toBe(
      1229,
    );
    expect(countOpenAIImageTokens({ width: 2048, height: 2048, detail: 'high' }, 'gpt-5.4')).toBe(
      3000,
    );
  });
});

describe('countOpenAIImageTokens: table rows and detail levels', () => {
  it('auto is high on tile models, and a missing detail is auto', () => {
    const image = { width: 1024, height: 1024 };
    expect(countOpenAIImageTokens({ ...image, detail: 'auto' }, 'gpt-4o')).toBe(765);
    expect(countOpenAIImageTokens(image, 'gpt-4o')).toBe(765);
  });

  it('prices each tile model by its own base and tile tokens', () => {
    const image = { width: 1024, height: 1024, detail: 'high' } as const; // 4 tiles
    expect(countOpenAIImageTokens(image, 'gpt-5')).toBe(70 + 4 * 140);
    expect(countOpenAIImageTokens(image, 'gpt-4o-mini')).toBe(2833 + 4 * 5667);
    expect(countOpenAIImageTokens(image, 'o1')).toBe(75 + 4 * 150);
    expect(countOpenAIImageTokens(image, 'computer-use-preview')).toBe(65 + 4 * 129);
  });

  it('never enlarges a small image on a tile model', () => {
    expect(countOpenAIImageTokens({ width: 512, height: 512, detail: 'high' }, 'gpt-4o')).toBe(
      85 + 170,
    );
  });

  it('auto follows the model’s row: high on gpt-5.4, original on gpt-5.5', () => {
    const image = { width: 2048, height: 2048 };
    expect(countOpenAIImageTokens(image, 'gpt-5.4')).toBe(3000);
    // original: 4096 patches fit the 10,000 budget; 4096 × 1.2 = 4915.2.
    expect(countOpenAIImageTokens(image, 'gpt-5.5')).toBe(4916);
    expect(countOpenAIImageTokens({ ...image, detail: 'original' }, 'gpt-5.5')).toBe(4916);
  });

  it('low on gpt-5.4 can cost more than high (6,144-patch budget), as the guide warns', () => {
    const image = { width: 2048, height: 2048 };
    expect(countOpenAIImageTokens({ ...image, detail: 'low' }, 'gpt-5.4')).toBe(
      Math.ceil(4096 * 1.2),
    );
  });

  it('resolves snapshots, variants and gateway prefixes to their family', () => {
    const image = { width: 1024, height: 1024, detail: 'high' } as const;
    expect(countOpenAIImageTokens(image, 'gpt-4o-2024-08-06')).toBe(765);
    expect(countOpenAIImageTokens(image, 'openai/gpt-4o')).toBe(765);
    expect(openAIImageTokenization('gpt-5.4-mini')).toBe(OPENAI_IMAGE_TOKENIZATION['gpt-5.4']);
    expect(openAIImageTokenization('gpt-4o-mini-2024-07-18')).toBe(
      OPENAI_IMAGE_TOKENIZATION['gpt-4o-mini'],
    );
    expect(openAIImageTokenization('gpt-5-mini').kind).toBe('patches');
    expect(openAIImageTokenization('gpt-5-chat-latest').kind).toBe('tiles');
  });

  it('an image of unknown size costs the most an image can cost at that detail', () => {
    expect(countOpenAIImageTokens({ detail: 'high' }, 'gpt-4o')).toBe(85 + 8 * 170);
    expect(countOpenAIImageTokens({ detail: 'low' }, 'gpt-4o')).toBe(85);
    expect(countOpenAIImageTokens({ detail: 'high' }, 'gpt-5.4')).toBe(3000);
    expect(countOpenAIImageTokens({ detail: 'low' }, 'gpt-5.6')).toBe(Math.ceil(256 * 1.2));
    // No patch budget at original on gpt-5.6: bounded by the 30,000 patches the API accepts.
    expect(countOpenAIImageTokens({ detail: 'original' }, 'gpt-5.6')).toBe(36_000);
  });

  it('counts gpt-5.6 at original without a budget, up to the 30,000 patches the API accepts', () => {
    // 5000 × 5000 px: 157 × 157 = 24,649 patches, not scaled down.
    expect(countOpenAIImageTokens({ width: 5000, height: 5000 }, 'gpt-5.6')).toBe(
      Math.ceil(24_649 * 1.2),
    );
    expectInvalidOption(
      () => countOpenAIImageTokens({ width: 6000, height: 6000 }, 'gpt-5.6'),
      'image',
    );
  });
});

describe('countOpenAIImageTokens: properties', () => {
  const tileModel = fc.constantFrom(...TILE_MODELS);
  const patchModel = fc.constantFrom(...PATCH_MODELS);
  const anyModel = fc.constantFrom(...TILE_MODELS, ...PATCH_MODELS);
  // Every model has a patch budget (or tiles) at low and high; gpt-5.6 has none at original.
  const detailWithBudget = fc.constantFrom('low' as const, 'high' as const);

  it('low detail on a tile model is its base tokens, whatever the size', () => {
    fc.assert(
      fc.property(tileModel, imageSize, (model, size) => {
        const { baseTokens } = openAIImageTokenization(model) as OpenAITileTokenization;
        expect(countOpenAIImageTokens({ ...size, detail: 'low' }, model)).toBe(baseTokens);
      }),
      fuzzParameters(100),
    );
  });

  it('is a positive integer, at most the cost of an image of unknown size', () => {
    fc.assert(
      fc.property(anyModel, imageSize, detailWithBudget, (model, size, detail) => {
        const tokens = countOpenAIImageTokens({ ...size, detail }, model);
        expect(Number.isInteger(tokens)).toBe(true);
        expect(tokens).toBeGreaterThan(0);
        expect(tokens).toBeLessThanOrEqual(countOpenAIImageTokens({ detail }, model));
      }),
      fuzzParameters(150),
    );
  });

  it('never costs less when the same image is larger', () => {
    fc.assert(
      fc.property(anyModel, imageSize, scale, detailWithBudget, (model, size, factor, detail) => {
        const larger = { width: size.width * factor, height: size.height * factor, detail };
        expect(countOpenAIImageTokens(larger, model)).toBeGreaterThanOrEqual(
          countOpenAIImageTokens({ ...size, detail }, model),
        );
      }),
      fuzzParameters(150),
    );
  });

  it('keeps a patch model within its patch budget', () => {
    fc.assert(
      fc.property(patchModel, imageSize, (model, size) => {
        const tokenization = openAIImageTokenization(model) as OpenAIPatchTokenization;
        const budget = tokenization.high.patchBudget ?? Number.POSITIVE_INFINITY;
        const tokens = countOpenAIImageTokens({ ...size, detail: 'high' }, model);
        expect(tokens).toBeLessThanOrEqual(Math.ceil(budget * tokenization.multiplier));
      }),
      fuzzParameters(150),
    );
  });
});

describe('countOpenAIImageTokens: invalid input', () => {
  it('rejects sizes that are not positive integers, and half-known sizes', () => {
    expectInvalidOption(
      () => countOpenAIImageTokens({ width: -5, height: 100 }, 'gpt-4o'),
      'width',
    );
    expectInvalidOption(() => countOpenAIImageTokens({ width: 0, height: 100 }, 'gpt-4o'), 'width');
    expectInvalidOption(
      () => countOpenAIImageTokens({ width: 100, height: Number.NaN }, 'gpt-4o'),
      'height',
    );
    expectInvalidOption(
      () => countOpenAIImageTokens({ width: 10.5, height: 100 }, 'gpt-4o'),
      'width',
    );
    expectInvalidOption(
      () => countOpenAIImageTokens({ width: Number.POSITIVE_INFINITY, height: 1 }, 'gpt-4o'),
      'width',
    );
    expectInvalidOption(() => countOpenAIImageTokens({ width: 100 }, 'gpt-4o'), 'height');
  });

  it('rejects an unknown detail, and original on a model without it', () => {
    const image = { width: 100, height: 100 };
    expectInvalidOption(
      () => countOpenAIImageTokens({ ...image, detail: 'medium' as never }, 'gpt-4o'),
      'detail',
    );
    expectInvalidOption(
      () => countOpenAIImageTokens({ ...image, detail: 'original' }, 'gpt-4o'),
      'detail',
    );
    expectInvalidOption(
      () => countOpenAIImageTokens({ ...image, detail: 'original' }, 'gpt-5.2'),
      'detail',
    );
  });

  it('rejects a model without a published formula, and a malformed tokenization', () => {
    expectInvalidOption(
      () => countOpenAIImageTokens({ width: 1, height: 1 }, 'llama-3-70b'),
      'model',
    );
    expectInvalidOption(() => countOpenAIImageTokens({ width: 1, height: 1 }, ''), 'model');
    expectInvalidOption(
      () =>
        countOpenAIImageTokens(
          { width: 1, height: 1 },
          { kind: 'tiles', baseTokens: -1, tileTokens: 1 },
        ),
      'model.baseTokens',
    );
    expectInvalidOption(
      () =>
        countOpenAIImageTokens({ width: 1, height: 1 }, { ...BUDGET_1536, multiplier: Number.NaN }),
      'model.multiplier',
    );
    expectInvalidOption(
      () =>
        countOpenAIImageTokens(
          { width: 1, height: 1 },
          { ...BUDGET_1536, high: { maxDimension: 2048, patchBudget: 0 } },
        ),
      'model.high.patchBudget',
    );
  });
});
