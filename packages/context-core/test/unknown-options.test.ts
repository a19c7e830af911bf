import { describe, expect, it } from 'vitest';
import {
  assertValidBudget,
  createInMemoryEventStore,
  createInMemoryHistoryStore,
  createInMemoryToolOutputStore,
  createMessageValidator,
  defineCompressor,
  deriveHistoryBudget,
  findModelInfo,
  getModelInfo,
  optionChecker,
  readCompressInput,
  resolveModelLimits,
  validateMessages,
} from '../src/index.js';
import { contextErrorThrownBy, unknownOptionRefused } from '../src/testing/index.js';
import { charCounter, user } from './helpers.js';

const transform = ({ messages }: { messages: readonly unknown[] }) => ({
  messages: [...messages] as never,
});

/** Each public function of core that takes options, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'createInMemoryHistoryStore',
    () => createInMemoryHistoryStore({ counter: charCounter, countr: 1 } as never),
    'countr',
    'counter',
  ],
  [
    'getHistory',
    () =>
      createInMemoryHistoryStore({ counter: charCounter }).getHistory('c', { limt: 2 } as never),
    'limt',
    'limit',
  ],
  [
    'listArchivesPage',
    () =>
      createInMemoryHistoryStore({ counter: charCounter }).listArchivesPage('c', {
        oder: 'newest-first',
      } as never),
    'oder',
    'order',
  ],
  [
    'listEvents',
    () => createInMemoryEventStore().listEvents(undefined, { typ: 'x' } as never),
    'typ',
    'type',
  ],
  [
    'listEventsPage',
    () => createInMemoryEventStore().listEventsPage(undefined, { afer: 'x' } as never),
    'afer',
    'after',
  ],
  [
    'createInMemoryToolOutputStore',
    () => createInMemoryToolOutputStore({ maxByte: 5 } as never),
    'maxByte',
    'maxBytes',
  ],
  [
    'validateMessages',
    () => validateMessages([user('a')], { knownToolCallId: ['x'] } as never),
    'knownToolCallId',
    'knownToolCallIds',
  ],
  [
    'createMessageValidator',
    () => createMessageValidator({ sorce: 'x' } as never),
    'sorce',
    'source',
  ],
  [
    'defineCompressor',
    () => defineCompressor({ name: 'x', transform, guarantee: {} } as never),
    'guarantee',
    'guarantees',
  ],
  [
    'deriveHistoryBudget',
    () => deriveHistoryBudget({ contextWindow: 100, reserveToken: 5 } as never),
    'reserveToken',
    'reserveTokens',
  ],
  [
    'assertValidBudget',
    () => assertValidBudget({ maxTokens: 100, reservedTokens: 5 } as never),
    'budget.reservedTokens',
    'budget.reserveTokens',
  ],
  [
    'compress (budget)',
    () =>
      defineCompressor({ name: 'x', transform }).compress([], { maxToken: 5 } as never, {
        counter: charCounter,
      }),
    'budget.maxToken',
    'budget.maxTokens',
  ],
  [
    'compress (context)',
    () =>
      defineCompressor({ name: 'x', transform }).compress([], { maxTokens: 5 }, {
        counter: charCounter,
        conversationID: 'c',
      } as never),
    'context.conversationID',
    'context.conversationId',
  ],
  [
    'getModelInfo',
    () => getModelInfo('gpt-4o', { override: {} } as never),
    'override',
    'overrides',
  ],
  [
    'findModelInfo (a row)',
    () =>
      findModelInfo('my-model', {
        overrides: { 'my-model': { contextWindw: 10, maxOutputTokens: 5 } },
      } as never),
    'overrides["my-model"].contextWindw',
    'overrides["my-model"].contextWindow',
  ],
  [
    'resolveModelLimits (a row)',
    () =>
      resolveModelLimits(
        {
          model: 'my-model',
          modelOverrides: { 'my-model': { contextWindow: 10, maxOutputTokes: 5 } as never },
        },
        { factory: 'someFactory' },
      ),
    'modelOverrides["my-model"].maxOutputTokes',
    'modelOverrides["my-model"].maxOutputTokens',
  ],
];

describe('options objects of core', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );

  it('the known keys pass, also when their value is undefined', async () => {
    createInMemoryToolOutputStore({ maxBytes: undefined, shareAcrossConversations: undefined });
    const store = createInMemoryHistoryStore({ counter: charCounter });
    await store.append('c', user('a'));
    expect(await store.getHistory('c', { limit: undefined, maxTokens: undefined })).toHaveLength(1);
    validateMessages([user('a')], { source: undefined, knownToolCallIds: undefined });
    expect(
      readCompressInput(
        'x',
        [user('a')],
        { maxTokens: 5, reserveTokens: 1 },
        {
          counter: charCounter,
          conversationId: undefined,
          signal: undefined,
          lastPrompts: undefined,
        },
      ).limit,
    ).toBe(4);
  });
});

describe('optionChecker().knownKeys', () => {
  const check = optionChecker('some-package', 'someFactory');
  const known = { maxTokens: true, counter: true, keepRecent: true } as const;

  it('names the package, the function, the unknown key and the closest known key', () => {
    const error = contextErrorThrownBy(() => check.knownKeys({ maxToken: 5 }, known));
    expect(error.message).toBe(
      '[ctxkit/some-package] someFactory: unknown option maxToken; did you mean maxTokens?',
    );
    expect(error).toMatchObject({
      code: 'unknown_option',
      name: 'InvalidOptionError',
      details: { factory: 'someFactory', option: 'maxToken', suggestion: 'maxTokens' },
    });
  });

  it('finds slips of case, swapped letters and missing letters', () => {
    for (const [slip, meant] of [
      ['maxtokens', 'maxTokens'],
      ['keepRecnet', 'keepRecent'],
      ['countr', 'counter'],
      ['keep_recent', 'keepRecent'],
    ]) {
      expect(
        contextErrorThrownBy(() => check.knownKeys({ [slip as string]: 1 }, known)).details,
      ).toMatchObject({ suggestion: meant });
    }
  });

  it('lists the known keys when none is close', () => {
    const error = contextErrorThrownBy(() => check.knownKeys({ colour: 'red' }, known));
    expect(error.message).toBe(
      '[ctxkit/some-package] someFactory: unknown option colour; the options are maxTokens, counter, keepRecent.',
    );
    expect(error.details).not.toHaveProperty('suggestion');
  });

  it('refuses an unknown key whose value is undefined, and names a nested one with its parent', () => {
    expect(contextErrorThrownBy(() => check.knownKeys({ maxToken: undefined }, known)).code).toBe(
      'unknown_option',
    );
    expect(
      contextErrorThrownBy(() => check.knownKeys({ counte: 1 }, known, 'budget')).message,
    ).toContain('unknown option budget.counte; did you mean budget.counter?');
  });

  it('passes undefined and known keys, and refuses options that are not an object', () => {
    check.knownKeys(undefined, known);
    check.knownKeys({ maxTokens: undefined, counter: 1 }, known);
    for (const options of [null, 5, 'x', []]) {
      expect(contextErrorThrownBy(() => check.knownKeys(options, known)).code).toBe(
        'invalid_option',
      );
    }
  });
});
