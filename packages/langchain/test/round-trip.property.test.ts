import { validateMessages } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitLangChainMessages, toCtxkitMessages, toLangChainMessages } from '../src/index.js';
import { langchainHistory } from './arbitraries.js';

describe('LangChain messages to ctxkit and back', () => {
  it('gives deep-equal messages, from the ctxkit messages alone (a structured clone)', () => {
    fc.assert(
      fc.property(langchainHistory, (messages) => {
        const { messages: converted, repairs } = toCtxkitMessages(messages);
        expect(repairs).toEqual([]);
        expect(converted).toHaveLength(messages.length);
        validateMessages(converted);
        // A clone has no tie to the LangChain objects: everything must be in the data.
        const back = toLangChainMessages(structuredClone(converted));
        expect(back).toStrictEqual(messages);
        for (const [index, message] of back.entries()) {
          expect(message.constructor).toBe(messages[index]?.constructor);
        }
      }),
      fuzzParameters(100),
    );
  });

  it('with no budget pressure, a fit returns the very input messages', async () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    await fc.assert(
      fc.asyncProperty(langchainHistory, async (messages) => {
        const { messages: fitted, report } = await fitLangChainMessages(manager, messages);
        expect(report.changes.every((change) => change.action === 'kept')).toBe(true);
        expect(fitted).toHaveLength(messages.length);
        for (const [index, message] of fitted.entries()) expect(message).toBe(messages[index]);
      }),
      fuzzParameters(100),
    );
  });
});
