import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextError, createMessageValidator, validateMessages } from '../src/index.js';
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
      fuzzParameters(100),
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
      [{ role: 'user', content: [{ type: 'video', url: 'x' }] }],
      0,
      /part 0 \(type\): unknown part type "video": carry it in an opaque part/,
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
      /\(tool-result\.output\): tool-result output must be a string, \{ type: 'json', value \}/,
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
      /\(type\): a user message may not hold a tool-call part/,
    ],
    [
      'tool message with a string',
      [{ role: 'tool', content: 'hi' }],
      0,
      /a tool message must hold parts, not a string/,
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

  it('names a hole in the messages or in a content array instead of skipping it', () => {
    const messages: unknown[] = new Array(3);
    messages[0] = user('a');
    messages[2] = user('c');
    expect(problem(messages)).toMatchObject({ details: { index: 1 } });
    expect(problem(messages).message).toMatch(/message 1: expected an object, got undefined/);
    const parts: unknown[] = new Array(2);
    parts[1] = { type: 'text', text: 'b' };
    expect(problem([{ role: 'user', content: parts }])).toMatchObject({
      details: { index: 0, part: 0 },
    });
  });

  it('refuses meta and tool inputs that are not JSON data, with the path, without recursing', () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let level = 0; level < 100_000; level += 1) {
      cursor.next = {};
      cursor = cursor.next as Record<string, unknown>;
    }
    const cyclic: Record<string, unknown> = { list: [] };
    (cyclic.list as unknown[]).push(cyclic);
    const cases: [unknown, RegExp][] = [
      [{ a: { b: [1, 2n] } }, /meta\.a\.b\[1\] is a BigInt/],
      [cyclic, /meta\.list\[0\] refers back to itself/],
      [{ when: new Date(0) }, /meta\.when is a Date/],
      [{ ratio: Number.POSITIVE_INFINITY }, /meta\.ratio is Infinity/],
      [deep, /nested more than 256 levels/],
    ];
    for (const [meta, message] of cases) {
      expect(problem([{ ...user('x'), meta }]).message).toMatch(message);
    }
    const input = { same: { x: 1 } };
    expect(() =>
      validateMessages([
        { ...user('x'), meta: { a: input, b: input, gone: undefined } },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: [input, input] }],
        },
      ]),
    ).not.toThrow();
    expect(
      problem([
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: deep }],
        },
      ]).message,
    ).toMatch(/part 0 \(tool-call\.input\): tool-call\.input(\.next)+ is nested/);
  });

  it('refuses ids that cannot be stored as written', () => {
    expect(problem([{ ...user('x'), id: 'a\uD800' }]).message).toMatch(/lone surrogate at index 1/);
    expect(problem([call('x\u0000')]).message).toMatch(/U\+0000 at index 1/);
    expect(() =>
      validateMessages([call('emoji-\u{1F600}'), result('emoji-\u{1F600}')]),
    ).not.toThrow();
  });

  it('checks a message validated before again in full once it was edited in place, however deep', () => {
    const message = call('c1');
    validateMessages([message, result('c1')]);
    const part = (message.content as { input?: unknown }[])[0] as { input?: unknown };
    part.input = { when: 10n };
    expect(problem([message, result('c1')]).message).toMatch(/message 0, part 0.*BigInt/);
    part.input = {};
    expect(() => validateMessages([message, result('c1')])).not.toThrow();
    const text = user('hi');
    validateMessages([text]);
    (text as { role: string }).role = 'narrator';
    expect(problem([text]).message).toMatch(/unknown role/);
    // Edits a walk of keys alone would miss: a symbol key, another prototype.
    const noted = user('hi', { note: 'x' });
    validateMessages([noted]);
    (noted.meta as Record<symbol, unknown>)[Symbol('t')] = 1;
    expect(problem([noted]).message).toMatch(/meta.*symbol keys/);
    const dated = user('hi', { note: 'x' });
    validateMessages([dated]);
    Object.setPrototypeOf(dated.meta, Date.prototype);
    expect(problem([dated]).message).toMatch(/meta/);
  });

  it('checks the pairs of a message validated before against the messages around it now', () => {
    const [asked, answered] = [call('c1'), result('c1')];
    validateMessages([asked, answered]);
    expect(problem([answered]).message).toBe(
      '[ctxkit/context-core] Invalid message 0, part 0 (toolCallId): tool result "c1" has no earlier tool call with that id.',
    );
    expect(problem([asked, answered, answered]).details).toEqual({
      index: 2,
      part: 0,
      field: 'toolCallId',
    });
    expect(problem([asked, asked]).message).toMatch(/message 1, part 0.*duplicate toolCallId "c1"/);
    expect(() => validateMessages([answered], { knownToolCallIds: ['c1'] })).not.toThrow();
  });
});

describe('createMessageValidator', () => {
  /** The error `validate` throws for `messages`, or undefined when it accepts them. */
  const outcome = (validate: (messages: unknown) => void, messages: unknown) => {
    try {
      validate(messages);
      return undefined;
    } catch (error) {
      if (ContextError.isInstance(error)) return error.message;
      throw error;
    }
  };

  it('accepts and refuses what validateMessages does, step after step of a growing history', () => {
    fc.assert(
      fc.property(
        arbitraryHistory({ minTurns: 1 }),
        fc.array(
          fc.record({
            length: fc.nat(),
            broken: fc.constantFrom('none', 'role', 'second result', 'copy'),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        (history, steps) => {
          const validate = createMessageValidator();
          for (const step of steps) {
            const messages: unknown[] = history.slice(0, step.length % (history.length + 1));
            if (step.broken === 'role') messages.push({ role: 'robot', content: 'hi' });
            if (step.broken === 'copy')
              messages.push(...messages.map((m) => ({ ...(m as object) })));
            if (step.broken === 'second result') {
              const answer = messages.find((m) => (m as { role: string }).role === 'tool') as
                | object
                | undefined;
              if (answer !== undefined) messages.push({ ...answer });
            }
            expect(outcome(validate, messages)).toBe(outcome(validateMessages, messages));
          }
        },
      ),
      fuzzParameters(200),
    );
  });

  it('validates again a message edited in place since the last array it accepted', () => {
    const validate = createMessageValidator();
    const history = [user('hi'), call('c1'), result('c1', 'done')];
    validate(history);
    (history[0] as { role: string }).role = 'robot';
    expect(outcome(validate, [...history, user('next')])).toMatch(
      /message 0 \(role\): unknown role/,
    );
    // A refused array is not remembered: the same tool result again is still refused.
    const again = [user('hi'), call('c2'), result('c2', 'ok')];
    validate(again);
    expect(outcome(validate, [...again, result('c2', 'ok')])).toMatch(/message 3/);
    expect(outcome(validate, [...again, result('c2', 'ok')])).toMatch(/message 3/);
  });

  it('validates a window that slid on whole: its pairs, and a message edited in place since', () => {
    const validate = createMessageValidator();
    const [first, asked, answered, next] = [user('hi'), call('c1'), result('c1'), user('next')];
    validate([first, asked, answered, next]);
    // Dropped from the front: the result now answers no call in the array.
    expect(outcome(validate, [answered, next])).toMatch(
      /message 0, part 0 \(toolCallId\): tool result "c1" has no earlier tool call/,
    );
    expect(outcome(validate, [asked, answered, answered])).toMatch(/already has a result/);
    (next as { content: unknown }).content = 42;
    expect(outcome(validate, [asked, answered, next])).toMatch(
      /message 2 \(content\): content must be a string or an array of parts, got number 42/,
    );
  });
});
