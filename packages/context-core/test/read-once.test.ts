import { describe, expect, it } from 'vitest';
import {
  composeCompressors,
  countTokens,
  defineCompressor,
  type Message,
  readArrayOnce,
  validateMessages,
} from '../src/index.js';
import { contextErrorThrownBy } from '../src/testing/index.js';
import { charCounter, user } from './helpers.js';

/** An array that answers `first` at each index on its first read there, and `later` after. */
function shiftyArray(first: readonly Message[], later: Message): Message[] {
  const reads = new Map<PropertyKey, number>();
  return new Proxy([...first], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        const count = (reads.get(key) ?? 0) + 1;
        reads.set(key, count);
        return count === 1 ? target[Number(key)] : later;
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

describe('inputs read once', () => {
  it('readArrayOnce reads the length once and each index once', () => {
    const reads: PropertyKey[] = [];
    const array = new Proxy([1, 2, 3], {
      get(target, key, receiver) {
        reads.push(key);
        return Reflect.get(target, key, receiver);
      },
    });
    const copy = readArrayOnce(array);
    expect(copy).toEqual([1, 2, 3]);
    expect(Array.isArray(copy) && Object.getPrototypeOf(copy) === Array.prototype).toBe(true);
    expect(reads).toEqual(['length', '0', '1', '2']);
  });

  it('a compressor sees, counts and returns what its input held at the first read', async () => {
    const honest = [user('first'), user('second')];
    const impostor = user('an impostor from another conversation');
    for (const compressor of [
      defineCompressor({
        name: 'identity',
        transform: ({ messages }) => ({ messages: [...messages] }),
      }),
      composeCompressors(
        defineCompressor({
          name: 'identity',
          transform: ({ messages }) => ({ messages: [...messages] }),
        }),
      ),
    ]) {
      const result = await compressor.compress(
        shiftyArray(honest, impostor),
        { maxTokens: 1000 },
        {
          counter: charCounter,
        },
      );
      expect(result.messages).toEqual(honest);
      expect(result.report.originalCount).toBe(2);
      // Counted from the same reads: the impostor's longer text is never counted.
      expect(result.report.originalTokens).toBe(countTokens(honest, charCounter));
      expect(result.report.steps[0]?.tokensBefore).toBe(countTokens(honest, charCounter));
    }
  });
});

describe('validateMessages refuses accessors', () => {
  const getter = <T extends object>(target: T, key: string, value: unknown): T =>
    Object.defineProperty({ ...target }, key, { get: () => value, enumerable: true });

  it.each([
    ['a message field', [getter(user('x'), 'content', 'x')], 'content'],
    [
      'a part field',
      [{ role: 'user', content: [getter({ type: 'text', text: 'x' }, 'text', 'x')] }],
      'text',
    ],
    [
      'an index of the content array',
      [
        {
          role: 'user',
          content: Object.defineProperty([], 0, {
            get: () => ({ type: 'text', text: 'x' }),
            enumerable: true,
          }),
        },
      ],
      'content.0',
    ],
    ['a value inside meta', [user('x', getter({}, 'pinned', true))], 'meta.pinned'],
  ])('%s', (_, messages, field) => {
    const error = contextErrorThrownBy(() => validateMessages(messages));
    expect(error.code).toBe('invalid_message');
    expect(error.message).toContain(field);
    expect(error.message).toMatch(/getter or setter/);
  });

  it('a getter inherited from a class', () => {
    class Shifty {
      role = 'user';
      get content() {
        return 'x';
      }
    }
    expect(contextErrorThrownBy(() => validateMessages([new Shifty()])).message).toContain(
      '(content)',
    );
  });
});
