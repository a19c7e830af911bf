import { InvalidOptionError } from '@ctxkit/context-core';
import { contextErrorRejectedBy, contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import { HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { fitLangChainMessages, toolDeclarations } from '../src/index.js';

// Malformed input to the adapter's functions gives a typed error naming the function and the
// option, never a TypeError or RangeError.

/** Values that are not arrays of tools. */
const TOOL_LISTS: { name: string; tools: () => unknown }[] = [
  { name: 'null', tools: () => null },
  { name: 'undefined', tools: () => undefined },
  { name: 'a number', tools: () => 1 },
  { name: 'an object', tools: () => ({}) },
];

describe.each(TOOL_LISTS)('toolDeclarations given $name', ({ tools }) => {
  it('throws InvalidOptionError naming the function and the option', () => {
    const error = contextErrorThrownBy(() => toolDeclarations(tools() as unknown[]));
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error.message).toContain('[ctxkit/langchain] toolDeclarations:');
    expect(error.message).toContain('option tools must be an array of tools');
  });
});

describe.each([
  { name: 'null', tools: () => null },
  { name: 'an object', tools: () => ({}) },
])('fitLangChainMessages given tools that are $name', ({ tools }) => {
  it('rejects with InvalidOptionError naming the function and the option', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 10_000 });
    const error = await contextErrorRejectedBy(
      fitLangChainMessages(manager, [new HumanMessage('Go.')], { tools: tools() as never }),
    );
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error.message).toContain('[ctxkit/langchain] fitLangChainMessages:');
    expect(error.message).toContain('option tools must be an array of tools');
  });
});
