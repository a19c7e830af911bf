import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { chatComplete, contextMiddleware, contextPrepareStep } from '../src/index.js';

/** Each public function of the package that takes options, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'contextMiddleware',
    () => contextMiddleware({ model: 'gpt-4o', maxToken: 5 } as never),
    'maxToken',
    'maxTokens',
  ],
  [
    'contextPrepareStep',
    () => contextPrepareStep({ model: 'gpt-4o', tool: {} } as never),
    'tool',
    'tools',
  ],
  [
    'chatComplete',
    () => chatComplete('openai/gpt-4o' as never, { maxOutputToken: 5 } as never),
    'maxOutputToken',
    'maxOutputTokens',
  ],
];

describe('options objects of ai-sdk', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );

  it.each(['', 'a\u0000b', 42, null])(
    'refuses the conversationId %j when the adapter is made',
    (conversationId) => {
      for (const make of [contextMiddleware, contextPrepareStep]) {
        expect(() => make({ model: 'gpt-4o', conversationId } as never)).toThrow(/conversation id/);
      }
    },
  );
});
