import {
  AbortedError,
  ContextLengthError,
  type ContextManager,
  countTokens,
  createInMemoryEventStore,
  type FitOptions,
  type FitReport,
  InvalidOptionError,
  type Logger,
  type Message,
} from '@ctxkit/context-core';
import { contextErrorRejectedBy } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NEGATIVE_FIXTURES,
  OVERFLOW_FIXTURES,
  type OverflowFixture,
} from '../../context-core/test/fixtures/context-length-errors.js';
import { type AttemptFit, createContextManager, withContextRetry } from '../src/index.js';
import { AGENT_TOOLS, agentHistory } from './agent-history.js';
import { type ChatRequest, ModelApiError, postChat } from './model-client.js';
import { type ModelServer, type ServerAnswer, startModelServer } from './model-server.js';

const BUDGET = 3_000;
const system = 'You are a careful software engineer. Use the tools to find and fix the bug.';
const tools = AGENT_TOOLS;

const SUCCESS: ServerAnswer = {
  status: 200,
  body: { choices: [{ message: { role: 'assistant', content: 'The build is fixed.' } }] },
};

/** The fields the fixtures' errors carry, to put each back on the wire. */
interface FixtureFields {
  status?: number;
  statusCode?: number;
  body?: string;
  responseBody?: string;
  message?: string;
  error?: { code?: number } & Record<string, unknown>;
  code?: number;
  $metadata?: { httpStatusCode: number };
}

/**
 * Each provider's rejection as its server sends it: the status and body the fixture's error was
 * made from (the SDK's `error` field is the body's `error`, or the whole body for Anthropic).
 */
const WIRE: Record<string, (fields: FixtureFields, raw: unknown) => ServerAnswer> = {
  OpenAI: (e) => ({ status: e.status ?? 0, body: { error: e.error } }),
  'Azure OpenAI': (e) => ({ status: e.status ?? 0, body: e.body }),
  Anthropic: (e) => ({ status: e.status ?? 0, body: e.error }),
  Gemini: (e) => ({ status: e.status ?? 0, body: e.message?.slice(e.message.indexOf('{')) }),
  Bedrock: (e) => ({ status: e.$metadata?.httpStatusCode ?? 0, body: { message: e.message } }),
  Mistral: (e) => ({ status: e.statusCode ?? 0, body: e.responseBody }),
  DeepSeek: (e) => ({ status: e.status ?? 0, body: { error: e.error } }),
  Moonshot: (_e, raw) => ({ status: 400, body: raw }),
  OpenRouter: (e, raw) => ({ status: e.error?.code ?? 0, body: raw }),
  vLLM: (e, raw) => ({ status: e.code ?? 0, body: raw }),
  Ollama: (e) => ({ status: e.status ?? 0, body: e.body }),
  'llama.cpp': (e, raw) => ({ status: e.error?.code ?? 0, body: raw }),
};

function wireAnswer(fixture: OverflowFixture): ServerAnswer {
  const toWire = WIRE[fixture.provider];
  if (toWire === undefined) throw new Error(`no wire form for ${fixture.provider}`);
  const raw = fixture.error;
  const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as FixtureFields;
  return toWire(fields, raw);
}

/** The retry's budget the figures call for: `(limit - completion) / (requested - completion)`. */
function figureRatio({ limit, requested, completion = 0 }: OverflowFixture['figures']) {
  return limit === undefined || requested === undefined
    ? undefined
    : (limit - completion) / (requested - completion);
}

function warnings(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const ignore = () => undefined;
  return {
    lines,
    logger: {
      debug: ignore,
      info: ignore,
      error: ignore,
      warn: (line) => lines.push(String(line)),
    },
  };
}

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});

/** The prompt of a request the server received, counted with the manager's counter. */
function promptTokensOf(received: unknown, manager: ContextManager): number {
  const request = received as ChatRequest;
  return (
    countTokens(request.messages, manager.counter) +
    countTokens([{ role: 'system', content: request.system }], manager.counter) +
    manager.countTools(request.tools)
  );
}

/** A step that fits the history and POSTs it, keeping each fit's report. */
function step(url: string, history: readonly Message[], reports: FitReport[], extra?: FitOptions) {
  return async (fitAttempt: AttemptFit) => {
    const { messages, report } = await fitAttempt(history, { system, tools, ...extra });
    reports.push(report);
    return postChat(url, { system, tools, messages });
  };
}

