import {
  type ContextManager,
  type FitReport,
  InvalidOptionError,
  type ProviderUsage,
  type TokenCounter,
} from '@ctxkit/context-core';
import { sampleText } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import { Agent, type AgentMessage, type AgentTool } from '@mariozechner/pi-agent-core';
import {
  type AssistantMessage,
  fauxAssistantMessage,
  fauxToolCall,
  registerFauxProvider,
  Type,
  type Usage,
} from '@mariozechner/pi-ai';
import { afterAll, describe, expect, it } from 'vitest';
import { contextTransform } from '../src/index.js';

// The transform hands the usage of each model call (the `usage` of the assistant message pi adds
// for it) to the manager with the report of the fit that call sent, at the next call.

const faux = registerFauxProvider({
  models: [{ id: 'faux-64k', contextWindow: 64_000, maxTokens: 4_000 }],
});
afterAll(() => faux.unregister());

/**
 * A counter that counts 1.3 times fewer tokens than pi's faux provider, which reports a token
 * per four characters of the request: the provider counts 1.3 times the fit's tokens.
 */
const underCounter: TokenCounter = Object.freeze({
  name: 'test:chars-per-5.2',
  count: (text: string) => Math.ceil(text.length / 5.2),
});

const readLog: AgentTool = {
  name: 'read_log',
  label: 'Read log',
  description: 'Reads one part of the service log.',
  parameters: Type.Object({ part: Type.Number({ description: 'Which part, from 0.' }) }),
  execute: async (_id, params) => {
    const { part } = params as { part: number };
    return { content: [{ type: 'text', text: sampleText('log', 8_000, part) }], details: {} };
  },
};

/** A manager whose `recordUsage` also lists what it was given. */
function listening(manager: ContextManager, recorded: [FitReport, ProviderUsage][]) {
  return {
    ...manager,
    fit: manager.fit,
    countTools: manager.countTools,
    recordUsage(report: FitReport, usage: ProviderUsage) {
      recorded.push([report, usage]);
      manager.recordUsage(report, usage);
    },
  } satisfies ContextManager;
}

const MAX_TOKENS = 40_000;
const STEPS = 5;

it('in an agent run whose provider counts 1.3 times the fit, fits after the first are calibrated and budget 1.3 times tighter', async () => {
  const model = faux.getModel();
  const manager = createContextManager({ maxTokens: MAX_TOKENS, counter: underCounter });
  const reports: FitReport[] = [];
  const script = () => [
    ...Array.from({ length: STEPS }, (_, step) =>
      fauxAssistantMessage(fauxToolCall('read_log', { part: step }, { id: `call_${step}` }), {
        stopReason: 'toolUse',
      }),
    ),
    fauxAssistantMessage('No error in the log.'),
  ];
  faux.setResponses([...script(), ...script()]);
  const agent = new Agent({
    initialState: { model, systemPrompt: 'You read logs and find errors.', tools: [readLog] },
  });
  agent.transformContext = contextTransform({
    manager,
    context: () => agent.state,
    onFit: (report) => reports.push(report),
  });

  await agent.prompt('Find the first error in the service log.');

  expect(agent.state.errorMessage).toBeUndefined();
  expect(reports).toHaveLength(STEPS + 1);
  const answers = agent.state.messages.filter(
    (message): message is AssistantMessage => message.role === 'assistant',
  );
  expect(reports[0]?.calibration).toMatchObject({ kind: 'estimated', samples: 0 });
  for (const [index, report] of reports.entries()) {
    if (index === 0) continue;
    const { calibration } = report;
    expect(calibration.kind).toBe('calibrated');
    expect(calibration.samples).toBe(index);
    // The provider's tokens for the calls before over the fits' tokens for them.
    const provider = answers.slice(0, index).reduce((sum, answer) => sum + answer.usage.input, 0);
    const counted = reports.slice(0, index).reduce((sum, fit) => sum + fit.promptTokens, 0);
    expect(calibration.factor).toBeCloseTo(provider / counted, 10);
    expect(calibration.factor).toBeCloseTo(1.3, 1);
    expect(report.maxTokens).toBe(
      Math.floor(MAX_TOKENS / (calibration.factor * (1 + calibration.margin))),
    );
    expect(report.maxTokens).toBeLessThan(MAX_TOKENS / 1.25);
  }

  // The run's last call is recorded at the next run's first.
  await agent.prompt('And in the next part?');
  expect(reports[STEPS + 1]?.calibration.samples).toBe(STEPS + 1);
});

