import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createTiktokenCounter,
  estimatePdfTokens,
  estimateTextFileTokens,
  PDF_PAGE_LIMITS,
  PDF_TEXT_TOKENS_PER_PAGE,
  type PdfTarget,
} from '../src/index.js';
import { expectInvalidOption } from './helpers.js';

const CLAUDE_STANDARD: PdfTarget = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const CLAUDE_HIGH_RESOLUTION: PdfTarget = { provider: 'anthropic', model: 'claude-opus-4-7' };

describe('estimatePdfTokens', () => {
  it('Anthropic: the text plus one page image per page at the tier’s most', () => {
    expect(estimatePdfTokens({ pages: 10, textTokens: 5000 }, CLAUDE_STANDARD)).toBe(
      5000 + 10 * 1568,
    );
    expect(estimatePdfTokens({ pages: 10, textTokens: 5000 }, CLAUDE_HIGH_RESOLUTION)).toBe(
      5000 + 10 * 4784,
    );
  });

  it('assumes 3,000 text tokens per page when the text was not counted', () => {
    expect(PDF_TEXT_TOKENS_PER_PAGE).toBe(3000);
    expect(estimatePdfTokens({ pages: 2 }, CLAUDE_STANDARD)).toBe(2 * (3000 + 1568));
  });

  it('OpenAI: the text plus the most a page image costs at the detail', () => {
    const gpt4o = { provider: 'openai', model: 'gpt-4o' } as const;
    expect(estimatePdfTokens({ pages: 3, textTokens: 900 }, gpt4o)).toBe(900 + 3 * (85 + 8 * 170));
    expect(estimatePdfTokens({ pages: 3, textTokens: 900 }, { ...gpt4o, detail: 'low' })).toBe(
      900 + 3 * 85,
    );
  });

  it('Gemini: 258 per page up to 2.5, the media resolution plus the text on Gemini 3', () => {
    expect(
      estimatePdfTokens(
        { pages: 10, textTokens: 9999 },
        { provider: 'gemini', model: 'gemini-2.5-pro' },
      ),
    ).toBe(2580);
    const gemini3: PdfTarget = { provider: 'gemini', model: 'gemini-3-pro-preview' };
    expect(estimatePdfTokens({ pages: 10, textTokens: 1000 }, gemini3)).toBe(1000 + 10 * 560);
    expect(
      estimatePdfTokens({ pages: 10, textTokens: 1000 }, { ...gemini3, mediaResolution: 'high' }),
    ).toBe(1000 + 10 * 1120);
    expect(
      estimatePdfTokens({ pages: 10, textTokens: 1000 }, { ...gemini3, mediaResolution: 'low' }),
    ).toBe(1000 + 10 * 280);
  });

  it('assumes the provider’s page limit when the page count is unknown', () => {
    expect(PDF_PAGE_LIMITS).toEqual({ openai: 100, anthropic: 600, gemini: 1000 });
    expect(estimatePdfTokens({}, CLAUDE_STANDARD)).toBe(600 * (3000 + 1568));
    expect(
      estimatePdfTokens({ textTokens: 0 }, { provider: 'gemini', model: 'gemini-2.0-flash' }),
    ).toBe(1000 * 258);
  });

  it('never costs less with more pages or more text', () => {
    const target = fc.constantFrom<PdfTarget>(
      CLAUDE_STANDARD,
      CLAUDE_HIGH_RESOLUTION,
      { provider: 'openai', model: 'gpt-5.4' },
      { provider: 'gemini', model: 'gemini-3-flash' },
      { provider: 'gemini', model: 'gemini-2.5-flash' },
    );
    fc.assert(
      fc.property(
        target,
        fc.integer({ min: 1, max: 600 }),
        fc.nat({ max: 1_000_000 }),
        fc.nat({ max: 1000 }),
        (to, pages, textTokens, more) => {
          const base = estimatePdfTokens({ pages, textTokens }, to);
          expect(base).toBeGreaterThan(0);
          expect(estimatePdfTokens({ pages: pages + more, textTokens }, to)).toBeGreaterThanOrEqual(
            base,
          );
          expect(
            estimatePdfTokens({ pages, textTokens: textTokens + more }, to),
          ).toBeGreaterThanOrEqual(base);
        },
      ),
      fuzzParameters(100),
    );
  });

  it('rejects bad page and token counts, unknown providers and settings', () => {
    expectInvalidOption(() => estimatePdfTokens({ pages: 0 }, CLAUDE_STANDARD), 'pages');
    expectInvalidOption(() => estimatePdfTokens({ pages: -3 }, CLAUDE_STANDARD), 'pages');
    expectInvalidOption(() => estimatePdfTokens({ pages: 2.5 }, CLAUDE_STANDARD), 'pages');
    expectInvalidOption(() => estimatePdfTokens({ pages: Number.NaN }, CLAUDE_STANDARD), 'pages');
    expectInvalidOption(
      () => estimatePdfTokens({ pages: 1, textTokens: -1 }, CLAUDE_STANDARD),
      'textTokens',
    );
    expectInvalidOption(
      () => estimatePdfTokens({ pages: 1 }, { provider: 'mistral', model: 'x' } as never),
      'target.provider',
    );
    expectInvalidOption(
      () => estimatePdfTokens({ pages: 1 }, { provider: 'anthropic', model: '' }),
      'target.model',
    );
    expectInvalidOption(
      () =>
        estimatePdfTokens(
          { pages: 1 },
          { provider: 'gemini', model: 'gemini-3-pro', mediaResolution: 'ultra_high' },
        ),
      'target.mediaResolution',
    );
    expectInvalidOption(
      () =>
        estimatePdfTokens(
          { pages: 1 },
          { provider: 'openai', model: 'gpt-4o', detail: 'medium' as never },
        ),
      'target.detail',
    );
  });
});

describe('estimateTextFileTokens', () => {
  const counter = createTiktokenCounter('o200k_base');

  it('counts the text when it is at hand, else takes the byte length', () => {
    expect(estimateTextFileTokens({ text: 'Hello, world!' }, counter)).toBe(4);
    expect(estimateTextFileTokens({ byteLength: 2048 }, counter)).toBe(2048);
  });

  it('the byte length bounds the count: no token is shorter than a byte', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        expect(estimateTextFileTokens({ text }, counter)).toBeLessThanOrEqual(
          estimateTextFileTokens({ byteLength: encoder.encode(text).length }, counter),
        );
      }),
      fuzzParameters(100),
    );
  });

  it('rejects a file with neither text nor size, and a bad size', () => {
    expectInvalidOption(() => estimateTextFileTokens({}, counter), 'file');
    expectInvalidOption(() => estimateTextFileTokens({ byteLength: -1 }, counter), 'byteLength');
    expectInvalidOption(() => estimateTextFileTokens({ text: 42 as never }, counter), 'text');
  });
});
