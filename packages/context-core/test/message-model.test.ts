import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  copyData,
  countMessageTokens,
  DEFAULT_IMAGE_TOKENS,
  dataUrlMediaType,
  estimateMediaTokens,
  groupUnits,
  InvalidMessageError,
  isImageMediaType,
  isSealedReasoning,
  type Message,
  mediaByteLength,
  messageText,
  type Part,
  type ProviderOptions,
  partLabel,
  type TokenCounter,
  validateMessages,
} from '../src/index.js';
import {
  arbitraryHistory,
  contextErrorThrownBy,
  fuzzParameters,
  kitCounter,
  sameData,
} from '../src/testing/index.js';

const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);

/** One message of every role holding every part kind it may hold, with provider options. */
const everyPart: Message[] = [
  {
    role: 'system',
    content: [
      {
        type: 'text',
        text: 'Be brief.',
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', image: png, mediaType: 'image/png' },
      { type: 'image', image: new URL('https://example.com/a.jpg') },
      { type: 'file', data: 'JVBERi0xLjQK', mediaType: 'application/pdf', filename: 'a.pdf' },
      { type: 'opaque', value: { type: 'video', url: 'https://example.com/v.mp4' } },
    ],
    providerOptions: { openai: { user: 'u-1' } },
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Look first.', signature: 'sig' },
      { type: 'reasoning', text: '', redactedData: 'EmsKHg' },
      { type: 'reasoning', text: 'Sum.', encryptedContent: 'gAAAA', itemId: 'rs_1' },
      { type: 'thinking', text: 'Old form.', signature: 'sig-old' },
      {
        type: 'tool-call',
        toolCallId: 'web',
        toolName: 'web_search',
        input: { q: 'x' },
        providerExecuted: true,
      },
      {
        type: 'tool-result',
        toolCallId: 'web',
        toolName: 'web_search',
        output: { type: 'json', value: { hits: [1, 2] } },
      },
      { type: 'tool-call', toolCallId: 'rm', toolName: 'delete_file', input: { path: '/tmp/x' } },
      { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'rm' },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-approval-response', approvalId: 'ap1', approved: true, reason: 'fine' },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'rm',
        toolName: 'delete_file',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: 'Deleted; screenshot:' },
            { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
          ],
        },
        isError: false,
        providerOptions: { openai: { itemId: 'fc_1' } },
      },
    ],
  },
];

