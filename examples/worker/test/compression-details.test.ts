import { copyData, type Message } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import { compressionDetails } from '../src/compression-details.js';

const counter = createHeuristicCounter();

describe('compressionDetails', () => {
  const rows = Array.from({ length: 40 }, (_, index) => ({ id: index, status: 'running' }));
  const before: Message[] = [
    {
      id: 'u1',
      role: 'user',
      content: [
        { type: 'text', text: 'What is on this dashboard?' },
        { type: 'image', image: new Uint8Array(4096).fill(7), mediaType: 'image/png' },
      ],
    },
    {
      id: 'a1',
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'list_containers', input: {} }],
    },
    {
      id: 't1',
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'list_containers',
          output: { type: 'json', value: rows },
        },
      ],
    },
    { id: 'u2', role: 'user', content: 'And now?' },
  ];

  it('measures a tool output of any shape by its text, and a copy with the same content as unchanged', () => {
    const cut = '[{"id":0,"status":"running"} … cut]';
    const after: Message[] = [
      copyData(before[0] as Message),
      before[1] as Message,
      {
        ...(before[2] as Message),
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'list_containers', output: cut },
        ],
      },
    ];
    expect(compressionDetails(before, after, counter)).toEqual({
      droppedMessages: 1,
      droppedTokens: expect.any(Number),
      cutToolResults: [
        {
          toolCallId: 'c1',
          toolName: 'list_containers',
          fromChars: JSON.stringify(rows).length,
          toChars: cut.length,
        },
      ],
      cutMessages: 0,
    });
  });

  it('counts a message whose image became a text naming it as changed', () => {
    const [question] = before as [Message];
    const masked: Message = {
      ...question,
      content: [
        { type: 'text', text: 'What is on this dashboard?' },
        { type: 'text', text: '[image image/png, 4.0 KB]' },
      ],
    };
    expect(compressionDetails([question], [masked], counter).cutMessages).toBe(1);
  });
});
