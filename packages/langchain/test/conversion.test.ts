import { contextErrorRejectedBy, contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import {
  AIMessage,
  type BaseMessage,
  ChatMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { fitLangChainMessages, toCtxkitMessages, toLangChainMessages } from '../src/index.js';

/** A class instance: not JSON data, as a tool's artifact may be. */
class Rows {
  constructor(readonly rows: number[]) {}
}

function toolTurn(id: string, output: string, extra: Partial<ToolMessage> = {}): BaseMessage[] {
  return [
    new AIMessage({ content: '', tool_calls: [{ id, name: 'query', args: { sql: 'select 1' } }] }),
    new ToolMessage({ content: output, tool_call_id: id, ...extra }),
  ];
}

describe('toCtxkitMessages', () => {
  it('maps content blocks to parts and what ctxkit has no part for to opaque parts', () => {
    const { messages } = toCtxkitMessages([
      new HumanMessage({
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image', url: 'https://example.com/cat.png', mimeType: 'image/png' },
          { type: 'file', data: 'JVBERi0=', mimeType: 'application/pdf' },
        ],
      }),
      new AIMessage({
        content: [
          { type: 'thinking', thinking: 'A cat.', signature: 'sig' },
          { type: 'server_tool_call', id: 'ws_1', name: 'web_search', args: {} },
          { type: 'text', text: 'A cat.' },
        ],
      }),
    ]);
    expect(
      (messages[0]?.content as { type: string }[] | undefined)?.map((part) => part.type),
    ).toEqual(['text', 'image', 'file']);
    expect(messages[1]?.content).toEqual([
      expect.objectContaining({ type: 'reasoning', text: 'A cat.', signature: 'sig' }),
      {
        type: 'opaque',
        value: { type: 'server_tool_call', id: 'ws_1', name: 'web_search', args: {} },
      },
      { type: 'text', text: 'A cat.' },
    ]);
  });

  it('reads a file block’s media type from mime_type (legacy blocks) or its data URL, and writes it back there', () => {
    const blocks = [
      { type: 'file', source_type: 'base64', data: 'iVBORw0K', mime_type: 'image/png' },
      { type: 'file', url: 'data:application/pdf;base64,JVBERi0=' },
    ];
    const input = [new HumanMessage({ content: blocks })];
    const { messages } = toCtxkitMessages(input);
    expect(messages[0]?.content).toEqual([
      expect.objectContaining({ type: 'file', data: 'iVBORw0K', mediaType: 'image/png' }),
      expect.objectContaining({
        type: 'file',
        data: 'data:application/pdf;base64,JVBERi0=',
        mediaType: 'application/pdf',
      }),
    ]);
    expect(toLangChainMessages(structuredClone(messages))[0]?.content).toEqual(blocks);
  });

  it('maps a ToolMessage to a tool result with its status as isError', () => {
    const { messages } = toCtxkitMessages(toolTurn('c1', 'no such table', { status: 'error' }));
    expect(messages[1]?.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'query',
        output: 'no such table',
        isError: true,
      },
    ]);
  });

  it('repairs a ToolMessage without its call into a user message and reports it', () => {
    const orphan = new ToolMessage({ content: '42 rows', tool_call_id: 'gone', name: 'query' });
    const { messages, repairs } = toCtxkitMessages([new HumanMessage('Count rows.'), orphan]);
    expect(repairs).toEqual([
      expect.objectContaining({ index: 1, action: 'tool-result-to-user', toolCallId: 'gone' }),
    ]);
    expect(messages[1]?.role).toBe('user');
    expect(JSON.stringify(messages[1]?.content)).toContain('42 rows');
    expect(JSON.stringify(messages[1]?.content)).toContain('gone');
  });

  it('repairs a second result for one call the same way', () => {
    const [call, result] = toolTurn('c1', 'first');
    const again = new ToolMessage({ content: 'second', tool_call_id: 'c1' });
    const { repairs } = toCtxkitMessages([call as BaseMessage, result as BaseMessage, again]);
    expect(repairs.map((repair) => repair.index)).toEqual([2]);
  });

  it('takes results of calls made before the messages given as answered', () => {
    const result = new ToolMessage({ content: 'ok', tool_call_id: 'earlier' });
    expect(toCtxkitMessages([result], { knownToolCallIds: ['earlier'] }).repairs).toEqual([]);
  });

  it('sends a message of a type ctxkit has no role for as a user message, and reports it', () => {
    const chat = new ChatMessage({ content: 'looks good', role: 'critic', id: 'm2' });
    const { messages, repairs } = toCtxkitMessages([new HumanMessage('a'), chat]);
    expect(repairs).toEqual([
      {
        index: 1,
        action: 'message-to-user',
        messageType: 'generic',
        reason: 'a "generic" message has no ctxkit role',
      },
    ]);
    expect(messages[1]).toEqual({
      role: 'user',
      id: 'm2',
      content: [
        { type: 'text', text: '[A generic message (role critic):]' },
        { type: 'text', text: 'looks good' },
      ],
    });
  });

  it('refuses what is not a LangChain message, naming its index', () => {
    const notMessage = contextErrorThrownBy(() =>
      toCtxkitMessages([{ role: 'user', content: 'hi' } as never]),
    );
    expect(notMessage.details).toEqual({ index: 0 });
    expect(contextErrorThrownBy(() => toCtxkitMessages('hi' as never)).code).toBe(
      'invalid_message',
    );
  });

  it('refuses a content block that is not JSON data, naming the message and block', () => {
    const bad = new HumanMessage({
      content: [
        { type: 'text', text: 'ok' },
        { type: 'custom', when: new Date(0) },
      ],
    });
    const error = contextErrorThrownBy(() => toCtxkitMessages([bad]));
    expect(error.code).toBe('invalid_message');
    expect(error.details).toEqual(expect.objectContaining({ index: 0, part: 1 }));
  });
});

