import {
  countMessageTokens,
  DEFAULT_IMAGE_TOKENS,
  type FilePart,
  type ImagePart,
  type Message,
} from '@ctxkit/context-core';
import {
  countAnthropicImageTokens,
  countOpenAIImageTokens,
  createHeuristicCounter,
  createTiktokenCounter,
  estimatePdfTokens,
} from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import {
  IMAGE_FIXTURE_FORMATS,
  imageFixture,
  pdfWithPages,
  screenshotPng,
  toBase64,
} from '../../context-core/test/fixtures/media-files.js';
import { createContextManager } from '../src/index.js';

const QUESTION = 'What does the error dialog in this screenshot say?';

function askWith(part: ImagePart | FilePart): Message[] {
  return [{ id: 'u1', role: 'user', content: [{ type: 'text', text: QUESTION }, part] }];
}

/** The tokens of the question alone, framing included, by the manager's own counter. */
function questionTokens(counter: Parameters<typeof countMessageTokens>[1]): number {
  return countMessageTokens({ role: 'user', content: [{ type: 'text', text: QUESTION }] }, counter);
}

describe('media priced by the model by default', () => {
  const screenshot = screenshotPng();

  it('sends a 1.5 MB screenshot given as a file part unchanged under gpt-4o’s default budget, at the price OpenAI’s formula gives', async () => {
    expect(screenshot.length).toBeGreaterThan(1_400_000);
    const manager = createContextManager({ model: 'gpt-4o' });
    // The first user message, pinned: before, every fit threw BudgetError.
    const messages: Message[] = askWith({
      type: 'file',
      data: screenshot,
      mediaType: 'image/png',
    }).map((message) => ({ ...message, meta: { pinned: true } }));
    const fit = await manager.fit(messages);
    expect(fit.messages).toEqual(messages);
    const formula = countOpenAIImageTokens({ width: 1280, height: 800 }, 'gpt-4o');
    expect(formula).toBe(1105);
    const imageTokens = fit.report.estimatedTokens - questionTokens(manager.counter);
    expect(Math.abs(imageTokens - formula)).toBeLessThanOrEqual(formula * 0.1);
  });

  it('prices an image the same as an image part, as a file part, in bytes or base64', () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const count = (part: ImagePart | FilePart) =>
      countMessageTokens(askWith(part)[0] as Message, manager.counter);
    for (const format of IMAGE_FIXTURE_FORMATS) {
      const { bytes, mediaType, width, height } = imageFixture(format);
      const expected =
        countOpenAIImageTokens({ width, height }, 'gpt-4o') + questionTokens(manager.counter);
      expect(count({ type: 'image', image: bytes, mediaType }), format).toBe(expected);
      expect(count({ type: 'file', data: bytes, mediaType }), format).toBe(expected);
      expect(count({ type: 'file', data: toBase64(bytes), mediaType }), format).toBe(expected);
    }
  });

  it('uses the model’s provider: a Claude model prices images by Anthropic’s formula', () => {
    const manager = createContextManager({ model: 'claude-sonnet-4-5' });
    const { bytes, mediaType, width, height } = imageFixture('jpeg');
    const tokens = countMessageTokens(
      askWith({ type: 'file', data: bytes, mediaType })[0] as Message,
      manager.counter,
    );
    expect(tokens - questionTokens(manager.counter)).toBe(
      countAnthropicImageTokens({ width, height }, 'claude-sonnet-4-5'),
    );
  });

  it('prices a PDF by its pages and a text file by its text', () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const pdf = countMessageTokens(
      askWith({ type: 'file', data: pdfWithPages(3), mediaType: 'application/pdf' })[0] as Message,
      manager.counter,
    );
    expect(pdf - questionTokens(manager.counter)).toBe(
      estimatePdfTokens({ pages: 3 }, { provider: 'openai', model: 'gpt-4o' }),
    );
    const text = 'line one of the log\n'.repeat(50);
    const file = countMessageTokens(
      askWith({
        type: 'file',
        data: new TextEncoder().encode(text),
        mediaType: 'text/plain',
      })[0] as Message,
      manager.counter,
    );
    expect(file - questionTokens(manager.counter)).toBe(manager.counter.count(text));
  });

  it('prices media for a counter given without countMedia, and keeps one that has its own', () => {
    const given = createHeuristicCounter();
    const priced = createContextManager({ model: 'gpt-4o', counter: given }).counter;
    expect(priced.name).toBe(`${given.name}+media:openai:gpt-4o`);
    expect(priced.count('hello world')).toBe(given.count('hello world'));
    const own = { ...given, countMedia: () => 7 };
    expect(createContextManager({ model: 'gpt-4o', counter: own }).counter).toBe(own);
  });

  it('estimates media where the model is unknown: an image file at the default image price, not by its bytes', () => {
    const manager = createContextManager({ model: 'my-local-model', maxTokens: 32_000 });
    expect(manager.counter.name).toBe(createTiktokenCounter().name);
    const tokens = countMessageTokens(
      askWith({ type: 'file', data: screenshot, mediaType: 'image/png' })[0] as Message,
      manager.counter,
    );
    expect(tokens - questionTokens(manager.counter)).toBe(DEFAULT_IMAGE_TOKENS);
  });
});
