import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { InvalidMessageError, InvalidOptionError } from '@ctxkit/context-core';
import { contextErrorRejectedBy, contextErrorThrownBy } from '@ctxkit/context-core/testing';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  contextMiddleware,
  contextPrepareStep,
  fromModelMessages,
  fromPrompt,
  toolSetDeclarations,
} from '../src/index.js';

// Every malformed shape gives InvalidMessageError naming the message (and part), as the other
// adapters do: never a TypeError or RangeError from inside the conversion.

/** `{ a: { a: ... 1 } }`, `levels` deep. */
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
const call = (input: unknown) => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input }],
});

/** Each bad shape, and what the error must name. */
const SHAPES: { name: string; messages: () => unknown; names: string }[] = [
  {
    name: 'content that is a number',
    messages: () => [{ role: 'user', content: 5 }],
    names: 'messages[0].content',
  },
  {
    name: 'content that is null',
    messages: () => [{ role: 'user', content: null }],
    names: 'messages[0].content',
  },
  {
    name: 'content that is an object',
    messages: () => [{ role: 'user', content: { text: 'hi' } }],
    names: 'messages[0].content',
  },
  { name: 'a null message', messages: () => [ask, null], names: 'messages[1]' },
  {
    name: 'a message without a role',
    messages: () => [{ content: 'hi' }],
    names: 'messages[0].role',
  },
  { name: 'messages that are not an array', messages: () => ({ 0: ask }), names: 'array' },
  {
    name: 'a null part',
    messages: () => [{ role: 'user', content: [null] }],
    names: 'messages[0].content[0]',
  },
  {
    name: 'a part that is a string',
    messages: () => [{ role: 'user', content: ['hi'] }],
    names: 'messages[0].content[0]',
  },
  {
    name: 'a part that refers to itself',
    messages: () => [{ role: 'user', content: [cyclic({ type: 'hologram' }, 'self')] }],
    names: 'messages[0].content[0].self',
  },
  {
    name: 'a cyclic tool-call input',
    messages: () => [ask, call(cyclic({ path: 'a' }, 'again'))],
    names: 'messages[1].content[0].input.again',
  },
  {
    name: 'a tool-call input 100,000 levels deep',
    messages: () => [ask, call(nested(100_000))],
    names: 'messages[1].content[0].input',
  },
  {
    name: 'a part 100,000 levels deep',
    messages: () => [{ role: 'user', content: [{ type: 'hologram', frames: nested(100_000) }] }],
    names: 'messages[0].content[0].frames',
  },
  {
    name: 'a cyclic raw tool output',
    messages: () => [
      ask,
      call({}),
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'read',
            output: cyclic({ type: 'custom' }, 'self'),
          },
        ],
      },
    ],
    names: 'messages[2].content[0].output.self',
  },
  {
    name: 'a tool result whose output is null',
    messages: () => [
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'a', toolName: 't', output: null }],
      },
    ],
    names: 'messages[0].content[0].output',
  },
];

function expectTyped(error: unknown, names: string): void {
  expect(InvalidMessageError.isInstance(error)).toBe(true);
  expect((error as Error).message).toContain('[ctxkit/ai-sdk]');
  expect((error as Error).message).toContain(names);
}

describe.each(SHAPES)('$name', ({ messages, names }) => {
  it('fromPrompt and fromModelMessages give InvalidMessageError', () => {
    expectTyped(
      contextErrorThrownBy(() => fromPrompt(messages() as LanguageModelV4Prompt)),
      names,
    );
    expectTyped(
      contextErrorThrownBy(() => fromModelMessages(messages() as ModelMessage[])),
      names,
    );
  });

  it('prepareStep and the middleware reject it with InvalidMessageError', async () => {
    const prepare = contextPrepareStep({ model: 'gpt-4o' });
    expectTyped(
      await contextErrorRejectedBy(prepare({ messages: messages() as ModelMessage[] })),
      names,
    );
    const middleware = contextMiddleware({ model: 'gpt-4o' });
    const rejected = await contextErrorRejectedBy(
      (async () =>
        middleware.transformParams?.({
          type: 'generate',
          params: { prompt: messages() as LanguageModelV4Prompt },
          model: undefined as never,
        }))(),
    );
    expectTyped(rejected, names);
  });
});

/** Tool sets that are not objects of tool objects, and what the error must name. */
const TOOL_SETS: { name: string; tools: () => unknown; names: string }[] = [
  { name: 'null', tools: () => null, names: 'option tools must be' },
  { name: 'undefined', tools: () => undefined, names: 'option tools must be' },
  { name: 'a number', tools: () => 1, names: 'option tools must be' },
  { name: 'a string', tools: () => 'x', names: 'option tools must be' },
  { name: 'an array holding null', tools: () => [null], names: 'option tools must be' },
  { name: 'a tool that is null', tools: () => ({ t: null }), names: 'option tools["t"] must be' },
];

describe.each(TOOL_SETS)('toolSetDeclarations given $name', ({ tools, names }) => {
  it('rejects with InvalidOptionError naming the function and the option', async () => {
    const error = await contextErrorRejectedBy(
      (async () => toolSetDeclarations(tools() as never))(),
    );
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error.message).toContain('[ctxkit/ai-sdk] toolSetDeclarations:');
    expect(error.message).toContain(names);
  });
});
