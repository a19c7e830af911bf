import { describe, expect, it } from 'vitest';
import { assertStoredPrompt, InvalidMessageError, type StoredPrompt } from '../src/index.js';

const valid: StoredPrompt = {
  inputIds: ['1', '2', '3'],
  messages: [
    { role: 'user', content: 'a summary', id: 's' },
    { role: 'user', content: 'kept', id: '2' },
    { role: 'assistant', content: 'cut…', id: '3' },
  ],
  origins: [
    null,
    { inputIndex: 1, derivation: 'kept' },
    { inputIndex: 2, derivation: 'truncated' },
  ],
  tokens: 42,
};

describe('assertStoredPrompt', () => {
  it('accepts a well-formed stored prompt', () => {
    expect(() => assertStoredPrompt(valid)).not.toThrow();
  });

  it.each([
    ['not an object', null, 'expected an object'],
    ['an id that is not a string', { ...valid, inputIds: ['1', 2, '3'] }, 'inputIds[1]'],
    ['a malformed message', { ...valid, messages: [{ role: 'robot', content: 'x' }] }, 'messages'],
    ['origins shorter than messages', { ...valid, origins: [null] }, 'origins must be an array'],
    [
      'an input index past the input',
      { ...valid, origins: [null, null, { inputIndex: 3, derivation: 'kept' }] },
      'origins[2].inputIndex',
    ],
    [
      'an unknown derivation',
      { ...valid, origins: [null, null, { inputIndex: 2, derivation: 'summarized' }] },
      'origins[2].derivation',
    ],
    ['negative tokens', { ...valid, tokens: -1 }, 'tokens'],
  ])('refuses %s with invalid_stored_prompt naming the field', (_, prompt, field) => {
    let thrown: unknown;
    try {
      assertStoredPrompt(prompt, 'test');
    } catch (error) {
      thrown = error;
    }
    expect(InvalidMessageError.isInstance(thrown)).toBe(true);
    expect((thrown as InvalidMessageError).code).toBe('invalid_stored_prompt');
    expect((thrown as Error).message).toContain(field);
  });
});
