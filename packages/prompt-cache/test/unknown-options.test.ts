import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { describe, it } from 'vitest';
import {
  cacheRequestFromMessages,
  createPromptCacheSimulator,
  simulatePromptCache,
} from '../src/index.js';

/** Each public function of the package that takes options, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'cacheRequestFromMessages',
    () =>
      cacheRequestFromMessages({
        at: 0,
        messages: [],
        counter: { name: 'chars', count: (text: string) => text.length },
        breakpoint: [],
      } as never),
    'breakpoint',
    'breakpoints',
  ],
  [
    'simulatePromptCache',
    () => simulatePromptCache([], { model: 'gpt-4o', rule: {} } as never),
    'rule',
    'rules',
  ],
  [
    'createPromptCacheSimulator',
    () => createPromptCacheSimulator({ model: 'gpt-4o', keepRequest: false } as never),
    'keepRequest',
    'keepRequests',
  ],
];

describe('options objects of prompt-cache', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );
});
