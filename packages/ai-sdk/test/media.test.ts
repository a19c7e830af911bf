import type { LanguageModelV4GenerateResult, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { countMessageTokens, type FitReport, type Message } from '@ctxkit/context-core';
import { createContextManager } from '@ctxkit/context-manager';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  IMAGE_FIXTURE_FORMATS,
  imageFixture,
  pdfWithPages,
  screenshotPng,
  toBase64,
} from '../../context-core/test/fixtures/media-files.js';
import { contextMiddleware, contextPrepareStep, fromPrompt } from '../src/index.js';

// Screenshots and documents as the AI SDK carries them: counted by gpt-4o's formula whether they
// come as image parts or as file parts, through the middleware and through prepareStep alike.

const QUESTION = 'What does the error dialog in this screenshot say?';

function answeringModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async (): Promise<LanguageModelV4GenerateResult> => ({
      content: [{ type: 'text', text: 'It says the disk is full.' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: {
          total: undefined,
          noCache: undefined,
          cacheRead: undefined,
          cacheWrite: undefined,
        },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

/** What the same prompt costs given to `fit` directly, by a manager of its own. */
async function directCount(prompt: LanguageModelV4Prompt): Promise<number> {
  const { messages } = fromPrompt(prompt);
  return (await createContextManager({ model: 'gpt-4o' }).fit(messages)).report.promptTokens;
}

describe('a 1.5 MB screenshot sent as an AI SDK file part', () => {
  it('arrives unchanged through the middleware under gpt-4o’s default budget, counted within 10% of OpenAI’s formula', async () => {
    const screenshot = screenshotPng();
    expect(screenshot.length).toBeGreaterThan(1_400_000);
    const reports: FitReport[] = [];
    const mock = answeringModel();
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: QUESTION },
          { type: 'file', data: screenshot, mediaType: 'image/png' },
        ],
      },
    ];
    await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: contextMiddleware({ model: 'gpt-4o', onFit: (report) => reports.push(report) }),
      }),
      messages,
    });
    const sent = mock.doGenerateCalls[0]?.prompt ?? [];
    expect(sent).toHaveLength(1);
    expect(sent[0]?.content).toMatchObject([
      { type: 'text', text: QUESTION },
      { type: 'file', mediaType: 'image/png' },
    ]);
    const manager = createContextManager({ model: 'gpt-4o' });
    const question: Message = { role: 'user', content: [{ type: 'text', text: QUESTION }] };
    const imageTokens =
      (reports[0]?.promptTokens ?? 0) - countMessageTokens(question, manager.counter);
    // OpenAI's formula for 1280 x 800 on gpt-4o: 85 + 170 per 512-px tile of 1229 x 768 (6).
    const formula = 85 + 6 * 170;
    expect(Math.abs(imageTokens - formula)).toBeLessThanOrEqual(formula * 0.1);
  });
});

describe('images and PDFs in every AI SDK shape', () => {
  const shapes = IMAGE_FIXTURE_FORMATS.flatMap((format) => {
    const { bytes, mediaType } = imageFixture(format);
    return [
      {
        name: `${format} image part, bytes`,
        part: { type: 'image' as const, image: bytes, mediaType },
      },
      {
        name: `${format} file part, bytes`,
        part: { type: 'file' as const, data: bytes, mediaType },
      },
      {
        name: `${format} file part, base64`,
        part: { type: 'file' as const, data: toBase64(bytes), mediaType },
      },
    ];
  }).concat([
    {
      name: 'PDF of 3 pages',
      part: { type: 'file' as const, data: pdfWithPages(3), mediaType: 'application/pdf' },
    },
  ]);

  it('counts each through the middleware as fit counts the same prompt', async () => {
    for (const { name, part } of shapes) {
      const reports: FitReport[] = [];
      const middleware = contextMiddleware({
        model: 'gpt-4o',
        onFit: (report) => reports.push(report),
      });
      const prompt = [
        {
          role: 'user',
          content: [
            { type: 'text', text: QUESTION },
            part.type === 'image'
              ? { type: 'file', data: part.image, mediaType: part.mediaType }
              : part,
          ],
        },
      ] as LanguageModelV4Prompt;
      const params = await middleware.transformParams?.({
        type: 'generate',
        params: { prompt },
        model: undefined as never,
      });
      expect(params?.prompt, name).toEqual(prompt);
      expect(reports[0]?.promptTokens, name).toBe(await directCount(prompt));
    }
  });

  it('counts each through prepareStep as the middleware does', async () => {
    for (const { name, part } of shapes) {
      const viaPrepareStep: FitReport[] = [];
      const viaMiddleware: FitReport[] = [];
      const messages: ModelMessage[] = [
        { role: 'user', content: [{ type: 'text', text: QUESTION }, part] },
      ];
      await generateText({
        model: answeringModel(),
        messages,
        prepareStep: contextPrepareStep({
          model: 'gpt-4o',
          onFit: (report) => viaPrepareStep.push(report),
        }),
      });
      await generateText({
        model: wrapLanguageModel({
          model: answeringModel(),
          middleware: contextMiddleware({
            model: 'gpt-4o',
            onFit: (report) => viaMiddleware.push(report),
          }),
        }),
        messages,
      });
      expect(viaPrepareStep[0]?.promptTokens, name).toBe(viaMiddleware[0]?.promptTokens);
    }
  });
});
