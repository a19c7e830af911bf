import { ContextError } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PROMPT, loadConfig } from '../src/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(ContextError.isInstance(error, 'invalid_config')).toBe(true);
    return (error as ContextError).details.problems as string[];
  }
  return [];
}

describe('loadConfig', () => {
  it('reads the documented variables and applies their defaults', () => {
    const config = loadConfig({});
    expect(config.maxContextTokens).toBe(8000);
    expect(config.maxCharsPerMessage).toBe(4000);
    expect(config.reserveTokens).toBe(2000);
    expect(config.compressor).toBe('simple');
    expect(config.model).toBe('scripted');
    expect(config.autoReset).toBe(false);
    expect(config.autoResetThreshold).toBe(0.9);
    expect(config.systemPrompt).toBe(DEFAULT_SYSTEM_PROMPT);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('uses PostgreSQL only when CTXKIT_DATABASE_URL is a postgres URL, and hides its password in errors', () => {
    expect(loadConfig({})).toMatchObject({
      databaseUrl: undefined,
      databasePoolMax: 4,
      queuePoolMax: 2,
    });
    expect(
      loadConfig({
        CTXKIT_DATABASE_URL: 'postgresql://ops:secret@db.internal:5432/ctxkit',
        CTX_DB_POOL_MAX: '8',
        CTX_QUEUE_POOL_MAX: '3',
      }),
    ).toMatchObject({
      databaseUrl: 'postgresql://ops:secret@db.internal:5432/ctxkit',
      databasePoolMax: 8,
      queuePoolMax: 3,
    });
    expect(problemsOf({ CTXKIT_DATABASE_URL: 'mysql://ops:secret@db/ctxkit' })).toEqual([
      'CTXKIT_DATABASE_URL must be a postgres:// or postgresql:// connection string, got "mysql://ops:***@db/ctxkit".',
    ]);
    expect(
      problemsOf({ CTXKIT_DATABASE_URL: 'postgres://db/ctxkit', CTX_LEASE_MS: '500' }),
    ).toEqual([
      'CTX_LEASE_MS must be at least 1000 with CTXKIT_DATABASE_URL (pg-boss expires jobs in whole seconds), got 500.',
    ]);
  });

  it('offloads tool outputs unless CTX_OFFLOAD is off', () => {
    expect(loadConfig({}).offloadToolOutputs).toBe(true);
    expect(loadConfig({ CTX_OFFLOAD: 'off' }).offloadToolOutputs).toBe(false);
    expect(problemsOf({ CTX_OFFLOAD: 'sometimes' })).toEqual([
      'CTX_OFFLOAD must be on or off (1/0, true/false), got "sometimes".',
    ]);
  });

  it('reserves min(8192, window / 4) for the answer', () => {
    expect(loadConfig({ MAX_CONTEXT_TOKENS: '128000' }).reserveTokens).toBe(8192);
    expect(loadConfig({ MAX_CONTEXT_TOKENS: '16000' }).reserveTokens).toBe(4000);
  });

  it('takes the window of a real model from the model table, and never guesses one', () => {
    expect(loadConfig({ CTX_MODEL: 'gpt-4o-mini' })).toMatchObject({
      maxContextTokens: 128_000,
      reserveTokens: 8192,
    });
    // gpt-4-turbo answers with at most 4,096 tokens: no more is kept for the answer.
    expect(loadConfig({ CTX_MODEL: 'openai/gpt-4-turbo' }).reserveTokens).toBe(4096);
    expect(loadConfig({ CTX_MODEL: 'gpt-4o-mini', MAX_CONTEXT_TOKENS: '32000' })).toMatchObject({
      maxContextTokens: 32_000,
      reserveTokens: 8000,
    });
    expect(loadConfig({ CTX_MODEL: 'local', MAX_CONTEXT_TOKENS: '8192' }).maxContextTokens).toBe(
      8192,
    );
    expect(problemsOf({ CTX_MODEL: 'local' })).toEqual([
      'MAX_CONTEXT_TOKENS must be set: CTX_MODEL "local" is not in ctxkit\'s model table, so its context window is unknown.',
    ]);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      CTX_DB: '/tmp/x.sqlite',
      MAX_CONTEXT_TOKENS: '32000',
      MAX_CHARS_PER_MESSAGE: '2000',
      CTX_RESERVE_TOKENS: '1000',
      CTX_COMPRESSOR: 'three-layer',
      CTX_COUNTER: 'heuristic',
      CTX_MODEL: 'llama3.1',
      OPENAI_BASE_URL: 'http://localhost:11434/v1/',
      OPENAI_API_KEY: 'secret',
      CTX_AUTO_RESET: 'on',
      CTX_AUTO_RESET_THRESHOLD: '0.8',
      CTX_MAX_TOOL_ROUNDS: '3',
      CTX_LEASE_MS: '500',
    });
    expect(config).toMatchObject({
      databaseFile: '/tmp/x.sqlite',
      maxContextTokens: 32000,
      maxCharsPerMessage: 2000,
      reserveTokens: 1000,
      compressor: 'three-layer',
      counter: 'heuristic',
      model: 'llama3.1',
      openaiBaseUrl: 'http://localhost:11434/v1',
      openaiApiKey: 'secret',
      autoReset: true,
      autoResetThreshold: 0.8,
      maxToolRounds: 3,
      leaseMs: 500,
    });
  });

  it('names every bad variable with its value', () => {
    const problems = problemsOf({
      MAX_CONTEXT_TOKENS: '8k',
      CTX_COMPRESSOR: 'zip',
      OPENAI_BASE_URL: 'localhost:11434',
      CTX_AUTO_RESET: 'maybe',
      CTX_AUTO_RESET_THRESHOLD: '1.5',
    });
    expect(problems).toHaveLength(5);
    expect(problems[0]).toBe(
      'MAX_CONTEXT_TOKENS must be a whole number of at least 1000, got "8k".',
    );
    expect(problems[1]).toBe(
      'CTX_COMPRESSOR must be one of simple, guard, three-layer, summarize, got "zip".',
    );
    expect(problems.join('\n')).toContain(
      'OPENAI_BASE_URL must be an http or https URL, got "localhost:11434".',
    );
    expect(problems.join('\n')).toContain('CTX_AUTO_RESET must be on or off');
    expect(problems.join('\n')).toContain(
      'CTX_AUTO_RESET_THRESHOLD must be a number above 0 and at most 1, got "1.5".',
    );
  });

  it('rejects a reserve that leaves no room for the prompt', () => {
    expect(problemsOf({ MAX_CONTEXT_TOKENS: '4000', CTX_RESERVE_TOKENS: '4000' })).toEqual([
      'CTX_RESERVE_TOKENS must be below MAX_CONTEXT_TOKENS (4000), got 4000.',
    ]);
  });

  it('either returns a valid config or throws invalid_config, for any environment', () => {
    const names = [
      'MAX_CONTEXT_TOKENS',
      'MAX_CHARS_PER_MESSAGE',
      'CTX_RESERVE_TOKENS',
      'CTX_COMPRESSOR',
      'CTX_AUTO_RESET',
      'OPENAI_BASE_URL',
      'CTX_AUTO_RESET_THRESHOLD',
    ];
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...names), fc.oneof(fc.string(), fc.nat().map(String))),
        (env) => {
          try {
            const config = loadConfig(env);
            expect(config.reserveTokens).toBeLessThan(config.maxContextTokens);
            expect(Number.isInteger(config.maxContextTokens)).toBe(true);
          } catch (error) {
            expect(ContextError.isInstance(error, 'invalid_config')).toBe(true);
          }
        },
      ),
      fuzzParameters(100),
    );
  });
});
