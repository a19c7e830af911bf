import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextLengthError, contextLengthFigures, isContextLengthError } from '../src/index.js';
import { fuzzParameters } from '../src/testing/index.js';
import {
  NEGATIVE_FIXTURES,
  OVERFLOW_FIXTURES,
  WRAPPED_FIXTURES,
} from './fixtures/context-length-errors.js';

describe('isContextLengthError', () => {
  it.each(OVERFLOW_FIXTURES.map((fixture) => [fixture.provider, fixture] as const))(
    'recognizes the rejection of %s',
    (_provider, fixture) => {
      expect(isContextLengthError(fixture.error)).toBe(true);
    },
  );

  it.each(WRAPPED_FIXTURES.map((fixture) => [fixture.provider, fixture] as const))(
    'recognizes a rejection inside %s',
    (_provider, fixture) => {
      expect(isContextLengthError(fixture.error)).toBe(true);
    },
  );

  it.each(NEGATIVE_FIXTURES.map((fixture) => [fixture.name, fixture] as const))(
    'does not take %s for one',
    (_name, fixture) => {
      expect(isContextLengthError(fixture.error)).toBe(false);
      expect(contextLengthFigures(fixture.error)).toBeUndefined();
    },
  );

  it("recognizes ctxkit's own ContextLengthError", () => {
    const error = new ContextLengthError({ source: 'test', message: 'too long' });
    expect(isContextLengthError(error)).toBe(true);
  });

  it('recognizes the text when the body is read without a status', () => {
    expect(isContextLengthError(new Error('prompt is too long: 9 tokens > 8 maximum'))).toBe(true);
  });

  it('finds a rejection five wrappers down a cause chain', () => {
    let error: unknown = {
      statusCode: 400,
      responseBody: '{"error":{"code":"context_length_exceeded"}}',
    };
    for (let level = 0; level < 5; level++) error = new Error(`level ${level}`, { cause: error });
    expect(isContextLengthError(error)).toBe(true);
  });

  it('follows a cycle in the cause chain without looping', () => {
    const error = new Error('outer') as Error & { cause?: unknown };
    error.cause = error;
    expect(isContextLengthError(error)).toBe(false);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), fc.string()), (value) => {
        const recognized = isContextLengthError(value);
        expect(contextLengthFigures(value) !== undefined).toBe(recognized);
      }),
      fuzzParameters(200),
    );
  });
});

describe('contextLengthFigures', () => {
  it.each(
    [...OVERFLOW_FIXTURES, ...WRAPPED_FIXTURES].map(
      (fixture) => [fixture.provider, fixture] as const,
    ),
  )('reads what %s reports', (_provider, fixture) => {
    expect(contextLengthFigures(fixture.error)).toEqual(fixture.figures);
  });

  it('reads figures written with thousands separators', () => {
    expect(
      contextLengthFigures({
        status: 400,
        message: 'prompt is too long: 208,310 tokens > 200,000 maximum',
      }),
    ).toEqual({ requested: 208310, limit: 200000 });
  });
});

describe('long error texts', () => {
  it('reads only the start of a huge message, so a megabyte of text costs no more than its start', () => {
    const filler = 'input token count '.repeat(60_000);
    expect(isContextLengthError(new Error(filler))).toBe(false);
    expect(
      isContextLengthError(
        new Error(`prompt is too long: 208310 tokens > 200000 maximum ${filler}`),
      ),
    ).toBe(true);
  });
});