describe('message model v2', () => {
  it('accepts every part kind in the roles that hold it', () => {
    expect(() => validateMessages(everyPart)).not.toThrow();
  });

  it.each([
    [
      'an unknown part type',
      1,
      0,
      { type: 'video', url: 'x' },
      'type',
      /unknown part type "video": carry it in an opaque part/,
    ],
    [
      'an image without data',
      1,
      0,
      { type: 'image', mediaType: 'image/png' },
      'image.image',
      /image image must be base64 text, a URL/,
    ],
    ['an image of a number', 1, 0, { type: 'image', image: 42 }, 'image.image', /got number 42/],
    [
      'a file without a media type',
      1,
      0,
      { type: 'file', data: 'AAAA' },
      'file.mediaType',
      /file mediaType must be a non-empty string/,
    ],
    [
      'an opaque part without a value',
      1,
      0,
      { type: 'opaque' },
      'opaque.value',
      /must carry its value/,
    ],
    [
      'an opaque part holding a Date',
      1,
      0,
      { type: 'opaque', value: new Date(0) },
      'opaque.value',
      /not a plain object/,
    ],
    [
      'provider options that are not objects',
      1,
      0,
      { type: 'text', text: 'a', providerOptions: { anthropic: 'x' } },
      'text.providerOptions.anthropic',
      /must be an object of options/,
    ],
    [
      'reasoning with a numeric signature',
      2,
      0,
      { type: 'reasoning', text: 'a', signature: 1 },
      'reasoning.signature',
      /reasoning signature must be a string/,
    ],
  ])(
    'refuses %s, naming the message, part and field',
    (_name, index, part, bad, field, pattern) => {
      const messages = copyData(everyPart);
      (messages[index]?.content as unknown[])[part] = bad;
      const error = contextErrorThrownBy(() => validateMessages(messages));
      expect(error).toBeInstanceOf(InvalidMessageError);
      expect(error.message).toMatch(pattern);
      expect(error.details).toEqual({ index, part, field });
    },
  );

  it.each([
    ['a tool-result output of a wrong type', 42, 'tool-result.output'],
    ['an output array instead of content', [{ type: 'text', text: 'a' }], 'tool-result.output'],
    ['a JSON output without a value', { type: 'json' }, 'tool-result.output.value'],
    [
      'content holding a tool call',
      { type: 'content', value: [{ type: 'tool-call' }] },
      'tool-result.output.value[0].type',
    ],
    [
      'content holding an image without data',
      { type: 'content', value: [{ type: 'image' }] },
      'tool-result.output.value[0].image',
    ],
  ])('refuses %s, naming the field', (_name, output, field) => {
    const messages = copyData(everyPart);
    const result = ((messages[4] as Message).content as { output: unknown }[])[0] as {
      output: unknown;
    };
    result.output = output;
    const error = contextErrorThrownBy(() => validateMessages(messages));
    expect(error.details).toEqual({ index: 4, part: 0, field });
  });

  it('refuses parts a role may not hold, and pairs that do not match', () => {
    const cases: [Message[], RegExp][] = [
      [
        [{ role: 'user', content: [{ type: 'reasoning', text: 'a' }] }],
        /a user message may not hold a reasoning part/,
      ],
      [
        [{ role: 'system', content: [{ type: 'image', image: png }] }],
        /a system message may not hold a image part/,
      ],
      [
        [
          {
            role: 'tool',
            content: [{ type: 'tool-approval-response', approvalId: 'none', approved: true }],
          },
        ],
        /approval response "none" has no earlier request/,
      ],
      [
        [
          {
            role: 'assistant',
            content: [
              { type: 'tool-call', toolCallId: 'c', toolName: 't', input: {} },
              { type: 'tool-result', toolCallId: 'c', toolName: 't', output: 'x' },
            ],
          },
        ],
        /only results of its own provider-executed calls/,
      ],
      [
        [
          {
            role: 'assistant',
            content: [{ type: 'tool-approval-request', approvalId: 'a', toolCallId: 'missing' }],
          },
        ],
        /approval request for "missing", which is no earlier tool call/,
      ],
    ];
    for (const [messages, pattern] of cases) {
      expect(contextErrorThrownBy(() => validateMessages(messages)).message).toMatch(pattern);
    }
  });

  it('keeps a call, its approval request and response and its result in one unit', () => {
    const units = groupUnits([{ role: 'user', content: 'go' }, ...everyPart.slice(2)]);
    expect(units.map((unit) => [unit.start, unit.end])).toEqual([
      [0, 1],
      [1, 4],
    ]);
  });

  it('counts images and files by the counter, else by the documented estimate', () => {
    const text = kitCounter;
    const priced: TokenCounter = {
      name: 'priced',
      count: text.count,
      countMedia: (part) => (part.type === 'image' ? 85 : 1000),
    };
    const message: Message = {
      role: 'user',
      content: [
        { type: 'image', image: png },
        { type: 'file', data: png, mediaType: 'application/pdf' },
      ],
    };
    expect(countMessageTokens(message, priced)).toBe(4 + 85 + 1000);
    expect(countMessageTokens(message, text)).toBe(
      4 + DEFAULT_IMAGE_TOKENS + Math.ceil(png.byteLength / 3),
    );
    const broken: TokenCounter = {
      name: 'broken',
      count: text.count,
      countMedia: () => Number.NaN,
    };
    expect(contextErrorThrownBy(() => countMessageTokens(message, broken)).code).toBe(
      'invalid_option',
    );
  });

  it('counts again after a part deep inside the content changed in place', () => {
    const counter = kitCounter;
    const message = copyData(everyPart[4] as Message);
    const before = countMessageTokens(message, counter);
    const output = (message.content as { output: { value: { text?: string }[] } }[])[0]?.output;
    (output?.value[0] as { text: string }).text =
      'Deleted, and here is a much longer explanation of what happened.';
    expect(countMessageTokens(message, counter)).toBeGreaterThan(before);
  });

  it('measures inline data without decoding it, and names media without their bytes', () => {
    expect(mediaByteLength('aGVsbG8=')).toBe(5);
    expect(mediaByteLength('data:text/plain;base64,aGVsbG8=')).toBe(5);
    // A scheme in capitals is a data: URL too (URL schemes ignore case).
    expect(mediaByteLength('DATA:text/plain;base64,aGVsbG8=')).toBe(5);
    expect(dataUrlMediaType('Data:image/png;base64,aGVsbG8=')).toBe('image/png');
    expect(dataUrlMediaType('https://example.com/a.png')).toBeUndefined();
    expect(mediaByteLength('https://example.com/x.png')).toBeUndefined();
    expect(mediaByteLength(new URL('https://example.com/x.png'))).toBeUndefined();
    expect(mediaByteLength(png.buffer)).toBe(png.byteLength);
    expect(
      estimateMediaTokens({
        type: 'file',
        data: new URL('https://x.org/a'),
        mediaType: 'text/plain',
      }),
    ).toBe(3000);
    // A file that is an image (a screenshot sent as a file) is an image, not bytes of text.
    expect(
      estimateMediaTokens({
        type: 'file',
        data: new Uint8Array(1_500_000),
        mediaType: 'Image/PNG',
      }),
    ).toBe(DEFAULT_IMAGE_TOKENS);
    expect(isImageMediaType(' image/webp')).toBe(true);
    expect(isImageMediaType('application/pdf')).toBe(false);
    expect(partLabel({ type: 'image', image: png, mediaType: 'image/png' })).toBe(
      '[image image/png, 11 B]',
    );
    expect(
      partLabel({
        type: 'file',
        data: 'JVBERi0xLjQK',
        mediaType: 'application/pdf',
        filename: 'a.pdf',
      }),
    ).toBe('[file a.pdf, application/pdf, 9 B]');
    expect(messageText(everyPart[4] as Message)).toBe(
      'Deleted; screenshot:\n[image image/png, 8 B]',
    );
  });

  it('seals reasoning that carries a signature, redacted data or encrypted content', () => {
    const parts = everyPart[2]?.content as Part[];
    expect(parts.slice(0, 4).map((part) => isSealedReasoning(part))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(isSealedReasoning({ type: 'reasoning', text: 'plain' })).toBe(false);
    // Sealed by the provider options the AI SDK and the wire readers keep signatures in.
    const sealing: ProviderOptions[] = [
      { anthropic: { signature: 'sig' } },
      { anthropic: { redactedData: 'opaque' } },
      { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'gAAA' } },
      { google: { thoughtSignature: 'c2ln' } },
    ];
    for (const providerOptions of sealing) {
      expect(isSealedReasoning({ type: 'reasoning', text: 'thought', providerOptions })).toBe(true);
    }
    expect(
      isSealedReasoning({
        type: 'reasoning',
        text: 'thought',
        providerOptions: { openai: { itemId: 'rs_1', reasoningEncryptedContent: null } },
      }),
    ).toBe(false);
  });

  it('copies message data deep-equal, bytes and URLs included', () => {
    fc.assert(
      fc.property(arbitraryHistory(), (history) => {
        const copy = copyData(history);
        expect(sameData(copy, history)).toBe(true);
        validateMessages(copy);
      }),
      fuzzParameters(100),
    );
  });
});
