import { InvalidOptionError, type Message } from '@ctxkit/context-core';
import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import {
  cacheAware,
  contextGuard,
  createSimpleCompressor,
  maskOldToolResults,
  slidingWindow,
  stripOldThinking,
  threeLayer,
  trimToBudget,
  truncateMessages,
  truncateToolResults,
} from '../src/index.js';
import { charCounter } from './helpers.js';

/** Each factory of the package, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  ['cacheAware', () => cacheAware({ triger: 0.8 } as never), 'triger', 'trigger'],
  ['contextGuard', () => contextGuard({ trimm: {} } as never), 'trimm', 'trim'],
  [
    'contextGuard (toolResults)',
    () => contextGuard({ toolResults: { headChar: 5 } as never }),
    'headChar',
    'headChars',
  ],
  [
    'createSimpleCompressor',
    () => createSimpleCompressor({ maxCharPerMessage: 5 } as never),
    'maxCharPerMessage',
    'maxCharsPerMessage',
  ],
  [
    'maskOldToolResults',
    () => maskOldToolResults({ keepRecentResult: 2 } as never),
    'keepRecentResult',
    'keepRecentResults',
  ],
  ['slidingWindow', () => slidingWindow({ raito: 0.5 } as never), 'raito', 'ratio'],
  [
    'stripOldThinking',
    () => stripOldThinking({ keepRecentThinkings: 2 } as never),
    'keepRecentThinkings',
    'keepRecentThinking',
  ],
  ['threeLayer', () => threeLayer({ windows: {} } as never), 'windows', 'window'],
  [
    'trimToBudget',
    () => trimToBudget({ keepFirstuser: true } as never),
    'keepFirstuser',
    'keepFirstUser',
  ],
  ['truncateMessages', () => truncateMessages({ markr: () => '' } as never), 'markr', 'marker'],
  [
    'truncateToolResults',
    () => truncateToolResults({ maxOutputChar: 5 } as never),
    'maxOutputChar',
    'maxOutputChars',
  ],
];

describe('options objects of compressor-simple', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );
});

describe('cacheAware reads its input as every compressor does', () => {
  const messages: Message[] = [{ role: 'user', content: 'hi', id: 'm0' }];

  it('refuses a misspelt context key, though nothing is compacted', async () => {
    await unknownOptionRefused(
      () =>
        cacheAware().compress(messages, { maxTokens: 1_000 }, {
          counter: charCounter,
          conversationID: 'a',
        } as never),
      'context.conversationID',
      'context.conversationId',
    );
  });

  it('refuses a conversation id the id rule refuses, though nothing is compacted', async () => {
    const compress = cacheAware().compress(
      messages,
      { maxTokens: 1_000 },
      { counter: charCounter, conversationId: '   ' },
    );
    await expect(compress).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(compress).rejects.toMatchObject({ code: 'invalid_option' });
  });

  it('reads a Proxy array once, so its prompt holds what was read', async () => {
    const compressor = cacheAware();
    let reads = 0;
    const proxy = new Proxy(messages, {
      get(target, key, receiver) {
        if (key === '0') reads += 1;
        // A second read of the first message hands out another one.
        return key === '0' && reads > 1
          ? { role: 'user', content: 'x'.repeat(5_000), id: 'm0' }
          : Reflect.get(target, key, receiver);
      },
    });
    const result = await compressor.compress(proxy, { maxTokens: 1_000 }, { counter: charCounter });
    expect(reads).toBe(1);
    expect(result.messages).toEqual(messages);
  });
});
