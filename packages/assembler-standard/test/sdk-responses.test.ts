import type { Message } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import {
  fromAnthropic,
  fromGemini,
  fromOpenAIChat,
  fromOpenAIResponses,
  toGemini,
  toOpenAIResponses,
} from '../src/index.js';
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

  it('fromOpenAIResponses reads a response output with encrypted reasoning, annotations: [] and logprobs: []', () => {
    const response = readFixture('sdk-openai-response.json') as { output: unknown[] };
    const messages = fromOpenAIResponses(response.output);
    expect(messages).toEqual<Message[]>([
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: '**Checking the forecast**\n\nThe user asked about Lisbon; the forecast tool answers that.',
            itemId: 'rs_0a7c2e9f41b3d5680069a1b2c4a1f08196b7e2d3c4f5a6b7',
            encryptedContent:
              'gAAAAABpobLE7xQk2mZ9vT1sN0cR5wXyLk2pJ7hG4fD9aE6bC3uI8oQ1tS5vW0xY2zA4bB6cD8eF0gH2iJ4kL6mN8oP0qR==',
          },
          {
            type: 'text',
            text: 'I will look up the forecast for Lisbon first.',
            providerOptions: {
              openai: { itemId: 'msg_0a7c2e9f41b3d5680069a1b2c5b2e18196a8f3e4d5c6b7a8' },
            },
          },
          {
            ...forecastCall,
            providerOptions: {
              openai: { itemId: 'fc_0a7c2e9f41b3d5680069a1b2c6c3d28196b9a4f5e6d7c8b9' },
            },
          },
        ],
      },
    ]);
    // Written back, the items are the output less what carries nothing (status, empty arrays).
    const [reasoning, message, call] = response.output as Record<string, unknown>[];
    const { status: _messageStatus, ...messageItem } = message as Record<string, unknown>;
    const { status: _callStatus, ...callItem } = call as Record<string, unknown>;
    expect(toOpenAIResponses(messages)).toEqual([
      reasoning,
      {
        ...messageItem,
        content: [{ type: 'output_text', text: 'I will look up the forecast for Lisbon first.' }],
      },
      callItem,
    ]);
  });

  it('fromOpenAIResponses reads encrypted_content: null as no encrypted content', () => {
    const [part] = (fromOpenAIResponses([
      {
        id: 'rs_1',
        type: 'reasoning',
        summary: [],
        encrypted_content: null,
        content: null,
        status: null,
      },
    ])[0]?.content ?? []) as unknown[];
    expect(part).toEqual({ type: 'reasoning', text: '', itemId: 'rs_1' });
  });

  it('fromGemini reads candidates[0].content with a thought and a signed function call', () => {
    const response = readFixture('sdk-gemini-response.json') as {
      candidates: { content: unknown }[];
    };
    const content = (response.candidates[0] as { content: unknown }).content;
    const messages = fromGemini({ contents: [content] });
    expect(messages).toEqual<Message[]>([
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: '**Checking the forecast**\n\nThe user asked about Lisbon; the forecast tool answers that.',
          },
          { type: 'text', text: 'I will look up the forecast for Lisbon first.' },
          {
            ...forecastCall,
            toolCallId: 'gemini_0_2',
            providerOptions: {
              google: {
                thoughtSignature: 'CiQB0e2Kb7xQk2mZ9vT1sN0cR5wXyLk2pJ7hG4fD9aE6bC3uI8oQ=',
                syntheticId: true,
              },
            },
          },
        ],
      },
    ]);
    expect(toGemini(messages).contents).toEqual([content]);
  });

  it('fromGemini reads fields set to null as absent', () => {
    const content = {
      role: 'model',
      parts: [
        {
          text: 'Hi.',
          thought: null,
          thoughtSignature: null,
          inlineData: null,
          videoMetadata: null,
        },
      ],
    };
    expect(fromGemini({ systemInstruction: null, contents: [content] })).toEqual([
      { role: 'assistant', content: 'Hi.' },
    ]);
  });
});
