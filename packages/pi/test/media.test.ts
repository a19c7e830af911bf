import type { FitReport } from '@ctxkit/context-core';
import { createContextManager } from '@ctxkit/context-manager';
import { countOpenAIImageTokens } from '@ctxkit/token-counters';
import { Agent, type AgentMessage, type AgentTool } from '@mariozechner/pi-agent-core';
import {
  type Context,
  fauxAssistantMessage,
  fauxToolCall,
  type ImageContent,
  registerFauxProvider,
  Type,
} from '@mariozechner/pi-ai';
import { afterAll, describe, expect, it } from 'vitest';
import {
  IMAGE_FIXTURE_FORMATS,
  imageFixture,
  screenshotPng,
  toBase64,
} from '../../context-core/test/fixtures/media-files.js';
import { contextTransform, toCtxkitMessages } from '../src/index.js';

// Screenshots as pi carries them (an ImageContent of base64 `data` and `mimeType`), in the user's
// prompt and in a tool's result: counted by gpt-4o's formula through contextTransform as pi's own
// Agent calls it, and sent to the model as they came. pi has no content type for documents, so
// no PDF here.

const QUESTION = 'What does the error dialog in this screenshot say?';
const SYSTEM = 'You read screenshots.';

const faux = registerFauxProvider({
  models: [
    { id: 'faux-vision', contextWindow: 128_000, maxTokens: 4_000, input: ['text', 'image'] },
  ],
});
afterAll(() => faux.unregister());

/** A tool whose result holds a line of text and `image`, or the line alone. */
function screenshotTool(image: ImageContent | undefined): AgentTool {
  return {
    name: 'screenshot',
    label: 'Screenshot',
    description: 'Takes a screenshot of the screen.',
    parameters: Type.Object({}),
    execute: async () => ({
      content: [{ type: 'text', text: QUESTION }, ...(image === undefined ? [] : [image])],
      details: {},
    }),
  };
}

/**
 * pi's Agent on the faux model, its transformContext fitting for gpt-4o: the prompt `images`
 * go with the question, or (`viaTool`) the model calls a screenshot tool that returns them.
 * Gives the fits and the messages of the model's last request.
 */
async function runAgent(
  image: ImageContent | undefined,
  viaTool: boolean,
): Promise<{ reports: FitReport[]; sent: Context['messages']; agent: Agent }> {
  const reports: FitReport[] = [];
  const requests: Context[] = [];
  const answer = (context: Context) => {
    requests.push({ ...context, messages: [...context.messages] });
    return fauxAssistantMessage('It says the disk is full.');
  };
  faux.setResponses(
    viaTool
      ? [
          (context: Context) => {
            requests.push({ ...context, messages: [...context.messages] });
            return fauxAssistantMessage([fauxToolCall('screenshot', {}, { id: 'shot_1' })], {
              stopReason: 'toolUse',
            });
          },
          answer,
        ]
      : [answer],
  );
  const agent = new Agent({
    initialState: {
      model: faux.getModel(),
      systemPrompt: SYSTEM,
      tools: viaTool ? [screenshotTool(image)] : [],
    },
  });
  agent.transformContext = contextTransform({
    model: 'gpt-4o',
    context: () => agent.state,
    onFit: (report) => reports.push(report),
    onError: (error) => {
      throw error;
    },
  });
  if (viaTool) await agent.prompt('Take a screenshot of the error.');
  else await agent.prompt(QUESTION, image === undefined ? [] : [image]);
  expect(agent.state.errorMessage).toBeUndefined();
  return { reports, sent: requests.at(-1)?.messages ?? [], agent };
}

/** What `fit` reports for the same messages converted by the adapter, with the agent's prompt. */
async function directCount(messages: readonly AgentMessage[], agent: Agent): Promise<number> {
  const manager = createContextManager({ model: 'gpt-4o' });
  const tools = agent.state.tools.map(({ name, description, parameters }) => ({
    name,
    description,
    parameters: parameters as unknown as Record<string, unknown>,
  }));
  const { report } = await manager.fit(toCtxkitMessages(messages), {
    system: SYSTEM,
    ...(tools.length > 0 ? { tools } : {}),
  });
  return report.promptTokens;
}

describe('images in pi’s ImageContent, priced for gpt-4o through contextTransform', () => {
  for (const viaTool of [false, true]) {
    const where = viaTool ? 'in a tool’s result' : 'in the user’s prompt';

    it(`${where}: counts PNG, JPEG, WebP and GIF as fit does, at OpenAI's price, and sends them as they came`, async () => {
      const { reports: bare } = await runAgent(undefined, viaTool);
      for (const format of IMAGE_FIXTURE_FORMATS) {
        const { bytes, mediaType, width, height } = imageFixture(format);
        const image: ImageContent = { type: 'image', data: toBase64(bytes), mimeType: mediaType };
        const { reports, sent, agent } = await runAgent(image, viaTool);
        const last = reports.at(-1) as FitReport;
        expect(last.promptTokens, format).toBe(await directCount(sent, agent));
        expect(last.promptTokens - (bare.at(-1)?.promptTokens ?? 0), format).toBe(
          countOpenAIImageTokens({ width, height }, 'gpt-4o'),
        );
        // The request holds the transcript's own messages, the image as it was given.
        const transcript = agent.state.messages.slice(0, sent.length);
        for (const [index, message] of sent.entries()) {
          expect(message, format).toBe(transcript[index]);
        }
        expect(JSON.stringify(sent), format).toContain(JSON.stringify(image));
      }
    });
  }
});

describe('a 1.5 MB screenshot in pi’s ImageContent', () => {
  const screenshot = screenshotPng();
  const image: ImageContent = { type: 'image', data: toBase64(screenshot), mimeType: 'image/png' };
  // OpenAI's figure for 1280 x 800 on gpt-4o: 85 + 170 per 512-px tile of 1229 x 768 (6).
  const formula = 85 + 6 * 170;

  it('reaches the model unchanged under gpt-4o’s default budget, in the prompt and in a tool’s result, counted within 10% of OpenAI’s formula', async () => {
    expect(screenshot.length).toBeGreaterThan(1_400_000);
    expect(countOpenAIImageTokens({ width: 1280, height: 800 }, 'gpt-4o')).toBe(formula);
    for (const viaTool of [false, true]) {
      const { reports: bare } = await runAgent(undefined, viaTool);
      const { reports, sent } = await runAgent(image, viaTool);
      const last = reports.at(-1) as FitReport;
      expect(last.changes.every((change) => change.action === 'kept')).toBe(true);
      expect(last.promptTokens).toBeLessThanOrEqual(last.maxTokens);
      expect(JSON.stringify(sent)).toContain(JSON.stringify(image));
      const imageTokens = last.promptTokens - (bare.at(-1)?.promptTokens ?? 0);
      expect(Math.abs(imageTokens - formula)).toBeLessThanOrEqual(formula * 0.1);
    }
  });
});
