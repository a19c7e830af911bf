import { defineCompressor, validateMessages } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contextMiddleware,
  fromModelMessages,
  fromPrompt,
  toModelMessages,
  toPrompt,
} from '../src/index.js';
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

  it('gives back equal ModelMessages: a prompt read as ModelMessages', () => {
    // Every language-model prompt is a valid ModelMessage array (tagged file data included).
    fc.assert(
      fc.property(arbitraryPrompt, (prompt) => {
        const messages = prompt as unknown as ModelMessage[];
        const converted = fromModelMessages(messages).messages;
        validateMessages(converted);
        expect(toModelMessages(converted)).toStrictEqual(messages);
      }),
      RUNS,
    );
  });

  it('passes an equal prompt through the middleware when the fit copies every message', async () => {
    // A compressor that changes nothing but hands back copies: the middleware then converts the
    // fitted messages back instead of returning the prompt it was given.
    const copying = defineCompressor({
      name: 'copy-every-message',
      transform: ({ messages }) => ({ messages: messages.map((message) => ({ ...message })) }),
    });
    const middleware = contextMiddleware({
      manager: createContextManager({ maxTokens: 10_000_000, compressor: copying }),
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
        if (prompt.length > 0) expect(params?.prompt).not.toBe(prompt);
      }),
      RUNS,
    );
  });
});
