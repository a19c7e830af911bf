import { validateMessages } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { contextTransform, fromCtxkitMessages, toCtxkitMessages } from '../src/index.js';
import { arbitraryPiMessages } from './arbitrary-pi-messages.js';

// Over random pi transcripts with every kind of message, block and optional field: the
// conversion loses nothing, makes valid ctxkit messages, and a fit with room to spare sends
// the agent's own messages.

it('pi messages -> ctxkit -> pi messages are deep-equal, and the ctxkit side is valid', () => {
  fc.assert(
    fc.property(arbitraryPiMessages, (messages) => {
      const converted = toCtxkitMessages(messages);
      validateMessages(converted);
      expect(fromCtxkitMessages(converted)).toStrictEqual(messages);
    }),
    { ...fuzzParameters(300) },
  );
});

it('without budget pressure, the transform sends the agent’s messages as they are', async () => {
  // The arbitrary answers' usage is no provider's count of these prompts: not learnt from.
  const transform = contextTransform({ maxTokens: 10_000_000, recordUsage: false });
  await fc.assert(
    fc.asyncProperty(arbitraryPiMessages, async (messages) => {
      const sent = await transform(messages);
      expect(sent).toStrictEqual(messages);
      for (const [index, message] of sent.entries()) expect(message).toBe(messages[index]);
    }),
    { ...fuzzParameters(100) },
  );
});
