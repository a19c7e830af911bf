import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { chatComplete, contextTransform, toCtxkitMessage } from '../src/index.js';

/** Each public function of the package that takes options, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'contextTransform',
    () => contextTransform({ model: 'gpt-4o', maxToken: 5 } as never),
    'maxToken',
    'maxTokens',
  ],
  [
    'contextTransform (its own option)',
    () => contextTransform({ model: 'gpt-4o', onErorr: () => [] } as never),
    'onErorr',
    'onError',
  ],
  [
    'chatComplete',
    () => chatComplete({ model: {}, complet: () => {} } as never),
    'complet',
    'complete',
  ],
  [
    'toCtxkitMessage',
    () =>
      toCtxkitMessage({ role: 'user', content: 'x', timestamp: 0 } as never, 0, {
        keepField: true,
      } as never),
    'keepField',
    'keepFields',
  ],
];

describe('options objects of pi', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );

  it('contextTransform takes its own options beside the manager’s, and checks conversationId', () => {
    contextTransform({ model: 'gpt-4o', onFit: () => {}, onError: () => [], conversationId: 'c' });
    expect(() => contextTransform({ model: 'gpt-4o', conversationId: '' })).toThrow(
      /conversation id/,
    );
  });
});
