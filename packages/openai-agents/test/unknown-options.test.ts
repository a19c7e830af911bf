import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { createSqliteProvider } from '@ctxkit/provider-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { chatComplete, contextInputFilter, createProviderSession } from '../src/index.js';

const providers: { close(): unknown }[] = [];
afterEach(async () => {
  for (const provider of providers.splice(0)) await provider.close();
});
const provider = () => {
  const made = createSqliteProvider({ filename: ':memory:' });
  providers.push(made);
  return made;
};

/** Each public function of the package that takes options, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'contextInputFilter',
    () => contextInputFilter({ model: 'gpt-4o', maxToken: 5 } as never),
    'maxToken',
    'maxTokens',
  ],
  [
    'createProviderSession',
    () => createProviderSession({ provider: provider(), sessionID: 's' } as never),
    'sessionID',
    'sessionId',
  ],
  [
    'chatComplete',
    () => chatComplete({ getResponse: async () => ({}) } as never, { modelSetting: {} } as never),
    'modelSetting',
    'modelSettings',
  ],
];

describe('options objects of openai-agents', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );

  it('contextInputFilter checks conversationId by the rule of core', () => {
    for (const conversationId of ['', 'a\u0000b', 'x'.repeat(2000), 42]) {
      expect(() => contextInputFilter({ model: 'gpt-4o', conversationId } as never)).toThrow(
        /conversation id/,
      );
    }
  });
});
