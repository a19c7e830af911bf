import { createContextManager } from '@ctxkit/context-manager';
import { countOpenAIImageTokens, estimatePdfTokens } from '@ctxkit/token-counters';
import { Agent, type AgentInputItem, run, type ToolOutputImage, tool } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  IMAGE_FIXTURE_FORMATS,
  imageFixture,
  pdfWithPages,
  screenshotPng,
  toBase64,
} from '../../context-core/test/fixtures/media-files.js';
import {
  agentToolDeclarations,
  contextInputFilter,
  type InputFit,
  itemsToMessages,
} from '../src/index.js';
import { assistantSays, ScriptedModel } from './scripted-model.js';

// Screenshots and documents as the Agents SDK carries them (`input_image` and `input_file` by
// data URL in a user message; `image` and `file` pieces, or `input_*` ones, in a function call's
// output): counted by gpt-4o's formula through a real run() with contextInputFilter, and sent to
// the model as they came.

const QUESTION = 'What does the error dialog in this screenshot say?';
const INSTRUCTIONS = 'Answer briefly.';

/** A content part or output piece holding an image or a document, and gpt-4o's price for it. */
interface MediaShape {
  readonly name: string;
  readonly piece: Record<string, unknown>;
  readonly tokens: number;
}

function userShapes(): MediaShape[] {
  const images = IMAGE_FIXTURE_FORMATS.flatMap((format) => {
    const { bytes, mediaType, width, height } = imageFixture(format);
    const dataUrl = `data:${mediaType};base64,${toBase64(bytes)}`;
    const tokens = countOpenAIImageTokens({ width, height }, 'gpt-4o');
    return [
      { name: `${format} input_image`, piece: { type: 'input_image', image: dataUrl }, tokens },
      {
        name: `${format} input_image, detail high`,
        piece: { type: 'input_image', image: dataUrl, detail: 'high' },
        tokens,
      },
      {
        name: `${format} input_file`,
        piece: { type: 'input_file', file: dataUrl, filename: `shot.${format}` },
        tokens,
      },
    ];
  });
  return [
    ...images,
    {
      name: 'PDF input_file',
      piece: { type: 'input_file', file: pdfDataUrl(), filename: 'report.pdf' },
      tokens: pdfTokens(),
    },
  ];
}

/** A function call's output holding an image or a document: one piece, or `input_*` in a list. */
interface OutputShape extends MediaShape {
  readonly single: boolean;
}

function toolOutputShapes(): OutputShape[] {
  const images = IMAGE_FIXTURE_FORMATS.flatMap((format) => {
    const { bytes, mediaType, width, height } = imageFixture(format);
    const base64 = toBase64(bytes);
    const dataUrl = `data:${mediaType};base64,${base64}`;
    const filename = `shot.${format}`;
    const tokens = countOpenAIImageTokens({ width, height }, 'gpt-4o');
    return [
      { name: `${format} image, data URL`, piece: { type: 'image', image: dataUrl }, single: true },
      {
        name: `${format} image, base64`,
        piece: { type: 'image', image: { data: base64, mediaType } },
        single: true,
      },
      {
        name: `${format} image, bytes`,
        piece: { type: 'image', image: { data: bytes, mediaType } },
        single: true,
      },
      { name: `${format} file, data URL`, piece: { type: 'file', file: dataUrl }, single: true },
      {
        name: `${format} file, base64`,
        piece: { type: 'file', file: { data: base64, mediaType, filename } },
        single: true,
      },
      {
        name: `${format} input_image in a list`,
        piece: { type: 'input_image', image: dataUrl },
        single: false,
      },
      {
        name: `${format} input_file in a list`,
        piece: { type: 'input_file', file: dataUrl, filename },
        single: false,
      },
    ].map((shape) => ({ ...shape, tokens }));
  });
  const base64 = toBase64(pdfWithPages(3));
  const pdfs = [
    { name: 'PDF file, data URL', piece: { type: 'file', file: pdfDataUrl() }, single: true },
    {
      name: 'PDF file, base64',
      piece: {
        type: 'file',
        file: { data: base64, mediaType: 'application/pdf', filename: 'report.pdf' },
      },
      single: true,
    },
    {
      name: 'PDF input_file in a list',
      piece: { type: 'input_file', file: pdfDataUrl(), filename: 'report.pdf' },
      single: false,
    },
  ].map((shape) => ({ ...shape, tokens: pdfTokens() }));
  return [...images, ...pdfs];
}

function pdfDataUrl(): string {
  return `data:application/pdf;base64,${toBase64(pdfWithPages(3))}`;
}

