import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contextLengthExceeded,
  isContextLengthExceeded,
  recognizeContextLengthError,
} from '../src/context-length-error.js';

describe('recognizeContextLengthError', () => {
  it('recognizes OpenAI context_length_exceeded with its figures', () => {
    const body = JSON.stringify({
      error: {
        message:
          "This model's maximum context length is 8192 tokens. However, your messages resulted in 9331 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    });
    expect(recognizeContextLengthError(body)).toMatchObject({ limit: 8192, requested: 9331 });
  });

  it('recognizes the OpenAI code without figures', () => {
    const info = recognizeContextLengthError({
      error: {
        message: 'Your input exceeds the context window of this model.',
        code: 'context_length_exceeded',
      },
    });
    expect(info).toEqual({ message: 'Your input exceeds the context window of this model.' });
  });

  it('recognizes Anthropic "prompt is too long"', () => {
    const info = recognizeContextLengthError({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'prompt is too long: 208310 tokens > 200000 maximum',
      },
    });
    expect(info).toMatchObject({ requested: 208310, limit: 200000 });
  });

  it('recognizes Moonshot "exceeded model token limit"', () => {
    const info = recognizeContextLengthError(
      '{"error":{"message":"Invalid request: Your request exceeded model token limit: 8192 (requested: 9331)","type":"invalid_request_error"}}',
    );
    expect(info).toMatchObject({ limit: 8192, requested: 9331 });
  });

  it('recognizes vLLM and llama.cpp server shapes', () => {
    expect(
      recognizeContextLengthError({
        object: 'error',
        message:
          "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
        type: 'BadRequestError',
        code: 400,
      }),
    ).toMatchObject({ limit: 4096, requested: 5000 });
    expect(
      recognizeContextLengthError({
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: 9000,
          n_ctx: 8192,
        },
      }),
    ).toMatchObject({ limit: 8192, requested: 9000 });
  });

  it('leaves other errors alone', () => {
    expect(
      recognizeContextLengthError({
        error: { message: 'Incorrect API key provided', code: 'invalid_api_key' },
      }),
    ).toBeUndefined();
    expect(recognizeContextLengthError('Internal Server Error')).toBeUndefined();
    expect(recognizeContextLengthError(null)).toBeUndefined();
  });

  it('never throws, whatever the body', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.string(), fc.anything()), (body) => {
        const info = recognizeContextLengthError(body);
        if (info !== undefined) expect(typeof info.message).toBe('string');
      }),
      fuzzParameters(100),
    );
  });

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
