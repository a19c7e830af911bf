import { type ContextEvent, createInMemoryEventStore } from '@ctxkit/context-core';
import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { contextMiddleware, type LangChainFitResult } from '../src/index.js';

describe('contextMiddleware', () => {
  it('refuses manager options createContextManager refuses, when it is made', () => {
    const error = contextErrorThrownBy(() => contextMiddleware({}));
    expect(error.code).toBe('invalid_option');
    expect(error.message).toContain('maxTokens');
  });

  it('sends a ToolMessage without its call as a human message, reports it and leaves the state alone', async () => {
    const model = fakeModel().respond(new AIMessage('Done.'));
    const fits: LangChainFitResult[] = [];
    const agent = createAgent({
      model,
      tools: [],
      middleware: [contextMiddleware({ model: 'gpt-4o', onFit: (fit) => fits.push(fit) })],
    });
    const stray = new ToolMessage({ content: 'old output', tool_call_id: 'lost', id: 'stray' });
    const result = await agent.invoke({
      messages: [new HumanMessage({ content: 'Go on.', id: 'task' }), stray],
    });
    const sent = model.calls[0]?.messages as BaseMessage[];
    const repaired = sent.find((message) => message.id === 'stray');
    expect(repaired).toBeInstanceOf(HumanMessage);
    expect(repaired?.text).toContain('old output');
    expect(fits[0]?.repairs).toEqual([expect.objectContaining({ toolCallId: 'lost' })]);
    expect((result.messages as BaseMessage[])[1]).toBeInstanceOf(ToolMessage);
  });

  it('names the conversation by the run’s thread_id', async () => {
    const events = createInMemoryEventStore();
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage('Done.')),
      tools: [],
      middleware: [contextMiddleware({ model: 'gpt-4o', events })],
    });
    await agent.invoke(
      { messages: [new HumanMessage('Hello.')] },
      { configurable: { thread_id: 'thread-7' } },
    );
    const recorded: ContextEvent[] = await events.listEvents('thread-7');
    expect(recorded.map((event) => event.type)).toEqual(['context.compressed']);
  });
});
