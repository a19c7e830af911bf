import { type ContextManager, type Logger, silentLogger } from '@ctxkit/context-core';
import {
  contextErrorRejectedBy,
  contextErrorThrownBy,
  fuzzParameters,
  kitCounter,
} from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import {
  Agent,
  type AgentInputItem,
  type CallModelInputFilter,
  type CallModelInputFilterArgs,
  type ModelInputData,
  run,
} from '@openai/agents-core';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { contextInputFilter, type InputFit } from '../src/index.js';
import { arbitraryItems } from './agent-items.js';
import { assistantSays, ScriptedModel } from './scripted-model.js';

const agent = new Agent({ name: 'plain', instructions: 'Answer briefly.' });

/** What the SDK's runner does before a model call: the filter on the input and instructions. */
async function filterInput(
  filter: CallModelInputFilter,
  input: AgentInputItem[],
): Promise<ModelInputData> {
  return filter({
    modelData: { input, instructions: 'Answer briefly.' },
    agent: agent as unknown as CallModelInputFilterArgs['agent'],
    context: undefined,
  });
}

it('with room to spare, the filter sends every item as it came: the same objects, in order', async () => {
  const filter = contextInputFilter({ maxTokens: 1_000_000_000, counter: kitCounter });
  await fc.assert(
    fc.asyncProperty(arbitraryItems, async (items) => {
      const { input, instructions } = await filterInput(filter, items);
      expect(instructions).toBe('Answer briefly.');
      expect(input).toHaveLength(items.length);
      for (const [index, item] of input.entries()) expect(item).toBe(items[index]);
    }),
    fuzzParameters(100),
  );
});

it('a function_call_result without its call reaches the model through run(), reported, not dropped', async () => {
  const warnings: unknown[][] = [];
  const logger: Logger = { ...silentLogger, warn: (...args: unknown[]) => warnings.push(args) };
  const fits: InputFit[] = [];
  const model = new ScriptedModel(() => [assistantSays('Noted.')]);
  const orphan: AgentInputItem = {
    type: 'function_call_result',
    callId: 'call_gone',
    name: 'lookup',
    status: 'completed',
    output: 'found 3 rows',
  };
  const input: AgentInputItem[] = [{ role: 'user', content: 'What did the lookup find?' }, orphan];

  await run(new Agent({ name: 'reader', model }), input, {
    callModelInputFilter: contextInputFilter({
      maxTokens: 10_000,
      counter: kitCounter,
      logger,
      onFit: (fit) => fits.push(fit),
    }),
  });

  expect(model.requests[0]?.input).toContainEqual(orphan);
  expect(fits[0]?.repairs).toEqual([{ index: 1, callId: 'call_gone', action: 'passed-through' }]);
  expect(String(warnings[0]?.[0])).toContain('call_gone');
});

it('a second result for one call is passed through and reported too', async () => {
  const fits: InputFit[] = [];
  const filter = contextInputFilter({
    maxTokens: 10_000,
    counter: kitCounter,
    onFit: (fit) => fits.push(fit),
  });
  const call: AgentInputItem = { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}' };
  const result: AgentInputItem = {
    type: 'function_call_result',
    callId: 'c1',
    name: 'f',
    status: 'completed',
    output: 'a',
  };
  const items = [
    { role: 'user', content: 'go' } as AgentInputItem,
    call,
    result,
    { ...result, output: 'b' },
  ];
  const { input } = await filterInput(filter, items);
  expect(input).toEqual(items);
  expect(fits[0]?.repairs).toEqual([{ index: 3, callId: 'c1', action: 'passed-through' }]);
});

it('malformed input is refused with an InvalidMessageError naming the item', async () => {
  const filter = contextInputFilter({ maxTokens: 10_000, counter: kitCounter });
  const notObject = await contextErrorRejectedBy(
    filterInput(filter, [null as unknown as AgentInputItem]),
  );
  expect(notObject.code).toBe('invalid_message');
  expect(notObject.details).toMatchObject({ index: 0 });
  const badContent = await contextErrorRejectedBy(
    filterInput(filter, [
      { role: 'user', content: 'ok' },
      { role: 'user', content: 42 } as unknown as AgentInputItem,
    ]),
  );
  expect(badContent.message).toContain('Item 1 (a user message)');
  expect(badContent.details).toMatchObject({ index: 1, value: 42 });
  const notArray = await contextErrorRejectedBy(
    filterInput(filter, 'hello' as unknown as AgentInputItem[]),
  );
  expect(notArray.code).toBe('invalid_message');
});

it('an input that cannot fit is refused with a BudgetError rather than sent', async () => {
  const filter = contextInputFilter({ maxTokens: 50, counter: kitCounter });
  const error = await contextErrorRejectedBy(
    filterInput(filter, [{ role: 'user', content: 'word '.repeat(500) }]),
  );
  expect(error.code).toBe('budget_exceeded');
});

it('refuses options it would not use or cannot use, naming them', () => {
  const manager = createContextManager({ maxTokens: 10_000, counter: kitCounter });
  const beside = contextErrorThrownBy(() => contextInputFilter({ manager, maxTokens: 500 }));
  expect(beside.code).toBe('invalid_option');
  expect(beside.message).toContain('maxTokens');
  expect(() => contextInputFilter({ manager, logger: silentLogger })).not.toThrow();
  const notManager = contextErrorThrownBy(() =>
    contextInputFilter({ manager: {} as ContextManager }),
  );
  expect(notManager.message).toContain('manager');
  const onFit = contextErrorThrownBy(() =>
    contextInputFilter({ manager, onFit: 'log' as unknown as () => void }),
  );
  expect(onFit.message).toContain('onFit');
  const pin = contextErrorThrownBy(() =>
    contextInputFilter({ manager, keepFirstUserMessage: 'yes' as unknown as boolean }),
  );
  expect(pin.message).toContain('keepFirstUserMessage');
});
