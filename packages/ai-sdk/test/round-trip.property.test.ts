import { validateMessages } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextMiddleware, fromPrompt, toPrompt } from '../src/index.js';
import { arbitraryPrompt } from './arbitrary-prompt.js';

// prompt -> ctxkit -> prompt gives the prompt back, for every part and output the spec has.

const RUNS = fuzzParameters(200);

describe('language-model prompt round trip', () => {
  it('gives back an equal prompt, from valid ctxkit messages', () => {
    fc.assert(
      fc.property(arbitraryPrompt, (prompt) => {
        const { messages } = fromPrompt(prompt);
        validateMessages(messages);
        expect(toPrompt(messages)).toStrictEqual(prompt);
      }),
      RUNS,
    );
  });

  it('passes an equal prompt through the middleware when it fits', async () => {
    const middleware = contextMiddleware({
      manager: createContextManager({ maxTokens: 10_000_000 }),
      onRepair: () => {},
    });
    await fc.assert(
      fc.asyncProperty(arbitraryPrompt, async (prompt) => {
        const params = await middleware.transformParams?.({
          type: 'generate',
          params: { prompt },
          model: undefined as never,
        });
        expect(params?.prompt).toStrictEqual(prompt);
      }),
      RUNS,
    );
  });
});
