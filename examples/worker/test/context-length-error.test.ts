import { describe, expect, it } from 'vitest';
import { contextLengthExceeded, isContextLengthExceeded } from '../src/context-length-error.js';

describe('contextLengthExceeded', () => {
  it('builds a ContextError the worker recognizes', () => {
    const error = contextLengthExceeded(
      { message: 'too long', limit: 10 },
      { model: 'm', status: 400 },
    );
    expect(isContextLengthExceeded(error)).toBe(true);
    expect(error.message).toContain('Model m rejected the prompt');
    expect(error.details).toMatchObject({ model: 'm', status: 400, limit: 10 });
    expect(isContextLengthExceeded(new Error('too long'))).toBe(false);
  });
});
