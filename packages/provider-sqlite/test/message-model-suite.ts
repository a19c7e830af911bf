import { ContextError, keepNewest, type Message, type Part } from '@ctxkit/context-core';
import { sameData } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import type { KyselyProvider } from '../src/index.js';
import { user } from './helpers.js';

/** Options of {@link testMessageModelStorage}. */
export interface MessageModelSuiteOptions {
  /** Names the describe block. */
  name: string;
  /** A provider on an empty database. */
  open: () => Promise<KyselyProvider>;
  /** Releases it. */
  close: (provider: KyselyProvider) => Promise<void>;
}

/**
 * What the v2 message model asks of storage, on one database: bytes, `ArrayBuffer`s and `URL`s
 * read back as themselves, strings and JSON data as written, and tool approvals validated and
 * kept with their calls across appends.
 */
export function testMessageModelStorage(options: MessageModelSuiteOptions): void {
  describe(`${options.name}: message model v2`, () => {
    it('reads bytes, ArrayBuffers and URLs back as themselves, in content and in tool-result content', async () => {
      const provider = await options.open();
      const input = mediaHistory();
      const stored = await provider.append('c', input);
      const loaded = await provider.getHistory('c');
      expect(loaded).toEqual(stored);
      expectSameMessages(loaded, input);
      expectSameMessages(stored, input);
      const [first] = loaded as [Message];
      const parts = first.content as Part[];
      expect(Object.getPrototypeOf(mediaOf(parts[1]))).toBe(Uint8Array.prototype);
      expect(mediaOf(parts[2])).toBeInstanceOf(ArrayBuffer);
      expect(mediaOf(parts[3])).toBeInstanceOf(URL);
      // Stored as JSON text: bytes as base64 (a third larger), a URL as its address.
      const row = await provider.db
        .selectFrom('history')
        .select('content')
        .where('id', '=', first.id as string)
        .executeTakeFirstOrThrow();
      const raw = JSON.parse(row.content) as Record<string, unknown>[];
      expect(raw[1]?.image).toEqual({ bytes: Buffer.from(allBytes()).toString('base64') });
      expect(raw[2]?.data).toEqual({ arrayBuffer: Buffer.from(allBytes()).toString('base64') });
      expect(raw[3]?.image).toEqual({ url: 'https://example.com/shot.png?x=1#y' });
      expect(raw[5]?.image).toBe('iVBORw0KGgo=');
      // Each read is a fresh copy: changing one changes nothing stored.
      (mediaOf(parts[1]) as Uint8Array)[0] = 99;
      (mediaOf(parts[3]) as URL).pathname = '/changed';
      expectSameMessages(await provider.getHistory('c'), input);
      const { archiveId } = await provider.archive('c');
      expectSameMessages(await provider.getArchive('c', archiveId), input);
      await options.close(provider);
    });

    it('reads a string that looks like stored bytes back as that string, and JSON data as written', async () => {
      const provider = await options.open();
      const lookalike = '{"bytes":"AAEC"}';
      const encodedShape = { bytes: 'AAEC', arrayBuffer: 'AAEC', url: 'https://example.com/' };
      const input: Message[] = [
        {
          role: 'user',
          content: [
            { type: 'image', image: lookalike },
            {
              type: 'file',
              data: JSON.stringify({ url: 'https://example.com/' }),
              mediaType: 'a/b',
            },
            { type: 'file', data: 'AAEC', mediaType: 'application/octet-stream' },
            { type: 'opaque', value: { type: 'image', image: encodedShape } },
          ],
          meta: { image: encodedShape, nul: 'a\u0000b' },
          providerOptions: { custom: { data: encodedShape, nul: '\u0000' } },
        },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              toolCallId: 't1',
              toolName: 'render',
              input: { type: 'image', image: encodedShape },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 't1',
              toolName: 'render',
              output: {
                type: 'json',
                value: { type: 'content', value: [{ image: encodedShape }] },
              },
              providerOptions: { custom: { image: encodedShape } },
            },
          ],
        },
      ];
      await provider.append('c', input);
      expectSameMessages(await provider.getHistory('c'), input);
      await options.close(provider);
    });

    it('keeps message and part providerOptions', async () => {
      const provider = await options.open();
      const input: Message[] = [
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text: 'cached',
              providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
            },
          ],
          providerOptions: { openai: { store: false, metadata: { nested: [1, 'two'] } } },
        },
        { role: 'assistant', content: 'plain', providerOptions: { anthropic: {} } },
      ];
      const stored = await provider.append('c', input);
      expectSameMessages(stored, input);
      expectSameMessages(await provider.getHistory('c'), input);
      await options.close(provider);
    });

    it('accepts an approval response to a request stored in an earlier append, ids kept apart from call ids', async () => {
      const provider = await options.open();
      await provider.append('c', [user('delete the pod'), callWithApproval('t1', 'a1')]);
      await provider.append('c', approvalResponse('a1'));
      await provider.append('c', toolResult('t1'));
      expectSameMessages(await provider.getHistory('c'), [
        user('delete the pod'),
        callWithApproval('t1', 'a1'),
        approvalResponse('a1'),
        toolResult('t1'),
      ]);
      // An approval id may equal a tool call id: the two never stand for each other.
      await provider.append('same', [callWithApproval('x', 'x'), callWithApproval('y', 'x2')]);
      await provider.append('same', approvalResponse('x'));
      await provider.append('same', [toolResult('x'), approvalResponse('x2')]);
      await expect(provider.append('same', approvalResponse('y'))).rejects.toMatchObject({
        code: 'invalid_message',
      });
      const all = await provider.getHistory('same');
      expect(all).toHaveLength(5);
      // One unit: the last response reaches y's request, its result x's call.
      expect(await provider.getHistory('same', { limit: 1 })).toEqual(all);
      await options.close(provider);
    });

    it('refuses, storing nothing, a response to an unknown, answered or archived request, and a reused approval id', async () => {
      const provider = await options.open();
      await provider.append('c', [callWithApproval('t1', 'a1'), approvalResponse('a1')]);
      await provider.append('c', callWithApproval('t2', 'a2'));
      await provider.append('archived', callWithApproval('t3', 'a3'));
      await provider.archive('archived');
      const before = await rowCounts(provider);
      const refused: [string, Message[]][] = [
        ['c', [approvalResponse('unknown')]],
        ['c', [approvalResponse('a1')]],
        ['c', [approvalResponse('a2'), approvalResponse('a2')]],
        ['c', [callWithApproval('t4', 'a2')]],
        ['other', [approvalResponse('a2')]],
        ['archived', [approvalResponse('a3')]],
      ];
      for (const [conversationId, batch] of refused) {
        const error = await provider.append(conversationId, batch).catch((caught) => caught);
        expect(
          ContextError.isInstance(error, 'invalid_message'),
          `${conversationId} ${JSON.stringify(batch)}: ${String(error)}`,
        ).toBe(true);
      }
      expect(await rowCounts(provider)).toEqual(before);
      await provider.append('c', approvalResponse('a2'));
      await options.close(provider);
    });

    it('never splits a tool call from its approval request and response under a limit', async () => {
      const provider = await options.open();
      const batches: Message[][] = [
        [user('restart the pods')],
        [call('t1'), user('wait')],
        [approvalRequest('t1', 'a1')],
        [user('thinking about it')],
        [approvalResponse('a1', false)],
        [callWithApproval('t2', 'a2'), assistantText('asked')],
        [approvalResponse('a2', false)],
        [providerExecuted('t3'), assistantText('done')],
      ];
      const history: Message[] = [];
      for (const batch of batches) history.push(...(await provider.append('c', batch)));
      for (let limit = 0; limit <= history.length + 1; limit += 1) {
        const window = await provider.getHistory('c', { limit });
        expect(window, `limit ${limit}`).toEqual(keepNewest(history, limit));
      }
      const roles = async (limit: number) =>
        (await provider.getHistory('c', { limit })).map((message) => message.role);
      // A window starting at a response reaches back to its request, and from the request
      // (stored in an append of its own) to its call.
      expect(await roles(6)).toHaveLength(10);
      expect(await roles(8)).toHaveLength(10);
      expect(await roles(3)).toEqual(['assistant', 'assistant', 'tool', 'assistant', 'assistant']);
      await options.close(provider);
    });
  });
}

