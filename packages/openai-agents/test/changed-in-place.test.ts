import { type FitReport, InvalidMessageError } from '@ctxkit/context-core';
import { contextErrorRejectedBy } from '@ctxkit/context-core/testing';
import type { AgentInputItem } from '@openai/agents-core';
import { Agent } from '@openai/agents-core';
import { expect, it } from 'vitest';
import { contextInputFilter } from '../src/index.js';

// An item already sent, edited in place before the next model call (a secret redacted in a tool
// output the SDK keeps in its history): the next request must carry what the item holds now.

it('sends what an item holds now: a secret redacted in place is never sent again', async () => {
  const secret = 'sk-live-0123456789';
  const result = {
    type: 'function_call_result',
    callId: 'call_1',
    name: 'read_log',
    status: 'completed',
    output: `token ${secret}\n${'log line\n'.repeat(8_000)}`,
  } satisfies AgentInputItem;
  const items: AgentInputItem[] = [
    { role: 'user', content: 'Read the deploy log.' },
    {
      type: 'function_call',
      callId: 'call_1',
      name: 'read_log',
      arguments: '{}',
      status: 'completed',
    },
    result,
  ];
  const filter = contextInputFilter({ model: 'gpt-4o', maxTokens: 20_000 });
  const call = (input: AgentInputItem[]) =>
    filter({
      modelData: { input, instructions: 'You read logs.' },
      agent: new Agent({ name: 'reader', instructions: 'You read logs.' }),
      context: undefined,
    });
  const first = await call(items);
  // The long output was cut to its head and tail: the first request still has the token.
  expect(JSON.stringify(first.input)).toContain(secret);
  result.output = result.output.replace(secret, '[redacted]');
  const second = await call([...items, { role: 'user', content: 'Go on.' }]);
  expect(JSON.stringify(second.input)).not.toContain(secret);
  expect(JSON.stringify(second.input)).toContain('[redacted]');
});

it('counts an output that is not enumerable as it is now, edited in place', async () => {
  // The SDK reads `output` by name, so it sends a non-enumerable output: it must be counted as sent.
  const result: Record<string, unknown> = {
    type: 'function_call_result',
    callId: 'call_1',
    name: 'read_log',
    status: 'completed',
  };
  Object.defineProperty(result, 'output', { value: 'ok', enumerable: false, writable: true });
  const items = [
    { role: 'user', content: 'Read the deploy log.' },
    { type: 'function_call', callId: 'call_1', name: 'read_log', arguments: '{}' },
    result,
  ] as AgentInputItem[];
  const reports: FitReport[] = [];
  const filterOf = () =>
    contextInputFilter({
      model: 'gpt-4o',
      maxTokens: 20_000,
      onFit: ({ report }) => reports.push(report),
    });
  const call = (filter: ReturnType<typeof filterOf>) =>
    filter({
      modelData: { input: items, instructions: 'You read logs.' },
      agent: new Agent({ name: 'reader', instructions: 'You read logs.' }),
      context: undefined,
    });
  const filter = filterOf();
  await call(filter);
  result.output = 'log line '.repeat(1_000);
  await call(filter);
  await call(filterOf());
  expect(reports[1]?.promptTokens).toBe(reports[2]?.promptTokens);
  expect(reports[1]?.promptTokens).toBeGreaterThan((reports[0]?.promptTokens ?? 0) + 1_000);
});

it('refuses an item replaced by an equal one too deep to compare as invalid, at every call', async () => {
  const nested = (levels: number): Record<string, unknown> => {
    let value: Record<string, unknown> = { end: true };
    for (let level = 0; level < levels; level += 1) value = { a: value };
    return value;
  };
  const item = { role: 'user', content: 'Read.', providerData: nested(20_000) };
  const filter = contextInputFilter({ model: 'gpt-4o', maxTokens: 20_000 });
  const call = () =>
    filter({
      modelData: { input: [item as AgentInputItem], instructions: 'You read logs.' },
      agent: new Agent({ name: 'reader', instructions: 'You read logs.' }),
      context: undefined,
    });
  for (let step = 0; step < 2; step += 1) {
    const error = await contextErrorRejectedBy(Promise.resolve(call()));
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    item.providerData = nested(20_000);
  }
});