describe('withContextRetry against a model server', () => {
  const retried = OVERFLOW_FIXTURES.filter((fixture) => figureRatio(fixture.figures) !== 0);

  it('has a wire form for every provider fixture, each a 4xx', () => {
    for (const fixture of OVERFLOW_FIXTURES) {
      const { status } = wireAnswer(fixture);
      expect(status, fixture.provider).toBeGreaterThanOrEqual(400);
      expect(status, fixture.provider).toBeLessThan(500);
    }
  });

  it.each(retried.map((fixture) => [fixture.provider, fixture] as const))(
    '%s: refits once to a tighter budget, by its figures when it gives them, and succeeds',
    async (_provider, fixture) => {
      const manager = createContextManager({
        maxTokens: BUDGET,
        counter: createHeuristicCounter(),
      });
      const { url, received } = server.scenario([wireAnswer(fixture), SUCCESS]);
      const events = createInMemoryEventStore();
      const { logger, lines } = warnings();
      const reports: FitReport[] = [];
      const history = agentHistory(30, 1_500);

      const answer = await withContextRetry(
        step(url, history, reports, { conversationId: 'conv-retry' }),
        manager,
        { events, logger },
      );

      expect(answer).toEqual(SUCCESS.body);
      expect(received).toHaveLength(2);
      const [first, second] = reports as [FitReport, FitReport];
      const sentFirst = promptTokensOf(received[0], manager);
      const sentSecond = promptTokensOf(received[1], manager);
      expect(sentFirst).toBe(first.promptTokens);
      expect(first.maxTokens).toBe(BUDGET);
      expect(sentSecond).toBe(second.promptTokens);
      expect(sentSecond).toBeLessThan(sentFirst);
      expect(sentSecond).toBeLessThanOrEqual(second.maxTokens);
      expect(second.maxTokens).toBeLessThan(first.maxTokens);

      const ratio = figureRatio(fixture.figures);
      const expected =
        ratio === undefined
          ? Math.floor(first.promptTokens * 0.75)
          : Math.min(BUDGET - 1, Math.floor(first.promptTokens * ratio * 0.9));
      expect(second.maxTokens).toBe(expected);

      const fallbacks = await events.listEvents('conv-retry', { type: 'context.fallback' });
      expect(fallbacks).toHaveLength(1);
      const payload = fallbacks[0]?.payload;
      expect(payload?.budgetTokens).toBe(second.maxTokens);
      expect(payload?.modelLimit).toBe(fixture.figures.limit);
      expect(payload?.modelRequested).toBe(fixture.figures.requested);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`retrying once with a budget of ${second.maxTokens} tokens`);
    },
  );

  it('scales by the prompt share when the API counts the completion in requested (Azure)', async () => {
    // 9000 in the messages, 26000 in the completion, window 32768: the prompt may take 6768 of
    // 9000, a ratio of 0.75 where limit / requested alone (0.94) would be refused again.
    const azure = OVERFLOW_FIXTURES.find((fixture) => fixture.provider === 'Azure OpenAI');
    if (azure === undefined) throw new Error('no Azure fixture');
    const manager = createContextManager({ maxTokens: BUDGET, counter: createHeuristicCounter() });
    const { url } = server.scenario([wireAnswer(azure), SUCCESS]);
    const reports: FitReport[] = [];
    await withContextRetry(step(url, agentHistory(30, 1_500), reports), manager);
    const [first, second] = reports as [FitReport, FitReport];
    expect(second.maxTokens).toBeLessThanOrEqual(Math.floor(first.promptTokens * (6768 / 9000)));
  });

  it('makes no retry when the answer reserve alone fills the window (OpenRouter)', async () => {
    const openRouter = OVERFLOW_FIXTURES.find((fixture) => fixture.provider === 'OpenRouter');
    if (openRouter === undefined) throw new Error('no OpenRouter fixture');
    const manager = createContextManager({ maxTokens: BUDGET, counter: createHeuristicCounter() });
    const { url, received } = server.scenario([wireAnswer(openRouter), SUCCESS]);
    const reports: FitReport[] = [];

    const error = await contextErrorRejectedBy(
      withContextRetry(step(url, agentHistory(30, 1_500), reports), manager),
    );

    expect(ContextLengthError.isInstance(error)).toBe(true);
    expect(received).toHaveLength(1);
    expect(error.message).toContain('262000 tokens reserved for the answer');
    expect(error.details).toMatchObject({ limit: 262000, requested: 263390, completion: 262000 });
    expect(error.cause).toBeInstanceOf(ModelApiError);
  });

  it('throws ContextLengthError with both figures and the API error as cause when the retry is refused too', async () => {
    const openAi = OVERFLOW_FIXTURES[0] as OverflowFixture;
    const manager = createContextManager({ maxTokens: BUDGET, counter: createHeuristicCounter() });
    const { url, received } = server.scenario([wireAnswer(openAi)]);
    const reports: FitReport[] = [];
    let calls = 0;

    const error = await contextErrorRejectedBy(
      withContextRetry(async (fitAttempt) => {
        calls += 1;
        return step(url, agentHistory(30, 1_500), reports)(fitAttempt);
      }, manager),
    );

    expect(ContextLengthError.isInstance(error)).toBe(true);
    expect(error.code).toBe('context_length_exceeded');
    expect(calls).toBe(2);
    expect(received).toHaveLength(2);
    const [first, second] = reports as [FitReport, FitReport];
    expect(error.details).toMatchObject({
      limit: 128000,
      requested: 130532,
      attempts: [
        { attempt: 1, maxTokens: BUDGET, promptTokens: first.promptTokens },
        { attempt: 2, maxTokens: second.maxTokens, promptTokens: second.promptTokens },
      ],
    });
    expect(error.message).toContain('128000');
    expect(error.message).toContain('130532');
    expect(error.message).toContain(`${first.promptTokens} prompt tokens of a budget of ${BUDGET}`);
    expect(error.message).toContain(`${second.promptTokens} of ${second.maxTokens}`);
    expect(error.cause).toBeInstanceOf(ModelApiError);
    expect((error.cause as ModelApiError).status).toBe(400);
  });

  it.each([
    [
      'rate limit 429',
      {
        status: 429,
        body: {
          error: {
            message: 'Rate limit reached for requests',
            type: 'requests',
            code: 'rate_limit_exceeded',
          },
        },
      },
    ],
    [
      'server error 500',
      {
        status: 500,
        body: {
          error: {
            message: 'The server had an error while processing your request.',
            type: 'server_error',
          },
        },
      },
    ],
    [
      'auth 401',
      {
        status: 401,
        body: {
          error: {
            message: 'Incorrect API key provided.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
      },
    ],
  ] as const)('passes a %s through untouched, calling once', async (_name, answer) => {
    const manager = createContextManager({ maxTokens: BUDGET, counter: createHeuristicCounter() });
    const { url, received } = server.scenario([answer, SUCCESS]);
    let thrown: unknown;
    let calls = 0;
    const { logger, lines } = warnings();

    const outcome = withContextRetry(
      async (fitAttempt) => {
        calls += 1;
        try {
          return await step(url, agentHistory(30, 1_500), [])(fitAttempt);
        } catch (error) {
          thrown = error;
          throw error;
        }
      },
      manager,
      { logger },
    );

    await expect(outcome).rejects.toBeInstanceOf(ModelApiError);
    await outcome.catch((error: unknown) => expect(error).toBe(thrown));
    expect((thrown as ModelApiError).status).toBe(answer.status);
    expect(calls).toBe(1);
    expect(received).toHaveLength(1);
    expect(lines).toHaveLength(0);
  });

  it.each(NEGATIVE_FIXTURES.map((fixture) => [fixture.name, fixture.error] as const))(
    'never retries on %s',
    async (_name, thrown) => {
      const manager = createContextManager({
        maxTokens: BUDGET,
        counter: createHeuristicCounter(),
      });
      let calls = 0;
      const outcome = withContextRetry(async (fitAttempt) => {
        calls += 1;
        await fitAttempt(agentHistory(5, 1_500), { system, tools });
        throw thrown;
      }, manager);
      await expect(outcome).rejects.toBe(thrown);
      expect(calls).toBe(1);
    },
  );
});

describe('withContextRetry when nothing is refused', () => {
  it("hands the first attempt the manager's own fit, with the caller's options untouched", async () => {
    const manager = createContextManager({ maxTokens: BUDGET, counter: createHeuristicCounter() });
    const seen: Array<FitOptions | undefined> = [];
    const watched: ContextManager = {
      ...manager,
      countTools: manager.countTools,
      fit: (messages, options) => {
        seen.push(options);
        return manager.fit(messages, options);
      },
    };
    const { url, received } = server.scenario([SUCCESS]);
    const history = agentHistory(30, 1_500);
    const options: FitOptions = { system, tools, conversationId: 'conv-ok' };
    const events = createInMemoryEventStore();
    const { logger, lines } = warnings();
    let attempts: number[] = [];

    const sent = await withContextRetry(
      async (fitAttempt, attempt) => {
        attempts = [...attempts, attempt];
        const result = await fitAttempt(history, options);
        await postChat(url, { system, tools, messages: result.messages });
        return result;
      },
      watched,
      { events, logger },
    );

    const direct = await manager.fit(history, options);
    expect(seen).toEqual([options]);
    expect(seen[0]).toBe(options);
    expect(attempts).toEqual([1]);
    expect(received).toHaveLength(1);
    expect(sent.report.maxTokens).toBe(BUDGET);
    expect(sent.report.promptTokens).toBe(direct.report.promptTokens);
    expect(sent.messages).toEqual(direct.messages);
    expect(lines).toHaveLength(0);
    expect(await events.listEvents('conv-ok', { type: 'context.fallback' })).toHaveLength(0);
  });
});

describe('withContextRetry options', () => {
  it('keeps a tighter budget the caller gives on the retry, and never goes above the tightened one', async () => {
    const manager = createContextManager({ maxTokens: BUDGET, counter: createHeuristicCounter() });
    const openAi = OVERFLOW_FIXTURES[0] as OverflowFixture;
    const { url } = server.scenario([wireAnswer(openAi), SUCCESS]);
    const reports: FitReport[] = [];
    await withContextRetry(
      step(url, agentHistory(30, 1_500), reports, { maxTokens: 1_000 }),
      manager,
    );
    const [first, second] = reports as [FitReport, FitReport];
    expect(first.maxTokens).toBe(1_000);
    expect(second.maxTokens).toBeLessThan(1_000);
    expect(second.maxTokens).toBe(
      Math.min(999, Math.floor(first.promptTokens * (128000 / 130532) * 0.9)),
    );
  });

  it('stops before the retry once the signal is aborted', async () => {
    const manager = createContextManager({ maxTokens: BUDGET, counter: createHeuristicCounter() });
    const openAi = OVERFLOW_FIXTURES[0] as OverflowFixture;
    const { url, received } = server.scenario([wireAnswer(openAi), SUCCESS]);
    const controller = new AbortController();
    let calls = 0;

    const error = await contextErrorRejectedBy(
      withContextRetry(
        async (fitAttempt) => {
          calls += 1;
          const { messages } = await fitAttempt(agentHistory(30, 1_500), { system, tools });
          controller.abort(new Error('user cancelled'));
          return postChat(url, { system, tools, messages });
        },
        manager,
        { signal: controller.signal },
      ),
    );

    expect(AbortedError.isInstance(error)).toBe(true);
    expect(calls).toBe(1);
    expect(received).toHaveLength(1);
  });

  it.each([
    [
      'call',
      () => withContextRetry('not a function' as never, createContextManager({ maxTokens: 100 })),
    ],
    ['manager', () => withContextRetry(async () => 1, {} as ContextManager)],
    ['manager', () => withContextRetry(async () => 1, undefined as unknown as ContextManager)],
    [
      'manager.maxTokens',
      () => withContextRetry(async () => 1, { fit: async () => ({}) } as unknown as ContextManager),
    ],
    [
      'options',
      () =>
        withContextRetry(async () => 1, createContextManager({ maxTokens: 100 }), null as never),
    ],
    [
      'signal',
      () =>
        withContextRetry(async () => 1, createContextManager({ maxTokens: 100 }), {
          signal: {} as AbortSignal,
        }),
    ],
    [
      'events',
      () =>
        withContextRetry(async () => 1, createContextManager({ maxTokens: 100 }), {
          events: {} as never,
        }),
    ],
    [
      'logger',
      () =>
        withContextRetry(async () => 1, createContextManager({ maxTokens: 100 }), {
          logger: {} as Logger,
        }),
    ],
    [
      'conversationId',
      () =>
        withContextRetry(async () => 1, createContextManager({ maxTokens: 100 }), {
          conversationId: '  ',
        }),
    ],
  ] as const)('refuses a bad %s with InvalidOptionError, calling nothing', async (option, run) => {
    const error = await contextErrorRejectedBy(run());
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error.details).toMatchObject({ factory: 'withContextRetry', option });
    expect(error.message).toContain(`${option} must be`);
  });
});
