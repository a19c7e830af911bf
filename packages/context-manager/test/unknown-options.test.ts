import {
  createExtractiveSummarizer,
  createSummarizingCompressor,
} from '@ctxkit/compressor-summarize';
import { createInMemoryHistoryStore, createInMemoryToolOutputStore } from '@ctxkit/context-core';
import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { describe, it } from 'vitest';
import { charCounter, user } from '../../context-core/test/helpers.js';
import { plainAssembler } from '../../context-core/test/reference-compressor.js';
import {
  cacheAwareHybrid,
  createAutoReset,
  createContextManager,
  createContextPipeline,
  fitAndAssemble,
  formatReport,
  hybrid,
  withContextRetry,
} from '../src/index.js';

const manager = () => createContextManager({ maxTokens: 1000, counter: charCounter });
const summary = () => createSummarizingCompressor({ summarize: createExtractiveSummarizer() });
const store = () => createInMemoryHistoryStore({ counter: charCounter });
const pipeline = () =>
  createContextPipeline({
    provider: store(),
    assembler: plainAssembler,
    counter: charCounter,
    budget: { maxTokens: 1000 },
  });

/** Each public function of the package that takes options, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'createContextManager',
    () => createContextManager({ model: 'gpt-4o', maxToken: 5 } as never),
    'maxToken',
    'maxTokens',
  ],
  [
    'createContextManager (a modelOverrides row)',
    () =>
      createContextManager({
        model: 'mine',
        modelOverrides: { mine: { contextWindow: 10_000, maxOutputToken: 100 } as never },
      }),
    'modelOverrides["mine"].maxOutputToken',
    'modelOverrides["mine"].maxOutputTokens',
  ],
  [
    'createContextManager (a model given as info)',
    () =>
      createContextManager({
        model: { id: 'mine', contextWindow: 10_000, maxOutputTokens: 100, price: {} } as never,
      }),
    'model.price',
    'model.prices',
  ],
  ['fit', () => manager().fit([user('a')], { sytem: 's' } as never), 'sytem', 'system'],
  [
    'createContextPipeline',
    () =>
      createContextPipeline({
        provider: store(),
        assembler: plainAssembler,
        budget: { maxTokens: 1000 },
        historyLimt: 5,
      } as never),
    'historyLimt',
    'historyLimit',
  ],
  [
    'createContextPipeline (budget)',
    () =>
      createContextPipeline({
        provider: store(),
        assembler: plainAssembler,
        budget: { maxTokens: 1000, reserveToken: 5 } as never,
      }),
    'budget.reserveToken',
    'budget.reserveTokens',
  ],
  [
    'build',
    () => pipeline().build('c', { system: 's', tool: [] } as never),
    'input.tool',
    'input.tools',
  ],
  ['hybrid', () => hybrid({ summary: summary(), masks: {} } as never), 'masks', 'mask'],
  [
    'cacheAwareHybrid',
    () =>
      cacheAwareHybrid({
        toolOutputs: createInMemoryToolOutputStore(),
        summary: summary(),
        caches: {},
      } as never),
    'caches',
    'cache',
  ],
  [
    'createAutoReset',
    () =>
      createAutoReset({ manager: manager(), store: store(), threshold: 0.5, logge: {} } as never),
    'logge',
    'logger',
  ],
  [
    'autoReset.check',
    () =>
      createAutoReset({ manager: manager(), store: store(), threshold: 0.5 }).check('c', {
        pendng: [],
      } as never),
    'pendng',
    'pending',
  ],
  [
    'withContextRetry',
    () => withContextRetry(async () => 1, manager(), { signl: undefined } as never),
    'signl',
    'signal',
  ],
  [
    'formatReport',
    async () => formatReport((await manager().fit([user('a')])).report, { maxRow: 3 } as never),
    'maxRow',
    'maxRows',
  ],
  [
    'fitAndAssemble',
    () =>
      fitAndAssemble(manager(), [user('a')], {
        assembler: plainAssembler,
        inptu: 'x',
      } as never),
    'inptu',
    'input',
  ],
];

describe('options objects of context-manager', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );
});