describe('converting the same messages at every step', () => {
  it('gives the same ctxkit objects for unchanged messages, and converts a replaced field again', () => {
    const task = new HumanMessage('Count the rows.');
    const [call, result] = toolTurn('c1', '3 rows') as [AIMessage, ToolMessage];
    const first = toCtxkitMessages([task, call, result]).messages;
    const second = toCtxkitMessages([task, call, result]).messages;
    second.forEach((message, index) => {
      expect(message).toBe(first[index]);
    });
    result.content = '4 rows';
    const third = toCtxkitMessages([task, call, result]).messages;
    expect(third[0]).toBe(first[0]);
    expect(third[2]).not.toBe(first[2]);
    expect(JSON.stringify(third[2]?.content)).toContain('4 rows');
  });

  it('names a tool result after the call it follows in this history', () => {
    const result = new ToolMessage({ content: 'ok', tool_call_id: 'c1' });
    const callBy = (name: string) =>
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name, args: {} }] });
    const toolName = (messages: BaseMessage[]) =>
      (toCtxkitMessages(messages).messages[1]?.content as { toolName: string }[] | undefined)?.[0]
        ?.toolName;
    expect(toolName([callBy('query'), result])).toBe('query');
    expect(toolName([callBy('search'), result])).toBe('search');
  });
});

describe('toLangChainMessages', () => {
  it('takes an artifact that is not JSON data back from the message it came from', () => {
    const artifact = new Rows([1, 2, 3]);
    const input = toolTurn('c1', '3 rows', { artifact });
    const { messages } = toCtxkitMessages(input);
    const back = toLangChainMessages(messages);
    expect(back).toStrictEqual(input);
    expect((back[1] as ToolMessage).artifact).toBe(artifact);
    // A copy (what a compressor makes) finds it through the origin given.
    const copies = messages.map((message) => ({ ...message }));
    expect((toLangChainMessages(copies, input)[1] as ToolMessage).artifact).toBe(artifact);
    // Without the origin it cannot be had: an error, not a silent loss.
    const error = contextErrorThrownBy(() => toLangChainMessages(copies));
    expect(error.code).toBe('invalid_message');
    expect(error.details).toEqual({ index: 1, field: 'providerOptions.langchain.artifact' });
  });

  it('writes messages a compressor made as the message of their role', () => {
    const back = toLangChainMessages([
      { role: 'user', content: 'Summary so far: ...', meta: { kind: 'summary' } },
      { role: 'system', content: 'Be brief.' },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c9',
            toolName: 'query',
            output: { type: 'json', value: { n: 1 } },
          },
        ],
      },
    ]);
    expect(back[0]).toBeInstanceOf(HumanMessage);
    expect(back[1]).toBeInstanceOf(SystemMessage);
    expect(back[2]).toBeInstanceOf(ToolMessage);
    expect(back[2]).toMatchObject({ content: '{"n":1}', tool_call_id: 'c9', name: 'query' });
  });
});

describe('fitLangChainMessages', () => {
  it('rebuilds a cut ToolMessage with all it had', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 3_000 });
    const artifact = new Rows([7]);
    const long = 'row 1, value 12345\n'.repeat(2_000);
    const input: BaseMessage[] = [
      new HumanMessage({ content: 'Query the table.', id: 'task' }),
      ...toolTurn('c1', long, { artifact, status: 'success', id: 'result', name: 'query' }),
    ];
    const { messages, report } = await fitLangChainMessages(manager, input);
    expect(report.promptTokens).toBeLessThanOrEqual(3_000);
    expect(messages[0]).toBe(input[0]);
    const cut = messages.find((message) => message.id === 'result') as ToolMessage;
    expect(cut).toBeInstanceOf(ToolMessage);
    expect(cut).not.toBe(input[2]);
    expect((cut.content as string).length).toBeLessThan(long.length);
    expect(cut).toMatchObject({ tool_call_id: 'c1', status: 'success', name: 'query' });
    expect(cut.artifact).toBe(artifact);
  });

  it('passes a ToolMessage without its call on as a user message, and reports the repair', async () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const input = [
      new HumanMessage('Query the table.'),
      new ToolMessage({ content: 'stray output', tool_call_id: 'nowhere', id: 'stray' }),
    ];
    const { messages, repairs } = await fitLangChainMessages(manager, input);
    expect(repairs).toEqual([expect.objectContaining({ index: 1, toolCallId: 'nowhere' })]);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toBeInstanceOf(HumanMessage);
    expect(messages[1]?.id).toBe('stray');
    expect(messages[1]?.text).toContain('stray output');
  });

  it('rejects an invalid history with the manager’s error, naming the message', async () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const twice = [
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'a', args: {} }] }),
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'a', args: {} }] }),
    ];
    const error = await contextErrorRejectedBy(fitLangChainMessages(manager, twice));
    expect(error.code).toBe('invalid_message');
    expect(error.details).toEqual(expect.objectContaining({ index: 1 }));
  });
});
