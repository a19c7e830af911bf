import { describe, expect, it } from 'vitest';
import { assertValidBudget, budgetLimit, ContextError, deriveHistoryBudget } from '../src/index.js';

describe('budgetLimit', () => {
  it('is maxTokens less the reserve', () => {
    expect(budgetLimit({ maxTokens: 1000 })).toBe(1000);
    expect(budgetLimit({ maxTokens: 1000, reserveTokens: 200 })).toBe(800);
  });

  it.each([
    [{ maxTokens: -1 }, /maxTokens must be a non-negative whole number, got -1/],
    [{ maxTokens: Number.NaN }, /maxTokens .* got NaN/],
    [{ maxTokens: Number.POSITIVE_INFINITY }, /got Infinity/],
    [{ maxTokens: 10.5 }, /got 10.5/],
    [{ maxTokens: 100, reserveTokens: -5 }, /reserveTokens must be/],
    [{ maxTokens: 100, reserveTokens: 101 }, /reserveTokens \(101\) exceeds maxTokens \(100\)/],
    [{ maxTokens: 100, maxCharsPerMessage: -1 }, /maxCharsPerMessage must be/],
  ])('rejects %o', (budget, pattern) => {
    expect(() => budgetLimit(budget)).toThrow(pattern);
    try {
      assertValidBudget(budget);
    } catch (error) {
      expect(ContextError.isInstance(error, 'invalid_budget')).toBe(true);
    }
  });
});

describe('deriveHistoryBudget', () => {
  it('is the window less system, input and reserve', () => {
    expect(
      deriveHistoryBudget({
        contextWindow: 8000,
        systemTokens: 500,
        inputTokens: 100,
        reserveTokens: 2000,
      }),
    ).toEqual({
      maxTokens: 5400,
    });
    expect(deriveHistoryBudget({ contextWindow: 8000, maxCharsPerMessage: 4000 })).toEqual({
      maxTokens: 8000,
      maxCharsPerMessage: 4000,
    });
  });

  it('rejects negative, NaN and infinite numbers', () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => deriveHistoryBudget({ contextWindow: bad })).toThrow(/contextWindow/);
      expect(() => deriveHistoryBudget({ contextWindow: 100, systemTokens: bad })).toThrow(
        /systemTokens/,
      );
    }
  });

  it('says so when system, input and reserve alone overflow the window', () => {
    let caught: unknown;
    try {
      deriveHistoryBudget({
        contextWindow: 1000,
        systemTokens: 600,
        inputTokens: 300,
        reserveTokens: 200,
      });
    } catch (error) {
      caught = error;
    }
    expect(ContextError.isInstance(caught, 'budget_exceeded')).toBe(true);
    expect((caught as Error).message).toMatch(
      /need 1100 tokens, more than the context window of 1000/,
    );
  });
});
