import { validateMessages } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { itemsToMessages, messagesToItems } from '../src/index.js';
import { arbitraryItems } from './agent-items.js';

it('items -> ctxkit messages -> items gives the items back deep-equal, and the messages are valid', () => {
  fc.assert(
    fc.property(arbitraryItems, (items) => {
      const messages = itemsToMessages(items);
      expect(messages).toHaveLength(items.length);
      validateMessages(messages);
      expect(messagesToItems(messages)).toStrictEqual(items);
    }),
    fuzzParameters(300),
  );
});
