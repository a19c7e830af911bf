import { InvalidMessageError, type Message } from '@ctxkit/context-core';
import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import { describe, expect, it } from 'vitest';
import { contextTransform, fromCtxkitMessages, toCtxkitMessages } from '../src/index.js';

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

const ask = { role: 'user', content: 'Go.', timestamp: 1 };
const call = (input: unknown) => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: input }],
  timestamp: 2,
});

const SHAPES: { name: string; messages: () => unknown[]; names: string }[] = [
  {
    name: 'content that is a number',
    messages: () => [{ role: 'user', content: 5, timestamp: 1 }],
    names: 'messages[0].content',
  },
  {
    name: 'content that is null',
    messages: () => [{ role: 'user', content: null, timestamp: 1 }],
    names: 'messages[0].content',
  },
  {
    name: 'content that is an object',
    messages: () => [{ role: 'user', content: { text: 'hi' }, timestamp: 1 }],
    names: 'messages[0].content',
  },
  { name: 'a null message', messages: () => [ask, null], names: 'messages[1]' },
  {
    name: 'a null part',
    messages: () => [{ role: 'user', content: [null], timestamp: 1 }],
    names: 'messages[0].content[0]',
  },
  {
    name: 'a part that refers to itself',
    messages: () => [
      { role: 'user', content: [cyclic({ type: 'hologram' }, 'self')], timestamp: 1 },
    ],
    names: 'self',
  },
  {
    name: 'a cyclic tool-call input',
    messages: () => [ask, call(cyclic({ path: 'a' }, 'again'))],
    names: 'again',
  },
  {
    name: 'a tool-call input 100,000 levels deep',
    messages: () => [ask, call(nested(100_000))],
    names: 'nested more than',
  },
];

describe.each(SHAPES)('$name', ({ messages, names }) => {
  it('contextTransform hands onError an InvalidMessageError naming it', async () => {
    let failure: unknown;
    const input = messages() as AgentMessage[];
    const sent = await contextTransform({
      maxTokens: 10_000,
      onError: (error, given) => {
        failure = error;
        return given;
      },
    })(input);
    expect(sent).toBe(input);
    expect(InvalidMessageError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toContain(names);
  });

  it('toCtxkitMessages gives no TypeError or RangeError', () => {
    try {
      toCtxkitMessages(messages() as AgentMessage[]);
    } catch (error) {
      expect(
        InvalidMessageError.isInstance(
          contextErrorThrownBy(() => {
            throw error;
          }),
        ),
      ).toBe(true);
    }
  });
});

const result = (output?: unknown) => ({
  role: 'tool',
  content: [
    {
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'read',
      ...(output === undefined ? {} : { output }),
    },
  ],
});
const calling = {
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: {} }],
};

/** Malformed ctxkit messages, and what the error must name. */
const CTXKIT_SHAPES: { name: string; messages: () => unknown[]; names: string }[] = [
  { name: 'a null message', messages: () => [null], names: 'message 0:' },
  {
    name: 'content that is null',
    messages: () => [{ role: 'user', content: null }],
    names: 'message 0 (content)',
  },
  {
    name: 'content that is a number',
    messages: () => [{ role: 'user', content: 5 }],
    names: 'message 0 (content)',
  },
  {
    name: 'a null part',
    messages: () => [{ role: 'user', content: [null] }],
    names: 'message 0, part 0:',
  },
  {
    name: 'a tool result without an output',
    messages: () => [calling, result()],
    names: 'message 1, part 0 (tool-result.output)',
  },
  {
    name: 'a tool result whose output is null',
    messages: () => [calling, result(null)],
    names: 'message 1, part 0 (tool-result.output)',
  },
  {
    name: 'a content output whose value is null',
    messages: () => [calling, result({ type: 'content', value: null })],
    names: 'message 1, part 0 (tool-result.output)',
  },
  {
    name: 'a system message whose content is null',
    messages: () => [{ role: 'system', content: null }],
    names: 'message 0 (content)',
  },
];

describe.each(CTXKIT_SHAPES)('fromCtxkitMessages given $name', ({ messages, names }) => {
  it('throws InvalidMessageError naming it', () => {
    const error = contextErrorThrownBy(() => fromCtxkitMessages(messages() as Message[]));
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    expect(error.message).toContain('[ctxkit/pi]');
    expect(error.message).toContain(names);
  });
});
