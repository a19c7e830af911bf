import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AbortedError,
  BudgetError,
  ContextError,
  ContextLengthError,
  InvalidMessageError,
  InvalidOptionError,
  isContextError,
  StorageError,
  UnknownModelError,
  validateMessages,
} from '../src/index.js';
import { contextErrorThrownBy } from '../src/testing/index.js';

describe('error families', () => {
  it('each family is a ContextError with its own name, and recognizes only its codes', () => {
    const families = [
      [new InvalidMessageError({ code: 'invalid_message', message: 'm' }), InvalidMessageError],
      [new InvalidOptionError({ code: 'invalid_query', message: 'm' }), InvalidOptionError],
      [new BudgetError({ code: 'budget_exceeded', message: 'm' }), BudgetError],
      [new StorageError({ code: 'unknown_ref', message: 'm' }), StorageError],
      [new ContextLengthError({ message: 'm' }), ContextLengthError],
      [new AbortedError({ message: 'm' }), AbortedError],
      [new UnknownModelError({ model: 'x' }), UnknownModelError],
    ] as const;
    for (const [error, family] of families) {
      expect(error).toBeInstanceOf(ContextError);
      expect(error.name).toBe(family.name);
      expect(ContextError.isInstance(error)).toBe(true);
      for (const [, other] of families) expect(other.isInstance(error)).toBe(other === family);
    }
    expect(new ContextLengthError({ message: 'm' }).code).toBe('context_length_exceeded');
    expect(new AbortedError({ message: 'm' }).code).toBe('aborted');
  });

  it('recognizes an error of another copy of the package by its marker and code', () => {
    const copy = Object.assign(new Error('[ctxkit/other] x'), {
      [Symbol.for('ctxkit.context-error')]: true,
      code: 'budget_exceeded',
      details: {},
    });
    expect(BudgetError.isInstance(copy)).toBe(true);
    expect(isContextError(copy, 'budget_exceeded')).toBe(true);
    expect(isContextError(copy, 'invalid_budget')).toBe(false);
    expect(isContextError(new Error('plain'))).toBe(false);
  });

  it('is what ctxkit throws: validation', () => {
    expect(
      InvalidMessageError.isInstance(contextErrorThrownBy(() => validateMessages([{ role: 'x' }]))),
    ).toBe(true);
  });

  it('narrows on the code to the family', () => {
    const error: unknown = new BudgetError({ code: 'budget_exceeded', message: 'm' });
    if (isContextError(error, 'budget_exceeded')) {
      expectTypeOf(error).toMatchTypeOf<BudgetError>();
      expectTypeOf(error.code).toEqualTypeOf<'budget_exceeded'>();
    }
    if (isContextError(error, 'unknown_ref')) expectTypeOf(error).toMatchTypeOf<StorageError>();
    if (isContextError(error, 'unknown_model')) {
      expectTypeOf(error).toMatchTypeOf<UnknownModelError>();
      expectTypeOf(error.model).toBeString();
    }
    if (isContextError(error, 'some_other_code')) {
      expectTypeOf(error).toMatchTypeOf<ContextError<'some_other_code'>>();
    }
  });
});