// --- internal helpers ---

/** Every byte value, so base64 and text encodings are both exercised. */
function allBytes(): Uint8Array {
  return Uint8Array.from({ length: 256 }, (_, index) => index);
}

/** A history holding media in every form at every place the model allows. */
function mediaHistory(): Message[] {
  const backing = new Uint8Array([7, 7, 1, 2, 3, 7]);
  const view = backing.subarray(2, 5);
  const pdf = allBytes().buffer as ArrayBuffer;
  return [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'see attached' },
        { type: 'image', image: allBytes(), mediaType: 'image/png' },
        { type: 'file', data: pdf, mediaType: 'application/pdf', filename: 'a\u0000b.pdf' },
        { type: 'image', image: new URL('https://example.com/shot.png?x=1#y') },
        { type: 'file', data: new URL('https://example.com/notes.txt'), mediaType: 'text/plain' },
        { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
        { type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=' },
        { type: 'file', data: 'https://example.com/report.pdf', mediaType: 'application/pdf' },
        { type: 'image', image: view },
        { type: 'image', image: new Uint8Array(0) },
        { type: 'file', data: new ArrayBuffer(0), mediaType: 'application/octet-stream' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'image', image: new Uint8Array([1, 2, 3]), mediaType: 'image/webp' },
        { type: 'tool-call', toolCallId: 'shot', toolName: 'screenshot', input: {} },
        {
          type: 'tool-call',
          toolCallId: 'search',
          toolName: 'web_search',
          input: { query: 'x' },
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: 'search',
          toolName: 'web_search',
          output: {
            type: 'content',
            value: [{ type: 'file', data: new Uint8Array([4, 5]), mediaType: 'text/html' }],
          },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'shot',
          toolName: 'screenshot',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'the screen' },
              { type: 'image', image: allBytes(), mediaType: 'image/png' },
              { type: 'file', data: pdf, mediaType: 'application/pdf', filename: 'x.pdf' },
              { type: 'image', image: new URL('https://example.com/big.png') },
              { type: 'image', image: 'iVBORw0KGgo=' },
            ],
          },
        },
      ],
    },
  ];
}