describe('contextTransform records usage', () => {
  const usage = (input: number, cacheRead = 0, cacheWrite = 0): Usage => ({
    input,
    output: 10,
    cacheRead,
    cacheWrite,
    totalTokens: input + cacheRead + cacheWrite + 10,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  });
  const answer = (text: string, used: Usage, stopReason: AssistantMessage['stopReason'] = 'stop') =>
    ({ ...fauxAssistantMessage(text, { stopReason }), usage: used }) as AssistantMessage;
  const user = (text: string): AgentMessage => ({ role: 'user', content: text, timestamp: 1 });

  function setUp(options: { recordUsage?: boolean } = {}) {
    const recorded: [FitReport, ProviderUsage][] = [];
    const reports: FitReport[] = [];
    const manager = createContextManager({ maxTokens: 10_000, counter: underCounter });
    const transform = contextTransform({
      manager: listening(manager, recorded),
      onFit: (report) => reports.push(report),
      ...options,
    });
    return { transform, recorded, reports };
  }

  it('adds the cache reads and writes to pi’s input, which leaves them out', async () => {
    const { transform, recorded, reports } = setUp();
    const history: AgentMessage[] = [user('Read the log.')];
    await transform(history);
    history.push(answer('Reading.', usage(100, 700, 200)), user('Go on.'));
    await transform(history);
    expect(recorded).toEqual([
      [reports[0], { inputTokens: 1_000, cacheReadTokens: 700, cacheWriteTokens: 200 }],
    ]);
  });

  it('records nothing for a call without usage, an error or an abort, nor twice for one answer', async () => {
    const { transform, recorded } = setUp();
    const history: AgentMessage[] = [user('Read the log.')];
    await transform(history);
    history.push(answer('Reading.', usage(0)), user('Go on.'));
    await transform(history);
    history.push(answer('', usage(500), 'error'), user('Again.'));
    await transform(history);
    history.push(answer('', usage(500), 'aborted'), user('Again.'));
    await transform(history);
    // No answer came since the last call (it failed before one): the same newest answer again.
    await transform(history);
    expect(recorded).toEqual([]);
  });

  it('records nothing when more than one answer came since the last call, and with recordUsage: false', async () => {
    const { transform, recorded, reports } = setUp();
    const history: AgentMessage[] = [user('Read the log.')];
    await transform(history);
    history.push(answer('One.', usage(50)), answer('Two.', usage(60)), user('Go on.'));
    await transform(history);
    expect(recorded).toEqual([]);
    history.push(answer('Three.', usage(70)));
    await transform(history);
    expect(recorded).toEqual([[reports[1], { inputTokens: 70 }]]);

    const off = setUp({ recordUsage: false });
    await off.transform([user('Read the log.')]);
    await off.transform([user('Read the log.'), answer('One.', usage(50)), user('Go on.')]);
    expect(off.recorded).toEqual([]);
  });

  it('never pairs one conversation’s answer with another’s fit, when one transform serves both', async () => {
    const { transform, recorded } = setUp();
    await transform([user('Read the log of A.')]);
    // B's transcript holds an answer A's fit never saw before it.
    await transform([user('Read the log of B.'), answer('B read.', usage(80)), user('Go on, B.')]);
    expect(recorded).toEqual([]);
  });

  it('wants a manager with recordUsage unless recordUsage is false, and a boolean', () => {
    const { recordUsage: _, ...withoutRecordUsage } = createContextManager({ maxTokens: 1_000 });
    expect(() => contextTransform({ manager: withoutRecordUsage as ContextManager })).toThrow(
      InvalidOptionError,
    );
    expect(() => contextTransform({ manager: withoutRecordUsage as ContextManager })).toThrow(
      /recordUsage: false/,
    );
    expect(() =>
      contextTransform({ manager: withoutRecordUsage as ContextManager, recordUsage: false }),
    ).not.toThrow();
    expect(() => contextTransform({ maxTokens: 1_000, recordUsage: 'yes' as never })).toThrow(
      /recordUsage/,
    );
  });
});
