import type { Message, Part } from '@ctxkit/context-core';
import type { AgentInputItem } from '@openai/agents-core';
import { expect, it } from 'vitest';
import { itemsToMessages, messagesToItems } from '../src/index.js';

/** The one message `item` converts to, with its content replaced as a compressor would. */
function changed(item: AgentInputItem, content: (parts: Part[]) => Part[]): Message {
  const [message] = itemsToMessages([item]) as [Message];
  return { ...message, content: content(message.content as Part[]) };
}

it('a tool result whose output was cut comes back as the same result with the shorter output', () => {
  const result: AgentInputItem = {
    type: 'function_call_result',
    id: 'fco_1',
    callId: 'call_1',
    name: 'read_log',
    status: 'completed',
    output: 'line\n'.repeat(1_000),
    providerData: { cached: true },
  };
  const message = changed(result, ([part]) => [
    { ...(part as Extract<Part, { type: 'tool-result' }>), output: 'line\n[... cut]' },
  ]);
  expect(messagesToItems([message])).toStrictEqual([{ ...result, output: 'line\n[... cut]' }]);
});

it('an image masked to a text stand-in becomes input text, keeping its providerData', () => {
  const user: AgentInputItem = {
    role: 'user',
    content: [
      { type: 'input_text', text: 'What is on this?' },
      {
        type: 'input_image',
        image: 'https://example.com/a.png',
        detail: 'high',
        providerData: { x: 1 },
      },
    ],
  };
  const message = changed(user, ([text, image]) => [
    text as Part,
    {
      type: 'text',
      text: '[image https://example.com/a.png]',
      providerOptions: image?.providerOptions,
    },
  ]);
  expect(messagesToItems([message])).toStrictEqual([
    {
      role: 'user',
      content: [
        { type: 'input_text', text: 'What is on this?' },
        { type: 'input_text', text: '[image https://example.com/a.png]', providerData: { x: 1 } },
      ],
    },
  ]);
});

it('a file given by data URL is a file part of the URL’s media type, in a user message and in a tool output, and comes back as it came', () => {
  const pdf = 'data:application/pdf;base64,JVBERi0=';
  const png = 'data:image/png;base64,iVBORw0KGgo=';
  const items: AgentInputItem[] = [
    {
      role: 'user',
      content: [{ type: 'input_file', file: pdf, filename: 'report.pdf', providerData: { x: 1 } }],
    },
    { type: 'function_call', callId: 'call_1', name: 'read', arguments: '{}' },
    {
      type: 'function_call_result',
      callId: 'call_1',
      name: 'read',
      status: 'completed',
      output: { type: 'file', file: png },
    },
    { type: 'function_call', callId: 'call_2', name: 'read', arguments: '{}' },
    {
      type: 'function_call_result',
      callId: 'call_2',
      name: 'read',
      status: 'completed',
      output: [{ type: 'input_file', file: pdf, filename: 'report.pdf' }],
    },
  ];
  const messages = itemsToMessages(items);
  expect(messages[0]?.content).toEqual([
    expect.objectContaining({
      type: 'file',
      data: pdf,
      mediaType: 'application/pdf',
      filename: 'report.pdf',
    }),
  ]);
  const outputs = [messages[2], messages[4]].map(
    (message) =>
      ((message as Message).content as Extract<Part, { type: 'tool-result' }>[])[0]?.output,
  );
  expect(outputs).toEqual([
    {
      type: 'content',
      value: [expect.objectContaining({ type: 'file', data: png, mediaType: 'image/png' })],
    },
    {
      type: 'content',
      value: [expect.objectContaining({ type: 'file', data: pdf, mediaType: 'application/pdf' })],
    },
  ]);
  expect(messagesToItems(structuredClone(messages))).toStrictEqual(items);
});

it('a file masked to a text stand-in becomes input text, keeping its providerData', () => {
  const user: AgentInputItem = {
    role: 'user',
    content: [
      {
        type: 'input_file',
        file: 'data:application/pdf;base64,JVBERi0=',
        filename: 'report.pdf',
        providerData: { x: 1 },
      },
    ],
  };
  const message = changed(user, ([file]) => [
    { type: 'text', text: '[file report.pdf]', providerOptions: file?.providerOptions },
  ]);
  expect(messagesToItems([message])).toStrictEqual([
    {
      role: 'user',
      content: [{ type: 'input_text', text: '[file report.pdf]', providerData: { x: 1 } }],
    },
  ]);
});

it('a reasoning item whose reasoning was removed gives no item', () => {
  const reasoning: AgentInputItem = {
    type: 'reasoning',
    id: 'rs_1',
    content: [{ type: 'input_text', text: 'Thinking.' }],
    providerData: { encryptedContent: 'sealed' },
  };
  expect(messagesToItems([changed(reasoning, () => [])])).toStrictEqual([]);
});

it('a function call replaced by text becomes an assistant message without the call’s id', () => {
  const call: AgentInputItem = {
    type: 'function_call',
    id: 'fc_1',
    callId: 'call_1',
    name: 'read_log',
    arguments: '{}',
    providerData: { x: 1 },
  };
  const message = changed(call, () => [{ type: 'text', text: '[call cut]' }]);
  expect(messagesToItems([message])).toStrictEqual([
    {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: '[call cut]' }],
    },
  ]);
});

it('a summary a compressor inserted becomes a message item of its role', () => {
  const summary: Message = {
    role: 'user',
    content: 'Summary: logs read.',
    meta: { kind: 'summary' },
  };
  const notice: Message = { role: 'system', content: 'Earlier turns were archived.' };
  expect(messagesToItems([summary, notice])).toStrictEqual([
    { role: 'user', content: 'Summary: logs read.' },
    { role: 'system', content: 'Earlier turns were archived.' },
  ]);
});

it('an item or content part with a field of an unexpected type travels verbatim instead of being rewritten', () => {
  const items = [
    { role: 'user', content: [{ type: 'input_text', text: 7 }] },
    { type: 'function_call', callId: 12, name: 'f', arguments: '{}' },
    { type: 'function_call_result', callId: 'c', name: null, status: 'completed', output: 'x' },
  ] as unknown as AgentInputItem[];
  expect(messagesToItems(itemsToMessages(items))).toStrictEqual(items);
});
