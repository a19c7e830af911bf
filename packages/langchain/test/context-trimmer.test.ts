import { createContextManager } from '@ctxkit/context-manager';
import {
  AIMessage,
  type BaseMessage,
  ChatMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { fakeModel } from '@langchain/core/testing';
import { tool } from 'langchain';
import { describe, expect, it } from 'vitest';
import { contextTrimmer, type LangChainFitResult, toolDeclarations } from '../src/index.js';

/** A chat of `turns` question-and-answer pairs of about `chars` characters each. */
function chat(turns: number, chars: number): BaseMessage[] {
  const messages: BaseMessage[] = [new SystemMessage('You answer questions about the logs.')];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push(new HumanMessage(`Question ${turn}: ${'why? '.repeat(chars / 5)}`));
    messages.push(new AIMessage(`Answer ${turn}: ${'because. '.repeat(chars / 9)}`));
  }
  messages.push(new HumanMessage('And now?'));
  return messages;
}

const search = tool(async () => 'found', {
  name: 'search_logs',
  description: 'Searches the logs for a pattern and returns the matching lines.',
  schema: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] },
});

describe('contextTrimmer', () => {
  it('stands where trimMessages stands: trimmer.pipe(model) sends the model a fitted list', async () => {
    const model = fakeModel().respond(new AIMessage('Now it works.'));
    const fits: LangChainFitResult[] = [];
    const trimmer = contextTrimmer({
      model: 'gpt-4o',
      maxTokens: 2_000,
      onFit: (fit) => fits.push(fit),
    });
    const input = chat(30, 400);

    const answer = await trimmer.pipe(model).invoke(input);

    expect(answer.text).toBe('Now it works.');
    const sent = model.calls[0]?.messages as BaseMessage[];
    expect(sent.length).toBeLessThan(input.length);
    expect(sent[0]).toBe(input[0]);
    expect(sent[1]).toBe(input[1]);
    expect(sent.at(-1)).toBe(input.at(-1));
    expect(fits[0]?.report.promptTokens).toBeLessThanOrEqual(2_000);
  });

  it('sends a message of a type it has no role for as a user message, and reports it', async () => {
    const fits: LangChainFitResult[] = [];
    const critic = new ChatMessage({ content: 'The plan skips the tests.', role: 'critic' });
    const input = [...chat(2, 50), critic];
    const output = await contextTrimmer({
      model: 'gpt-4o',
      onFit: (fit) => fits.push(fit),
    }).invoke(input);
    expect(output).toHaveLength(input.length);
    expect(output.at(-1)).toBeInstanceOf(HumanMessage);
    expect(output.at(-1)?.text).toContain('The plan skips the tests.');
    expect(fits[0]?.repairs).toMatchObject([
      { index: input.length - 1, action: 'message-to-user', messageType: 'generic' },
    ]);
  });

  it('returns the very messages when they fit', async () => {
    const input = chat(2, 50);
    const output = await contextTrimmer({ model: 'gpt-4o' }).invoke(input);
    expect(output).toHaveLength(input.length);
    for (const [index, message] of output.entries()) expect(message).toBe(input[index]);
  });

  it('counts the tools the model has bound, as the manager counts them', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 2_000 });
    const fits: LangChainFitResult[] = [];
    const trimmer = contextTrimmer({ manager, tools: [search], onFit: (fit) => fits.push(fit) });
    await trimmer.invoke(chat(30, 400));
    expect(fits[0]?.report.toolTokens).toBe(manager.countTools(toolDeclarations([search])));
    expect(fits[0]?.report.toolTokens).toBeGreaterThan(20);
    expect(fits[0]?.report.promptTokens).toBeLessThanOrEqual(2_000);
  });

  it('takes a prompt value, as from a ChatPromptTemplate before it', async () => {
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', 'You answer questions about the logs.'],
      new MessagesPlaceholder('history'),
    ]);
    const chain = prompt.pipe(contextTrimmer({ model: 'gpt-4o', maxTokens: 1_000 }));
    const output = await chain.invoke({ history: chat(30, 400).slice(1) });
    expect(output[0]?.type).toBe('system');
    expect(output.at(-1)?.text).toBe('And now?');
  });

  it('keeps tool calls with their results', async () => {
    const input: BaseMessage[] = [new HumanMessage('Search the logs.')];
    for (let step = 0; step < 20; step += 1) {
      input.push(
        new AIMessage({
          content: '',
          tool_calls: [{ id: `c${step}`, name: 'search_logs', args: { pattern: 'x' } }],
        }),
        new ToolMessage({ content: `line ${step}\n`.repeat(200), tool_call_id: `c${step}` }),
      );
    }
    const output = await contextTrimmer({ model: 'gpt-4o', maxTokens: 3_000 }).invoke(input);
    expect(output.length).toBeLessThan(input.length);
    expect(output[0]).toBe(input[0]);
    const calls = new Set<string>();
    for (const message of output) {
      for (const call of (message as AIMessage).tool_calls ?? []) calls.add(call.id as string);
      if (message.type === 'tool')
        expect(calls.has((message as ToolMessage).tool_call_id)).toBe(true);
    }
  });

  it('stops when the run is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      contextTrimmer({ model: 'gpt-4o' }).invoke(chat(2, 50), { signal: controller.signal }),
    ).rejects.toThrow();
  });

  it('refuses bad manager options when it is made', () => {
    expect(() => contextTrimmer({ maxTokens: -1 })).toThrow(/maxTokens/);
  });
});
