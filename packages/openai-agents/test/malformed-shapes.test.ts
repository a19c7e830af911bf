import { InvalidMessageError, InvalidOptionError } from '@ctxkit/context-core';
import { contextErrorRejectedBy, contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { Agent, type AgentInputItem } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { agentToolDeclarations, contextInputFilter, itemsToMessages } from '../src/index.js';

// The same malformed shapes as every adapter's table: each gives InvalidMessageError (from the
// conversion, or from the manager's check of what it made), never a TypeError or RangeError.

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = { a: value };
  return value;
}

function cyclic<T extends object>(value: T, key: string): T {
  (value as Record<string, unknown>)[key] = value;
  return value;
}

const ask = { role: 'user', content: 'Go.' };
const call = (providerData: unknown) => ({
  type: 'function_call',
  callId: 'c1',
  name: 'read',
  arguments: '{}',
  providerData,
});

const SHAPES: { name: string; items: () => unknown[]; names: string }[] = [
  {
    name: 'content that is a number',
    items: () => [{ role: 'user', content: 5 }],
    names: 'Item 0',
  },
  { name: 'content that is null', items: () => [{ role: 'user', content: null }], names: 'Item 0' },
  {
    name: 'content that is an object',
    items: () => [{ role: 'user', content: { text: 'hi' } }],
    names: 'Item 0',
  },
  { name: 'a null item', items: () => [ask, null], names: 'Item 1' },
  { name: 'a null part', items: () => [{ role: 'user', content: [null] }], names: 'Item 0' },
  {
    name: 'an item that refers to itself',
    items: () => [cyclic({ type: 'hologram' }, 'self')],
    names: 'self',
  },
  {
    name: 'cyclic provider data',
    items: () => [ask, call(cyclic({ trace: 'a' }, 'again'))],
    names: 'again',
  },
  {
    name: 'an item 100,000 levels deep',
    items: () => [ask, call(nested(100_000))],
    names: 'nested more than',
  },
  {
    name: 'a reasoning item holding a null part',
    items: () => [ask, { type: 'reasoning', content: [null] }],
    names: 'Item 1 (a reasoning item)',
  },
];

describe.each(SHAPES)('$name', ({ items, names }) => {
  it('the input filter rejects it with InvalidMessageError naming it', async () => {
    const filter = contextInputFilter({ model: 'gpt-4o', maxTokens: 10_000 });
    const error = await contextErrorRejectedBy(
      (async () =>
        filter({
          modelData: { input: items() as AgentInputItem[], instructions: undefined },
          agent: new Agent({ name: 'reader' }),
          context: undefined,
        }))(),
    );
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    expect(error.message).toContain(names);
  });
});

describe.each(SHAPES)('itemsToMessages given $name', ({ items, names }) => {
  it('throws InvalidMessageError naming it, or converts it', () => {
    let error: unknown;
    try {
      itemsToMessages(items() as AgentInputItem[]);
    } catch (thrown) {
      error = contextErrorThrownBy(() => {
        throw thrown;
      });
    }
    if (error === undefined) return;
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(names);
  });
});

/** Values that are not agents, and what the error must name. */
const AGENTS: { name: string; agent: () => unknown; names: string }[] = [
  { name: 'null', agent: () => null, names: 'option agent must be an Agent' },
  { name: 'an empty object', agent: () => ({}), names: 'option agent.tools must be an array' },
  { name: 'an array', agent: () => [], names: 'option agent must be an Agent' },
  {
    name: 'an agent with a null tool',
    agent: () => ({ tools: [null], handoffs: [] }),
    names: 'option agent.tools[0] must be a tool object',
  },
  {
    name: 'an agent with a null handoff',
    agent: () => ({ tools: [], handoffs: [null] }),
    names: 'option agent.handoffs[0] must be an Agent or a Handoff',
  },
];

describe.each(AGENTS)('agentToolDeclarations given $name', ({ agent, names }) => {
  it('throws InvalidOptionError naming the function and the option', () => {
    const error = contextErrorThrownBy(() => agentToolDeclarations(agent() as Agent));
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error.message).toContain('[ctxkit/openai-agents] agentToolDeclarations:');
    expect(error.message).toContain(names);
  });
});