function pdfTokens(): number {
  return estimatePdfTokens({ pages: 3 }, { provider: 'openai', model: 'gpt-4o' });
}

/** The question with `piece` in the user message. */
function asking(piece: Record<string, unknown> | undefined): AgentInputItem[] {
  return [
    {
      role: 'user',
      content: [{ type: 'input_text', text: QUESTION }, ...(piece === undefined ? [] : [piece])],
    } as AgentInputItem,
  ];
}

/**
 * A screenshot tool called and answered with `piece`: the output itself (`single`), or a list of
 * a line of text and `piece`; no `piece`, an output without it.
 */
function toolAnswering(
  piece: Record<string, unknown> | undefined,
  single: boolean,
): AgentInputItem[] {
  const text = { type: 'input_text', text: QUESTION };
  const output = single ? (piece ?? []) : [text, ...(piece === undefined ? [] : [piece])];
  return [
    { role: 'user', content: 'Take a screenshot of the error.' },
    {
      type: 'function_call',
      callId: 'shot_1',
      name: 'screenshot',
      arguments: '{}',
      status: 'completed',
    },
    {
      type: 'function_call_result',
      callId: 'shot_1',
      name: 'screenshot',
      status: 'completed',
      output,
    } as AgentInputItem,
  ];
}

function readerAgent(model: ScriptedModel): Agent {
  return new Agent({ name: 'reader', instructions: INSTRUCTIONS, model });
}

/**
 * What `fit` reports for the same items converted by the adapter, with the agent's instructions
 * and tools, by a manager of its own.
 */
async function directCount(
  input: AgentInputItem[],
  agent: Agent = readerAgent(new ScriptedModel(() => [])),
): Promise<number> {
  const manager = createContextManager({ model: 'gpt-4o' });
  const { report } = await manager.fit(itemsToMessages(input), {
    system: INSTRUCTIONS,
    tools: agentToolDeclarations(agent),
  });
  return report.promptTokens;
}

/** One run() with the filter: its fits, and the input the model received. */
async function runWith(input: AgentInputItem[]): Promise<{ fits: InputFit[]; sent: unknown }> {
  const fits: InputFit[] = [];
  const model = new ScriptedModel(() => [assistantSays('It says the disk is full.')]);
  await run(readerAgent(model), input, {
    callModelInputFilter: contextInputFilter({
      model: 'gpt-4o',
      onFit: (fit) => fits.push(fit),
    }),
  });
  return { fits, sent: model.requests[0]?.input };
}

/**
 * A run() whose model calls a screenshot tool that returns `value`, then answers: the fits, and
 * the input of the second model call (with the SDK's own function_call_result).
 */
async function runTool(
  value: unknown,
): Promise<{ fits: InputFit[]; sent: AgentInputItem[]; agent: Agent }> {
  const fits: InputFit[] = [];
  const screenshot = tool({
    name: 'screenshot',
    description: 'Takes a screenshot of the screen.',
    parameters: z.object({}),
    execute: async () => value as ToolOutputImage,
  });
  const model = new ScriptedModel((_request, step) =>
    step === 0
      ? [
          {
            type: 'function_call',
            callId: 'shot_1',
            name: 'screenshot',
            arguments: '{}',
            status: 'completed',
          },
        ]
      : [assistantSays('It says the disk is full.')],
  );
  const agent = new Agent({
    name: 'reader',
    instructions: INSTRUCTIONS,
    model,
    tools: [screenshot],
  });
  await run(agent, QUESTION, {
    callModelInputFilter: contextInputFilter({ model: 'gpt-4o', onFit: (fit) => fits.push(fit) }),
  });
  return { fits, sent: (model.requests[1]?.input ?? []) as AgentInputItem[], agent };
}

/** `items` with every function call's output emptied. */
function withoutOutput(items: AgentInputItem[]): AgentInputItem[] {
  return items.map((item) =>
    item.type === 'function_call_result' ? ({ ...item, output: [] } as AgentInputItem) : item,
  );
}

