import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextError, validateMessages } from '../src/index.js';
import { arbitraryHistory, fuzzParameters } from '../src/testing/index.js';
import { call, result, user } from './helpers.js';

function problem(
  messages: unknown,
  options?: Parameters<typeof validateMessages>[1],
): ContextError {
  try {
    validateMessages(messages, options);
  } catch (error) {
    if (ContextError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ContextError');
}

describe('validateMessages', () => {
  it('accepts every generated agent history', () => {
    fc.assert(
      fc.property(arbitraryHistory(), (history) => {
        validateMessages(history);
      }),
      fuzzParameters(200),
    );
  });

  it.each([
    ['not an array', { role: 'user' }, undefined, /Expected an array/],
    ['unknown role', [user('a'), { role: 'robot', content: 'x' }], 1, /unknown role "robot"/],
    [
      'content neither string nor parts',
      [{ role: 'user', content: 42 }],
      0,
      /content must be a string or an array/,
    ],
    [
      'unknown part type',
      [{ role: 'user', content: [{ type: 'image' }] }],
      0,
      /part 0: unknown part type "image"/,
    ],
    ['tool result without a call', [user('a'), result('t9')], 1, /"t9" has no earlier tool call/],
    ['result before its call', [result('t1'), call('t1')], 0, /"t1" has no earlier tool call/],
    ['duplicate toolCallId', [call('t1'), call('t1')], 1, /duplicate toolCallId "t1"/],
    [
      'second result for a call',
      [call('t1'), result('t1'), result('t1')],
      2,
      /already has a result/,
    ],
    [
      'output not a string',
      [
        call('t1'),
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'x', output: { a: 1 } }],
        },
      ],
      1,
      /output must be a string, got an object/,
    ],
    [
      'tool call outside an assistant message',
      [
        {
          role: 'user',
          content: [{ type: 'tool-call', toolCallId: 't', toolName: 'x', input: {} }],
        },
      ],
      0,
      /tool-call part belongs in an assistant message, not user/,
    ],
    [
      'tool message with a string',
      [{ role: 'tool', content: 'hi' }],
      0,
      /must hold tool-result parts/,
    ],
    [
      'negative tokens',
      [{ role: 'user', content: 'a', tokens: -1 }],
      0,
      /tokens must be a non-negative integer/,
    ],
    [
      'meta not an object',
      [{ role: 'user', content: 'a', meta: 'x' }],
      0,
      /meta must be an object/,
    ],
    [
      'text part without text',
      [{ role: 'user', content: [{ type: 'text' }] }],
      0,
      /text text must be a string/,
    ],
  ])('rejects %s, naming the index', (_name, messages, index, pattern) => {
    const error = problem(messages);
    expect(error.code).toBe('invalid_message');
    expect(error.message).toMatch(pattern);
    if (index !== undefined) {
      expect(error.details.index).toBe(index);
      expect(error.message).toContain(`message ${index}`);
    }
  });

  it('lets a result answer a call made before the list', () => {
    expect(() => validateMessages([result('old')], { knownToolCallIds: ['old'] })).not.toThrow();
    expect(
      problem([result('old')], { knownToolCallIds: ['old'], answeredToolCallIds: ['old'] }).message,
    ).toMatch(/already has a result/);
  });

  it('names the package that validated', () => {
    expect(problem([{ role: 'x', content: '' }], { source: 'provider-sqlite' }).message).toMatch(
      /^\[ctxkit\/provider-sqlite\]/,
    );
  });

  it('allows a call that still awaits its result', () => {
    expect(() => validateMessages([user('go'), call('pending')])).not.toThrow();
  });
});
