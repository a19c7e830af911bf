import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { createContextManager } from '@ctxkit/context-manager';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  callToolDeclarations,
  contextMiddleware,
  fromModelMessages,
  fromPrompt,
  type PromptRepair,
  toModelMessages,
  toPrompt,
} from '../src/index.js';

async function transform(
  middleware: ReturnType<typeof contextMiddleware>,
  prompt: LanguageModelV4Prompt,
): Promise<LanguageModelV4Prompt> {
  const params = await middleware.transformParams?.({
    type: 'generate',
    params: { prompt },
    model: undefined as never,
  });
  return params?.prompt ?? [];
}

const unknownPart = {
  type: 'hologram',
  frames: new Uint8Array([1, 2, 3]),
  at: new URL('https://example.com/h'),
};

describe('parts ctxkit has no type for', () => {
  it('travel as an opaque part and come back as the same object', () => {
    const prompt = [
      { role: 'user', content: [{ type: 'text', text: 'Show me.' }] },
      { role: 'assistant', content: [unknownPart, { type: 'text', text: 'Here.' }] },
    ] as unknown as LanguageModelV4Prompt;
    const { messages, repairs } = fromPrompt(prompt);
    expect(repairs).toEqual([]);
    const [opaque] = (messages[1]?.content ?? []) as { type: string; value: unknown }[];
    expect(opaque).toEqual({
      type: 'opaque',
      value: { type: 'hologram', frames: 'AQID', at: 'https://example.com/h' },
    });
    const back = toPrompt(messages);
    expect(back[1]?.content[0]).toBe(unknownPart);
  });

  it('come back unchanged from a fit that drops older messages', async () => {
    const middleware = contextMiddleware({ maxTokens: 400, onRepair: () => {} });
    const filler = 'word '.repeat(2_000);
    const prompt = [
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      { role: 'assistant', content: [{ type: 'text', text: filler }] },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
      { role: 'assistant', content: [unknownPart] },
      { role: 'user', content: [{ type: 'text', text: 'and now?' }] },
    ] as unknown as LanguageModelV4Prompt;
    const fitted = await transform(middleware, prompt);
    expect(fitted).not.toBe(prompt);
    expect(fitted.map((message) => message.content)).toEqual([
      [{ type: 'text', text: 'first' }],
      [{ type: 'text', text: 'again' }],
      [unknownPart],
      [{ type: 'text', text: 'and now?' }],
    ]);
    expect(fitted[2]?.content[0]).toBe(unknownPart);
  });
});

describe('a tool result without its call', () => {
  const orphan = {
    type: 'tool-result' as const,
    toolCallId: 'gone-1',
    toolName: 'read',
    output: { type: 'text' as const, value: 'file text' },
  };
  const prompt: LanguageModelV4Prompt = [
    { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
    { role: 'tool', content: [orphan] },
    { role: 'user', content: [{ type: 'text', text: 'Well?' }] },
  ];

  it('is reported and sent as it came', async () => {
    const repairs: PromptRepair[] = [];
    const middleware = contextMiddleware({
      maxTokens: 10_000,
      onRepair: (repair) => repairs.push(repair),
    });
    const fitted = await transform(middleware, prompt);
    expect(fitted).toStrictEqual(prompt);
    expect(repairs).toEqual([
      expect.objectContaining({
        kind: 'orphan-tool-result',
        index: 1,
        part: 0,
        toolCallId: 'gone-1',
      }),
    ]);
    expect(repairs[0]?.message).toContain('gone-1');
  });

  it('is reported once across the steps of a loop', async () => {
    const repairs: PromptRepair[] = [];
    const middleware = contextMiddleware({
      maxTokens: 10_000,
      onRepair: (repair) => repairs.push(repair),
    });
    await transform(middleware, prompt);
    await transform(middleware, [
      ...prompt,
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
    expect(repairs).toHaveLength(1);
  });

  it('warns on the console when no handler is given', async () => {
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      await transform(contextMiddleware({ maxTokens: 10_000 }), prompt);
    } finally {
      console.warn = warn;
    }
    expect(warnings).toEqual([expect.stringContaining('gone-1')]);
  });

  it('is reported when it answers a call already answered', () => {
    const call = { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'read', input: {} };
    const result = { ...orphan, toolCallId: 'c1' };
    const { repairs } = fromPrompt([
      { role: 'assistant', content: [call] },
      { role: 'tool', content: [result] },
      { role: 'tool', content: [result] },
    ]);
    expect(repairs.map((repair) => [repair.index, repair.message])).toEqual([
      [2, expect.stringContaining('already answered')],
    ]);
  });

  it('is reported when its call has an input that is not JSON data', () => {
    const prompt: LanguageModelV4Prompt = [
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c2', toolName: 'at', input: { when: new Date(0) } },
        ],
      },
      { role: 'tool', content: [{ ...orphan, toolCallId: 'c2' }] },
    ];
    const { messages, repairs } = fromPrompt(prompt);
    expect(repairs).toHaveLength(1);
    expect(toPrompt(messages)).toStrictEqual(prompt);
  });
});

describe('ModelMessage conversion', () => {
  it('gives back string contents, images, plain file data and approvals as they were', () => {
    const messages: ModelMessage[] = [
      {
        role: 'system',
        content: 'Be brief.',
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is on it?' },
          { type: 'image', image: new URL('https://example.com/a.png'), mediaType: 'image/png' },
          {
            type: 'file',
            data: new Uint8Array([37, 80, 68, 70]),
            mediaType: 'application/pdf',
            filename: 'a.pdf',
          },
          { type: 'file', data: { type: 'data', data: 'JVBERg==' }, mediaType: 'application/pdf' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 't1', toolName: 'delete', input: { path: '/tmp/x' } },
          { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 't1' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-approval-response', approvalId: 'a1', approved: false, reason: 'no' },
          {
            type: 'tool-result',
            toolCallId: 't1',
            toolName: 'delete',
            output: {
              type: 'content',
              value: [{ type: 'image-url', url: 'https://example.com/b.png' }],
            },
          },
        ],
      },
      { role: 'assistant', content: 'I did not delete it.' },
    ];
    const { messages: converted, repairs } = fromModelMessages(messages);
    expect(repairs).toEqual([]);
    expect(converted[4]?.content).toBe('I did not delete it.');
    expect(toModelMessages(converted)).toStrictEqual(messages);
  });
});

describe('tools of a call', () => {
  it('prices a provider tool as its JSON', () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const declarations = callToolDeclarations([
      {
        type: 'provider',
        id: 'openai.web_search',
        name: 'web_search',
        args: { searchContextSize: 'high' },
      },
    ]);
    expect(declarations).toEqual([
      { name: 'web_search', parameters: { id: 'openai.web_search', searchContextSize: 'high' } },
    ]);
    expect(manager.countTools(declarations)).toBeGreaterThan(0);
  });
});

describe('keepFirstUserMessage', () => {
  const prompt: LanguageModelV4Prompt = [
    { role: 'user', content: [{ type: 'text', text: 'word '.repeat(2_000) }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Understood.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
  ];

  it('keeps the task, so a task over the budget fails the fit with BudgetError', async () => {
    await expect(transform(contextMiddleware({ maxTokens: 400 }), prompt)).rejects.toMatchObject({
      code: 'budget_exceeded',
    });
  });

  it('set to false, lets the compressor drop the task like any other message', async () => {
    const fitted = await transform(
      contextMiddleware({ maxTokens: 400, keepFirstUserMessage: false }),
      prompt,
    );
    expect(fitted).toEqual(prompt.slice(1));
  });
});
