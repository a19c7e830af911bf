import type { Message } from '@ctxkit/context-core';
import {
  arbitraryHistory,
  contextErrorThrownBy,
  deepFreeze,
  fuzzParameters,
} from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromGemini, type GeminiRequest, toGemini } from '../src/index.js';
import { arbitraryGemini } from './gemini-arbitraries.js';
import { assistant, callPart, resultPart, system, text, user } from './helpers.js';
import { normalizeForGemini } from './normalize-gemini.js';

describe('Gemini round trips', () => {
  const runs = fuzzParameters(100);

  it('ctxkit → wire → ctxkit keeps every part the format can express (normalize-gemini.ts)', () => {
    fc.assert(
      fc.property(arbitraryHistory(), (history) => {
        const messages = deepFreeze(history);
        expect(fromGemini(toGemini(messages))).toEqual(normalizeForGemini(messages));
      }),
      runs,
    );
  });

  it('wire → ctxkit → wire is the identity on requests in the written form', () => {
    fc.assert(
      fc.property(arbitraryGemini(), (request) => {
        expect(toGemini(fromGemini(deepFreeze(request)))).toEqual(request);
      }),
      runs,
    );
  });

  it('from → to → from is the identity', () => {
    fc.assert(
      fc.property(arbitraryGemini(), (request) => {
        const messages = fromGemini(request);
        expect(fromGemini(toGemini(messages))).toEqual(messages);
      }),
      runs,
    );
  });
});

describe('toGemini', () => {
  it('writes the system instruction, thoughts, calls and responses', () => {
    const messages: Message[] = [
      system('Be brief.'),
      user('Read a.'),
      assistant([
        { type: 'reasoning', text: 'one file' },
        { type: 'reasoning', text: 'signed elsewhere', signature: 'sig' },
        { type: 'text', text: 'Reading.' },
        { ...callPart('c1'), providerOptions: { google: { thoughtSignature: 'gsig' } } },
      ]),
      { role: 'tool', content: [{ ...resultPart('c1'), isError: true }] },
    ];
    expect(toGemini(messages)).toEqual<GeminiRequest>({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Read a.' }] },
        {
          role: 'model',
          parts: [
            { text: 'one file', thought: true },
            { text: 'Reading.' },
            {
              functionCall: { name: 'read_file', args: { path: 'c1' }, id: 'c1' },
              thoughtSignature: 'gsig',
            },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                name: 'read_file',
                response: { error: 'output of c1' },
                id: 'c1',
              },
            },
          ],
        },
      ],
    });
  });

  it('throws for a system message after the conversation started and for a tool input that is not an object', () => {
    expect(contextErrorThrownBy(() => toGemini([user('a'), system('b')])).details).toEqual({
      index: 1,
    });
    const error = contextErrorThrownBy(() =>
      toGemini([
        user('a'),
        assistant([text('x'), callPart('c1', 'f', 'not json')]),
        { role: 'tool', content: [resultPart('c1', 'o', 'f')] },
      ]),
    );
    expect(error.code).toBe('invalid_message');
    expect(error.details).toEqual({ index: 1, part: 1 });
  });
});

describe('fromGemini', () => {
  it('gives calls without ids a synthetic id and matches their responses by name, in order', () => {
    const request = {
      contents: [
        { role: 'user', parts: [{ text: 'Read a and b.' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'read_file', args: { path: 'a' } } },
            { functionCall: { name: 'read_file', args: { path: 'b' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'read_file', response: { output: 'A' } } },
            { functionResponse: { name: 'read_file', response: { output: 'B' } } },
          ],
        },
      ],
    };
    const synthetic = { google: { syntheticId: true } };
    expect(fromGemini(request)).toEqual<Message[]>([
      user('Read a and b.'),
      assistant([
        {
          type: 'tool-call',
          toolCallId: 'gemini_1_0',
          toolName: 'read_file',
          input: { path: 'a' },
          providerOptions: synthetic,
        },
        {
          type: 'tool-call',
          toolCallId: 'gemini_1_1',
          toolName: 'read_file',
          input: { path: 'b' },
          providerOptions: synthetic,
        },
      ]),
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'gemini_1_0',
            toolName: 'read_file',
            output: 'A',
            providerOptions: synthetic,
          },
          {
            type: 'tool-result',
            toolCallId: 'gemini_1_1',
            toolName: 'read_file',
            output: 'B',
            providerOptions: synthetic,
          },
        ],
      },
    ]);
    expect(toGemini(fromGemini(request))).toEqual(request);
  });

  it.each<[string, unknown, string, number | undefined, RegExp]>([
    [
      'contents that are not an array',
      { contents: {} },
      'invalid_wire',
      undefined,
      /contents: expected an array/,
    ],
    [
      'a part with two kinds of data',
      {
        contents: [
          {
            role: 'user',
            parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: 'AA==' } }],
          },
        ],
      },
      'invalid_wire',
      0,
      /contents\[0\]\.parts\[0\]: a part holds one of/,
    ],
    [
      'a call in a user turn',
      {
        contents: [
          { role: 'user', parts: [{ text: 'a' }] },
          { role: 'user', parts: [{ functionCall: { name: 'f', args: {} } }] },
        ],
      },
      'invalid_wire',
      1,
      /contents\[1\]\.parts\[0\]\.functionCall: a functionCall belongs in a model turn/,
    ],
    [
      'a response answering no call',
      { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }] },
      'invalid_wire',
      0,
      /contents\[0\]\.parts\[0\]\.functionResponse: answers no earlier unanswered functionCall named "f"/,
    ],
    [
      'a name that is empty',
      { contents: [{ role: 'model', parts: [{ functionCall: { name: '', args: {} } }] }] },
      'invalid_wire',
      0,
      /contents\[0\]\.parts\[0\]\.functionCall: name must be a non-empty string/,
    ],
    [
      'video metadata',
      {
        contents: [
          {
            role: 'user',
            parts: [
              {
                fileData: { fileUri: 'gs://b/v.mp4', mimeType: 'video/mp4' },
                videoMetadata: { startOffset: '1s' },
              },
            ],
          },
        ],
      },
      'unsupported_wire',
      0,
      /field "videoMetadata"/,
    ],
    [
      'an image in the system instruction',
      {
        systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] },
        contents: [],
      },
      'unsupported_wire',
      undefined,
      /systemInstruction\.parts\[0\]: a systemInstruction part that is not text/,
    ],
  ])('rejects %s, naming the content index and field', (_name, request, code, index, pattern) => {
    const error = contextErrorThrownBy(() => fromGemini(request));
    expect(error.code).toBe(code);
    expect(error.details.index).toBe(index);
    expect(error.message).toMatch(pattern);
  });
});
