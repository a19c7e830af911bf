import { InvalidMessageError, type Message } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { createContextManager } from '../src/index.js';

/** A history that fits after its first user message is cut, with a tool call and its result. */
function history(): Message[] {
  return [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: `Read this: ${'x'.repeat(5_000)}` },
    { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }] },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a' } }],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: 'text' }],
    },
    ...Array.from(
      { length: 30 },
      (_, index): Message => ({
        role: 'user',
        content: `more ${index} ${'y'.repeat(500)}`,
      }),
    ),
  ];
}

type Loose = Record<string, unknown> & { content: unknown };
const part = (messages: Message[], index: number) =>
  (messages[index] as unknown as { content: Record<string, unknown>[] }).content;
const cyclic = () => {
  const value: Record<string, unknown> = {};
  value.self = value;
  return value;
};

/** Ways a caller breaks, in place, a message of an array fitted before. */
const breakages: [string, string, (messages: Message[]) => void][] = [
  [
    'content made a number',
    'content',
    (m) => {
      (m[1] as unknown as Loose).content = 42;
    },
  ],
  [
    'content made null',
    'content',
    (m) => {
      (m[1] as unknown as Loose).content = null;
    },
  ],
  [
    'a part made null',
    'part',
    (m) => {
      part(m, 2)[0] = null as never;
    },
  ],
  [
    'a part made undefined',
    'part',
    (m) => {
      part(m, 3)[0] = undefined as never;
    },
  ],
  [
    'a text made a number',
    'text.text',
    (m) => {
      (part(m, 2)[0] as Loose).text = 5;
    },
  ],
  [
    'the role made unknown',
    'role',
    (m) => {
      (m[1] as unknown as Loose).role = 'robot';
    },
  ],
  [
    'a tool input made cyclic',
    'tool-call.input',
    (m) => {
      (part(m, 3)[0] as Loose).input = cyclic();
    },
  ],
  [
    'a result made an orphan',
    'toolCallId',
    (m) => {
      (part(m, 4)[0] as Loose).toolCallId = 'zz';
    },
  ],
  [
    'meta made a number',
    'meta',
    (m) => {
      (m[1] as unknown as Loose).meta = 5;
    },
  ],
];

describe('a message broken in place after a fit', () => {
  for (const [name, field, breakIt] of breakages) {
    it(`${name}: the next fit refuses it with InvalidMessageError naming ${field}`, async () => {
      const manager = createContextManager({ model: 'gpt-4o', maxTokens: 3_000 });
      const messages = history();
      await manager.fit(messages);
      breakIt(messages);
      const error = await manager.fit(messages).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidMessageError);
      const details = (error as InvalidMessageError).details;
      expect(field === 'part' ? details : details?.field).toEqual(
        field === 'part' ? expect.objectContaining({ part: 0 }) : field,
      );
    });
  }
});
