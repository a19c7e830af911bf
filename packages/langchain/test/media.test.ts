import type { FitReport } from '@ctxkit/context-core';
import { createContextManager } from '@ctxkit/context-manager';
import { countOpenAIImageTokens, estimatePdfTokens } from '@ctxkit/token-counters';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  type MessageContent,
  ToolMessage,
} from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import {
  IMAGE_FIXTURE_FORMATS,
  imageFixture,
  pdfWithPages,
  screenshotPng,
  toBase64,
} from '../../context-core/test/fixtures/media-files.js';
import {
  contextMiddleware,
  fitLangChainMessages,
  type LangChainFitResult,
  toCtxkitMessages,
} from '../src/index.js';

// Screenshots and documents as LangChain carries them (OpenAI's `image_url`, the standard v1
// image and file blocks, the legacy `source_type` blocks), in a human message and in a tool
// result: counted by gpt-4o's formula through createAgent's middleware and fitLangChainMessages
// alike, and sent as they came.

const QUESTION = 'What does the error dialog in this screenshot say?';

/** A content block holding an image or a document, and what gpt-4o is charged for it. */
interface MediaShape {
  readonly name: string;
  readonly block: Record<string, unknown>;
  readonly tokens: number;
}

function imageShapes(): MediaShape[] {
  return IMAGE_FIXTURE_FORMATS.flatMap((format) => {
    const { bytes, mediaType, width, height } = imageFixture(format);
    const base64 = toBase64(bytes);
    const dataUrl = `data:${mediaType};base64,${base64}`;
    const tokens = countOpenAIImageTokens({ width, height }, 'gpt-4o');
    return [
      { name: `${format} image_url, data URL`, block: { type: 'image_url', image_url: dataUrl } },
      {
        name: `${format} image_url, { url: data URL }`,
        block: { type: 'image_url', image_url: { url: dataUrl } },
      },
      {
        name: `${format} image, base64`,
        block: { type: 'image', data: base64, mimeType: mediaType },
      },
      {
        name: `${format} image, bytes`,
        block: { type: 'image', data: bytes, mimeType: mediaType },
      },
      { name: `${format} image, data URL`, block: { type: 'image', url: dataUrl } },
      {
        name: `${format} file, base64`,
        block: { type: 'file', data: base64, mimeType: mediaType },
      },
      { name: `${format} file, data URL`, block: { type: 'file', url: dataUrl } },
      {
        name: `${format} legacy image, base64`,
        block: { type: 'image', source_type: 'base64', data: base64, mime_type: mediaType },
      },
      {
        name: `${format} legacy file, base64`,
        block: { type: 'file', source_type: 'base64', data: base64, mime_type: mediaType },
      },
    ].map((shape) => ({ ...shape, tokens }));
  });
}

function pdfShapes(): MediaShape[] {
  const base64 = toBase64(pdfWithPages(3));
  const mediaType = 'application/pdf';
  const tokens = estimatePdfTokens({ pages: 3 }, { provider: 'openai', model: 'gpt-4o' });
  return [
    { name: 'PDF file, base64', block: { type: 'file', data: base64, mimeType: mediaType } },
    {
      name: 'PDF file, data URL',
      block: { type: 'file', url: `data:${mediaType};base64,${base64}` },
    },
    {
      name: 'PDF legacy file, base64',
      block: { type: 'file', source_type: 'base64', data: base64, mime_type: mediaType },
    },
  ].map((shape) => ({ ...shape, tokens }));
}

/** The question with `media` in a human message, or in the result of a tool the model called. */
function conversation(media: Record<string, unknown> | undefined, inTool: boolean): BaseMessage[] {
  const content = [
    { type: 'text', text: QUESTION },
    ...(media === undefined ? [] : [media]),
  ] as MessageContent;
  if (!inTool) return [new HumanMessage({ content, id: 'ask' })];
  return [
    new HumanMessage({ content: 'Take a screenshot of the error.', id: 'ask' }),
    new AIMessage({
      content: '',
      id: 'call',
      tool_calls: [{ id: 'shot_1', name: 'screenshot', args: {} }],
    }),
    new ToolMessage({ content, tool_call_id: 'shot_1', name: 'screenshot', id: 'shot' }),
  ];
}

