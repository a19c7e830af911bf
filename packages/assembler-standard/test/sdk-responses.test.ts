import type { Message } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { fromAnthropic, fromOpenAIChat } from '../src/index.js';
import { readFixture } from './helpers.js';

/**
 * Responses recorded in the shape the official SDKs return them (written from the providers'
 * documented examples): the readers take the model's turn as it comes, nulls and empty arrays
 * included, with no cleaning by the caller.
 */
describe('responses as the official SDKs return them', () => {
  const forecastCall = {
    type: 'tool-call',
    toolCallId: 'call_Qm3v8ZtN1xKp',
    toolName: 'get_forecast',
    input: { city: 'Lisbon', days: 3 },
  } as const;

  it('fromOpenAIChat reads choices[0].message with refusal: null, annotations: [] and more nulls', () => {
    const completion = readFixture('sdk-openai-chat-completion.json') as {
      choices: { message: unknown }[];
    };
    const message = (completion.choices[0] as { message: unknown }).message;
    expect(fromOpenAIChat([message])).toEqual<Message[]>([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'I will look up the forecast for Lisbon first.' },
          forecastCall,
        ],
      },
    ]);
  });

  it('fromOpenAIChat still refuses a refusal or annotations that hold something', () => {
    const refusal = { role: 'assistant', content: null, refusal: 'I cannot help with that.' };
    expect(() => fromOpenAIChat([refusal])).toThrow(/refusal/);
    const cited = {
      role: 'assistant',
      content: 'See [1].',
      annotations: [{ type: 'url_citation' }],
    };
    expect(() => fromOpenAIChat([cited])).toThrow(/annotations/);
  });

  it('fromAnthropic reads a Messages response content with citations: null', () => {
    const response = readFixture('sdk-anthropic-message.json') as { content: unknown };
    expect(fromAnthropic({ messages: [{ role: 'assistant', content: response.content }] })).toEqual<
      Message[]
    >([
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'The user wants the forecast; I need the forecast tool for Lisbon.',
            signature:
              'EqQBCkYIBRgCKkBq3mZ8vT1sN0cR5wXyLk2pJ7hG4fD9aE6bC3uI8oQ1tS5vW0xY2zA4bB6cD8eF0gH2iJ4kL6mN8oP0qR',
          },
          { type: 'text', text: 'I will look up the forecast for Lisbon first.' },
          { ...forecastCall, toolCallId: 'toolu_01Db7XkQm2VnTp8sLc4Rw9Ey' },
        ],
      },
    ]);
  });

  it('fromAnthropic still refuses citations that hold something', () => {
    const request = {
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Cited.', citations: [{ type: 'char_location' }] }],
        },
      ],
    };
    expect(() => fromAnthropic(request)).toThrow(/citations/);
  });
});
