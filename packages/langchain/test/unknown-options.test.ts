import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import { describe, it } from 'vitest';
import {
  contextMiddleware,
  contextTrimmer,
  fitLangChainMessages,
  toCtxkitMessages,
} from '../src/index.js';

/** Each public function of the package that takes options, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'contextMiddleware',
    () => contextMiddleware({ model: 'gpt-4o', onFitt: () => {} } as never),
    'onFitt',
    'onFit',
  ],
  [
    'contextMiddleware (a manager option)',
    () => contextMiddleware({ model: 'gpt-4o', maxToken: 5 } as never),
    'maxToken',
    'maxTokens',
  ],
  [
    'contextTrimmer',
    () => contextTrimmer({ model: 'gpt-4o', sytem: 's' } as never),
    'sytem',
    'system',
  ],
  [
    'fitLangChainMessages',
    () =>
      fitLangChainMessages(createContextManager({ maxTokens: 1000 }), [], {
        conversationID: 'c',
      } as never),
    'conversationID',
    'conversationId',
  ],
  [
    'toCtxkitMessages',
    () => toCtxkitMessages([], { knownToolCallId: [] } as never),
    'knownToolCallId',
    'knownToolCallIds',
  ],
];

describe('options objects of langchain', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );
});
