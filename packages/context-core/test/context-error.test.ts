import { describe, expect, it } from 'vitest';
import { ContextError } from '../src/index.js';

describe('ContextError', () => {
  it('carries code, source, details and cause, and prefixes the package', () => {
    const cause = new Error('disk full');
    const error = new ContextError({
      code: 'storage_failed',
      source: 'provider-sqlite',
      message: 'Append failed.',
      details: { rows: 3 },
      cause,
    });
    expect(error.message).toBe('[ctxkit/provider-sqlite] Append failed.');
    expect(error).toMatchObject({
      code: 'storage_failed',
      source: 'provider-sqlite',
      details: { rows: 3 },
      cause,
      name: 'ContextError',
    });
    expect(error).toBeInstanceOf(Error);
  });

  it('is recognized across copies of the package by its marker, with an optional code', () => {
    const foreign = Object.assign(new Error('x'), {
      code: 'invalid_message',
      [Symbol.for('ctxkit.context-error')]: true,
    });
    expect(ContextError.isInstance(foreign)).toBe(true);
    expect(ContextError.isInstance(foreign, 'invalid_message')).toBe(true);
    expect(ContextError.isInstance(foreign, 'aborted')).toBe(false);
    expect(ContextError.isInstance(new Error('plain'))).toBe(false);
    expect(ContextError.isInstance(null)).toBe(false);
    expect(ContextError.isInstance(new ContextError({ code: 'aborted', message: 'stop' }))).toBe(
      true,
    );
  });
});