/** The image or data of a media part. */
function mediaOf(part: Part | undefined): unknown {
  if (part?.type === 'image') return part.image;
  if (part?.type === 'file') return part.data;
  throw new Error(`not a media part: ${part?.type}`);
}

/** Asserts that `loaded` are `expected` as stored: same data, bytes and URLs of the same types. */
function expectSameMessages(loaded: readonly Message[], expected: readonly Message[]): void {
  const withoutStoreFields = loaded.map(
    ({ id: _id, tokens: _tokens, tokenCounter: _counter, ...message }) => message,
  );
  expect(withoutStoreFields).toEqual(expected);
  expect(sameData(withoutStoreFields, expected)).toBe(true);
}

async function rowCounts(provider: KyselyProvider): Promise<number[]> {
  const counts: number[] = [];
  for (const table of ['history', 'history_tool_parts'] as const) {
    const row = await provider.db
      .selectFrom(table)
      .select((select) => select.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    counts.push(Number(row.count));
  }
  return counts;
}

function call(toolCallId: string): Message {
  return {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId, toolName: 'restart_pod', input: { pod: 'web' } }],
  };
}

function approvalRequest(toolCallId: string, approvalId: string): Message {
  return {
    role: 'assistant',
    content: [{ type: 'tool-approval-request', approvalId, toolCallId }],
  };
}

function callWithApproval(toolCallId: string, approvalId: string): Message {
  return {
    role: 'assistant',
    content: [
      ...(call(toolCallId).content as Part[]),
      { type: 'tool-approval-request', approvalId, toolCallId },
    ],
  };
}

function approvalResponse(approvalId: string, approved = true): Message {
  return {
    role: 'tool',
    content: [
      {
        type: 'tool-approval-response',
        approvalId,
        approved,
        ...(approved ? {} : { reason: 'Not now.' }),
      },
    ],
  };
}

function toolResult(toolCallId: string): Message {
  return {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId, toolName: 'restart_pod', output: 'restarted' }],
  };
}

function providerExecuted(toolCallId: string): Message {
  return {
    role: 'assistant',
    content: [
      {
        type: 'tool-call',
        toolCallId,
        toolName: 'web_search',
        input: { query: 'pods' },
        providerExecuted: true,
      },
      {
        type: 'tool-result',
        toolCallId,
        toolName: 'web_search',
        output: { type: 'json', value: { hits: 2 } },
      },
    ],
  };
}

function assistantText(text: string): Message {
  return { role: 'assistant', content: text };
}
