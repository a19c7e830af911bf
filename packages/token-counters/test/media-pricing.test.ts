import { readFileSync } from 'node:fs';
import {
  countMessageTokens,
  estimateMediaTokens,
  type FilePart,
  type ImagePart,
  type Message,
} from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import {
  countAnthropicImageTokens,
  createHeuristicCounter,
  estimatePdfTokens,
  mediaBytes,
  PDF_BYTES_PER_PAGE,
  readImageSize,
  URL_PDF_PAGES,
  withMediaPricing,
} from '../src/index.js';
import { expectInvalidOption } from './helpers.js';

// Fixtures written by ImageMagick 6 (`convert -size WxH xc:<colour> <format>:<file>`): real
// encoder output, so the header reader meets the layouts encoders write.
const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

const base64 = (bytes: Uint8Array) => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

describe('readImageSize', () => {
  it.each([
    ['gpt4o-1024x1024.png', 1024, 1024],
    ['claude-1092x1092.jpg', 1092, 1092],
    ['progressive-1092x1092.jpg', 1092, 1092],
    ['small-200x200.gif', 200, 200],
    ['tall-2048x4096.webp', 2048, 4096],
    ['lossless-300x200.webp', 300, 200],
    ['alpha-120x80.webp', 120, 80],
    ['tiny-64x48.bmp', 64, 48],
  ])('reads %s as %i x %i from its header', (name, width, height) => {
    expect(readImageSize(fixture(name))).toEqual({ width, height });
  });

  it('says nothing of bytes that are no image, or a header cut short', () => {
    expect(readImageSize(new Uint8Array([1, 2, 3]))).toBeUndefined();
    expect(readImageSize(fixture('claude-1092x1092.jpg').subarray(0, 100))).toBeUndefined();
    expect(readImageSize(fixture('gpt4o-1024x1024.png').subarray(0, 20))).toBeUndefined();
  });
});

describe('mediaBytes', () => {
  it('decodes base64 and data URLs, and leaves URLs alone', () => {
    const png = fixture('gpt4o-1024x1024.png');
    expect(mediaBytes(base64(png))).toEqual(png);
    expect(mediaBytes(`data:image/png;base64,${base64(png)}`)).toEqual(png);
    expect(mediaBytes(`DATA:image/png;base64,${base64(png)}`)).toEqual(png);
    expect(mediaBytes(png.buffer as ArrayBuffer)).toEqual(png);
    expect(mediaBytes('https://example.com/a.png')).toBeUndefined();
    expect(mediaBytes(new URL('https://example.com/a.png'))).toBeUndefined();
    expect(mediaBytes('not base64!')).toBeUndefined();
  });
});

