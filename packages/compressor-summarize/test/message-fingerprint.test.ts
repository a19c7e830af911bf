import { createHash } from 'node:crypto';
import { copyData, type Message } from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageFingerprint } from '../src/message-fingerprint.js';

const question: Message = { id: 'q', role: 'user', content: 'What does this chart show?' };

/** The fingerprint of `question` followed by a user message holding `parts`, with `extra` fields. */
function fingerprintOf(parts: Exclude<Message['content'], string>, extra: Partial<Message> = {}) {
  return messageFingerprint([question, { role: 'user', content: parts, ...extra }], 1);
}

function image(data: Uint8Array | ArrayBuffer | URL | string) {
  return { type: 'image' as const, image: data, mediaType: 'image/png' };
}

describe('messageFingerprint', () => {
  const bytes = new Uint8Array(1024 * 1024).map((_, index) => index % 251);
  const oneByteOff = bytes.slice();
  oneByteOff[700_000] = 7;

  it('changes when one byte of an image changes, as bytes or as an ArrayBuffer', () => {
    expect(fingerprintOf([image(bytes)])).not.toBe(fingerprintOf([image(oneByteOff)]));
    expect(fingerprintOf([image(bytes.buffer.slice(0))])).not.toBe(
      fingerprintOf([image(oneByteOff.buffer.slice(0))]),
    );
  });

  it('tells bytes from an ArrayBuffer, and a URL from its address as a string', () => {
    const small = new Uint8Array([1, 2, 3]);
    expect(fingerprintOf([image(small)])).not.toBe(fingerprintOf([image(small.buffer.slice(0))]));
    const url = 'https://example.com/chart.png';
    expect(fingerprintOf([image(new URL(url))])).not.toBe(fingerprintOf([image(url)]));
    expect(fingerprintOf([image(new URL(url))])).not.toBe(
      fingerprintOf([image(new URL(`${url}?v=2`))]),
    );
  });

  it('changes with the providerOptions of the message or of a part', () => {
    const plain = fingerprintOf([{ type: 'text', text: 'hello' }]);
    const cached = { anthropic: { cacheControl: { type: 'ephemeral' } } };
    expect(fingerprintOf([{ type: 'text', text: 'hello' }], { providerOptions: cached })).not.toBe(
      plain,
    );
    expect(fingerprintOf([{ type: 'text', text: 'hello', providerOptions: cached }])).not.toBe(
      plain,
    );
  });

  it('stays the same for a copy, a Buffer of the same bytes, and other ids, counts or meta', () => {
    const text = { type: 'text' as const, text: 'see above' };
    const parts = [image(bytes), text];
    const fingerprint = fingerprintOf(parts);
    expect(fingerprintOf(copyData(parts))).toBe(fingerprint);
    expect(fingerprintOf([image(Buffer.from(bytes)), text])).toBe(fingerprint);
    expect(
      fingerprintOf(parts, { id: 'other', tokens: 3, tokenCounter: 'x', meta: { pinned: true } }),
    ).toBe(fingerprint);
  });

  it('is what it was under the first message model for a message that model could hold', () => {
    const history: Message[] = [
      question,
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'look', signature: 'sig' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: '/a' } },
        ],
      },
    ];
    const first = createHash('sha256');
    for (const message of history) {
      first.update(`${message.role}\u0000${JSON.stringify(message.content)}\u0001`);
    }
    expect(messageFingerprint(history, 1)).toBe(first.digest('hex').slice(0, 32));
  });

  it('is the same for a copy of any random history, at every message', () => {
    fc.assert(
      fc.property(
        arbitraryHistory({ minTurns: 1, maxTurns: 3, maxOutputChars: 500 }),
        (history) => {
          const copy = copyData(history);
          for (let index = 0; index < history.length; index += 1) {
            expect(messageFingerprint(copy, index)).toBe(messageFingerprint(history, index));
          }
        },
      ),
      fuzzParameters(50),
    );
  });
});