describe('images and PDFs in every Agents SDK shape, priced for gpt-4o through run()', () => {
  it('in a user message: counts each as fit does, at the provider’s price, and sends it as it came', async () => {
    const without = await directCount(asking(undefined));
    for (const { name, piece, tokens } of userShapes()) {
      const input = asking(piece);
      const { fits, sent } = await runWith(input);
      const promptTokens = fits[0]?.report.promptTokens ?? 0;
      expect(promptTokens, name).toBe(await directCount(input));
      expect(promptTokens - without, name).toBe(tokens);
      expect(sent, name).toEqual(input);
    }
  });

  it('in a function call’s output: counts each as fit does, at the provider’s price, and sends it as it came', async () => {
    for (const { name, piece, tokens, single } of toolOutputShapes()) {
      const input = toolAnswering(piece, single);
      const { fits, sent } = await runWith(input);
      const promptTokens = fits[0]?.report.promptTokens ?? 0;
      expect(promptTokens, name).toBe(await directCount(input));
      expect(promptTokens - (await directCount(toolAnswering(undefined, single))), name).toBe(
        tokens,
      );
      expect(sent, name).toEqual(input);
    }
  });

  it('returned by a tool: the output the SDK makes of it is counted at the provider’s price', async () => {
    const returns = [
      ...IMAGE_FIXTURE_FORMATS.flatMap((format) => {
        const { bytes, mediaType, width, height } = imageFixture(format);
        const tokens = countOpenAIImageTokens({ width, height }, 'gpt-4o');
        return [
          { name: `${format} image`, value: { type: 'image', image: { data: bytes, mediaType } } },
          {
            name: `${format} file`,
            value: { type: 'file', file: { data: toBase64(bytes), mediaType, filename: 'shot' } },
          },
        ].map((shape) => ({ ...shape, tokens }));
      }),
      {
        name: 'PDF file',
        value: {
          type: 'file',
          file: { data: pdfWithPages(3), mediaType: 'application/pdf', filename: 'report.pdf' },
        },
        tokens: pdfTokens(),
      },
    ];
    for (const { name, value, tokens } of returns) {
      const { fits, sent, agent } = await runTool(value);
      const promptTokens = fits[1]?.report.promptTokens ?? 0;
      expect(promptTokens, name).toBe(await directCount(sent, agent));
      expect(promptTokens - (await directCount(withoutOutput(sent), agent)), name).toBe(tokens);
    }
  });
});

describe('a 1.5 MB screenshot in an Agents SDK input', () => {
  const screenshot = screenshotPng();
  const base64 = toBase64(screenshot);
  const dataUrl = `data:image/png;base64,${base64}`;
  // OpenAI's figure for 1280 x 800 on gpt-4o: 85 + 170 per 512-px tile of 1229 x 768 (6).
  const formula = 85 + 6 * 170;
  const inputs = [
    {
      name: 'input_image',
      input: asking({ type: 'input_image', image: dataUrl }),
      without: asking(undefined),
    },
    {
      name: 'input_file',
      input: asking({ type: 'input_file', file: dataUrl, filename: 'shot.png' }),
      without: asking(undefined),
    },
    {
      name: 'output image',
      input: toolAnswering(
        { type: 'image', image: { data: base64, mediaType: 'image/png' } },
        true,
      ),
      without: toolAnswering(undefined, true),
    },
    {
      name: 'output file',
      input: toolAnswering({ type: 'file', file: dataUrl }, true),
      without: toolAnswering(undefined, true),
    },
  ];

  it('reaches the model unchanged through run() under gpt-4o’s default budget, counted within 10% of OpenAI’s formula', async () => {
    expect(screenshot.length).toBeGreaterThan(1_400_000);
    expect(countOpenAIImageTokens({ width: 1280, height: 800 }, 'gpt-4o')).toBe(formula);
    for (const { name, input, without } of inputs) {
      const { fits, sent } = await runWith(input);
      const report = fits[0]?.report;
      expect(
        report?.changes.every((change) => change.action === 'kept'),
        name,
      ).toBe(true);
      expect(report?.promptTokens, name).toBeLessThanOrEqual(report?.maxTokens ?? 0);
      expect(sent, name).toEqual(input);
      const imageTokens = (report?.promptTokens ?? 0) - (await directCount(without));
      expect(Math.abs(imageTokens - formula), name).toBeLessThanOrEqual(formula * 0.1);
    }
  });

  it('returned by a tool as an image or a file, reaches the model within the default budget at OpenAI’s price', async () => {
    const returns = [
      { type: 'image', image: { data: screenshot, mediaType: 'image/png' } },
      { type: 'file', file: { data: base64, mediaType: 'image/png', filename: 'shot.png' } },
    ];
    for (const value of returns) {
      const { fits, sent, agent } = await runTool(value);
      const report = fits[1]?.report;
      expect(
        report?.changes.every((change) => change.action === 'kept'),
        value.type,
      ).toBe(true);
      expect(JSON.stringify(sent), value.type).toContain(dataUrl);
      const imageTokens =
        (report?.promptTokens ?? 0) - (await directCount(withoutOutput(sent), agent));
      expect(Math.abs(imageTokens - formula), value.type).toBeLessThanOrEqual(formula * 0.1);
    }
  });
});