/** What `fit` reports for the same messages converted by the adapter, by a manager of its own. */
async function directCount(messages: readonly BaseMessage[]): Promise<number> {
  const manager = createContextManager({ model: 'gpt-4o' });
  return (await manager.fit(toCtxkitMessages(messages).messages)).report.promptTokens;
}

/** A createAgent run with the middleware on a fake model: the fits, and what the model got. */
async function runAgent(
  messages: BaseMessage[],
): Promise<{ fits: LangChainFitResult[]; sent: BaseMessage[] }> {
  const model = fakeModel().respond(new AIMessage('It says the disk is full.'));
  const fits: LangChainFitResult[] = [];
  const agent = createAgent({
    model,
    tools: [],
    middleware: [contextMiddleware({ model: 'gpt-4o', onFit: (fit) => fits.push(fit) })],
  });
  await agent.invoke({ messages });
  return { fits, sent: (model.calls[0]?.messages ?? []) as BaseMessage[] };
}

describe('images and PDFs in every LangChain shape, priced for gpt-4o', () => {
  const shapes = [...imageShapes(), ...pdfShapes()];

  for (const inTool of [false, true]) {
    const where = inTool ? 'in a tool result' : 'in a human message';

    it(`${where}: the middleware counts each as fit does, at the provider's price, and sends it as it came`, async () => {
      const without = await directCount(conversation(undefined, inTool));
      for (const { name, block, tokens } of shapes) {
        const messages = conversation(block, inTool);
        const { fits, sent } = await runAgent(messages);
        const promptTokens = fits[0]?.report.promptTokens;
        expect(promptTokens, name).toBe(await directCount(messages));
        expect((promptTokens ?? 0) - without, name).toBe(tokens);
        expect(sent, name).toHaveLength(messages.length);
        for (const [index, message] of sent.entries()) expect(message, name).toBe(messages[index]);
      }
    });

    it(`${where}: fitLangChainMessages counts each as fit does and returns the same objects`, async () => {
      const manager = createContextManager({ model: 'gpt-4o' });
      const without = await directCount(conversation(undefined, inTool));
      for (const { name, block, tokens } of shapes) {
        const messages = conversation(block, inTool);
        const fit = await fitLangChainMessages(manager, messages);
        expect(fit.report.promptTokens, name).toBe(await directCount(messages));
        expect(fit.report.promptTokens - without, name).toBe(tokens);
        for (const [index, message] of fit.messages.entries()) {
          expect(message, name).toBe(messages[index]);
        }
      }
    });
  }
});

describe('a 1.5 MB screenshot in a LangChain message', () => {
  const screenshot = screenshotPng();
  const base64 = toBase64(screenshot);
  const dataUrl = `data:image/png;base64,${base64}`;
  // OpenAI's figure for 1280 x 800 on gpt-4o: 85 + 170 per 512-px tile of 1229 x 768 (6).
  const formula = 85 + 6 * 170;
  const shapes = [
    { name: 'image_url', block: { type: 'image_url', image_url: { url: dataUrl } } },
    { name: 'image', block: { type: 'image', data: base64, mimeType: 'image/png' } },
    { name: 'file', block: { type: 'file', data: base64, mimeType: 'image/png' } },
    {
      name: 'legacy file',
      block: { type: 'file', source_type: 'base64', data: base64, mime_type: 'image/png' },
    },
  ];

  it('arrives unchanged through createAgent under gpt-4o’s default budget, counted within 10% of OpenAI’s formula', async () => {
    expect(screenshot.length).toBeGreaterThan(1_400_000);
    expect(countOpenAIImageTokens({ width: 1280, height: 800 }, 'gpt-4o')).toBe(formula);
    const without = await directCount(conversation(undefined, false));
    for (const { name, block } of shapes) {
      const messages = conversation(block, false);
      const { fits, sent } = await runAgent(messages);
      const report = fits[0]?.report as FitReport;
      expect(
        report.changes.every((change) => change.action === 'kept'),
        name,
      ).toBe(true);
      expect(report.promptTokens, name).toBeLessThanOrEqual(report.maxTokens);
      expect(sent[0], name).toBe(messages[0]);
      const imageTokens = report.promptTokens - without;
      expect(Math.abs(imageTokens - formula), name).toBeLessThanOrEqual(formula * 0.1);
    }
  });
});