describe('withMediaPricing', () => {
  const text = createHeuristicCounter();
  const image = (
    bytes: Uint8Array | string,
    options?: ImagePart['providerOptions'],
  ): ImagePart => ({
    type: 'image',
    image: bytes,
    mediaType: 'image/png',
    ...(options ? { providerOptions: options } : {}),
  });

  it("reproduces OpenAI's worked examples from the image's own header", () => {
    const counter = withMediaPricing(text, { provider: 'openai', model: 'gpt-4o' });
    expect(counter.countMedia?.(image(fixture('gpt4o-1024x1024.png')))).toBe(765);
    expect(counter.countMedia?.(image(base64(fixture('tall-2048x4096.webp'))))).toBe(1105);
    const low = image(fixture('gpt4o-1024x1024.png'), { openai: { imageDetail: 'low' } });
    expect(counter.countMedia?.(low)).toBe(85);
    const lowByDefault = withMediaPricing(text, {
      provider: 'openai',
      model: 'gpt-4o',
      detail: 'low',
    });
    expect(lowByDefault.countMedia?.(image(fixture('gpt4o-1024x1024.png')))).toBe(85);
  });

  it("reproduces Anthropic's and Gemini's worked examples", () => {
    const claude = withMediaPricing(text, { provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(claude.countMedia?.(image(fixture('claude-1092x1092.jpg')))).toBe(1521);
    const gemini = withMediaPricing(text, { provider: 'gemini', model: 'gemini-2.5-flash' });
    expect(gemini.countMedia?.(image(fixture('small-200x200.gif')))).toBe(258);
  });

  it('prices a file whose media type is an image as that image, detail and all', () => {
    const asFile = (part: ImagePart): FilePart => {
      const { image: data, mediaType, ...rest } = part;
      return { ...rest, type: 'file', data, mediaType: (mediaType as string).toUpperCase() };
    };
    for (const target of [
      { provider: 'openai', model: 'gpt-4o' },
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      { provider: 'gemini', model: 'gemini-3-pro' },
    ] as const) {
      const counter = withMediaPricing(text, target);
      for (const part of [
        image(fixture('gpt4o-1024x1024.png')),
        image(base64(fixture('tall-2048x4096.webp'))),
        image(fixture('small-200x200.gif'), { openai: { imageDetail: 'low' } }),
        image('https://example.com/a.png'),
      ]) {
        expect(counter.countMedia?.(asFile(part)), target.provider).toBe(
          counter.countMedia?.(part),
        );
      }
    }
  });

  it('prices an image by URL at the most one image costs on the model', () => {
    const claude = withMediaPricing(text, { provider: 'anthropic', model: 'claude-sonnet-4-5' });
    const byUrl = image('https://example.com/a.png');
    expect(claude.countMedia?.(byUrl)).toBe(countAnthropicImageTokens({}, 'claude-sonnet-4-5'));
  });

  it('counts PDF pages from their page objects, text files by their text, others by the estimate', () => {
    const pdf = new TextEncoder().encode(
      '%PDF-1.4\n1 0 obj << /Type /Pages /Count 3 >> endobj\n2 0 obj << /Type /Page >> endobj\n3 0 obj <</Type/Page>> endobj\n4 0 obj << /Type /Page /Parent 1 0 R >> endobj\n%%EOF',
    );
    const target = { provider: 'anthropic', model: 'claude-sonnet-4-5' } as const;
    const counter = withMediaPricing(text, target);
    const file = (data: FilePart['data'], mediaType: string): FilePart => ({
      type: 'file',
      data,
      mediaType,
    });
    expect(counter.countMedia?.(file(pdf, 'application/pdf'))).toBe(
      estimatePdfTokens({ pages: 3 }, target),
    );
    expect(counter.countMedia?.(file('https://example.com/a.pdf', 'application/pdf'))).toBe(
      estimatePdfTokens({ pages: URL_PDF_PAGES }, target),
    );
    const opaquePdf = new Uint8Array(PDF_BYTES_PER_PAGE * 2 + 1);
    expect(counter.countMedia?.(file(opaquePdf, 'application/pdf'))).toBe(
      estimatePdfTokens({ pages: 3 }, target),
    );
    const notes = 'Deploy at noon. Roll back if the error rate passes 2 percent.';
    expect(counter.countMedia?.(file(base64(new TextEncoder().encode(notes)), 'text/plain'))).toBe(
      text.count(notes),
    );
    const audio = file(new Uint8Array(3000), 'audio/wav');
    expect(counter.countMedia?.(audio)).toBe(estimateMediaTokens(audio));
  });

  it('makes message counts include media, under a name of its own', () => {
    const counter = withMediaPricing(text, { provider: 'openai', model: 'gpt-4o' });
    expect(counter.name).toBe(`${text.name}+media:openai:gpt-4o`);
    const message: Message = {
      role: 'user',
      content: [{ type: 'text', text: 'What is this?' }, image(fixture('gpt4o-1024x1024.png'))],
    };
    expect(countMessageTokens(message, counter)).toBe(4 + text.count('What is this?') + 765);
  });

  it('refuses a bad target or setting when made, naming it', () => {
    expectInvalidOption(
      () => withMediaPricing(text, { provider: 'acme' } as never),
      'target.provider',
    );
    expectInvalidOption(
      () => withMediaPricing(text, { provider: 'openai', model: '' }),
      'target.model',
    );
    expectInvalidOption(
      () => withMediaPricing({} as never, { provider: 'openai', model: 'gpt-4o' }),
      'counter',
    );
  });
});
