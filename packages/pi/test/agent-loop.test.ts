import { countTokens, type FitReport } from '@ctxkit/context-core';
import { sampleText } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import { Agent, type AgentTool } from '@mariozechner/pi-agent-core';
import {
  type Context,
  fauxAssistantMessage,
  fauxToolCall,
  registerFauxProvider,
  Type,
} from '@mariozechner/pi-ai';
import { afterAll, expect, it } from 'vitest';
import { contextTransform, piModelInfo, toCtxkitMessages } from '../src/index.js';

// A 60-step tool-calling run of pi's own Agent against pi-ai's faux provider (no network): every
// step calls a tool whose output is 50 KB of logs, far more than the window holds in total. The
// transform must keep every request the model receives within the budget, tool definitions and
// system prompt included, with every tool result after its call and the task kept. It records
// each answer's usage (the faux provider's count, a token per four characters), so the budget
// holds by the provider's count too.

const STEPS = 60;
const OUTPUT_CHARS = 51_200;

const faux = registerFauxProvider({
  models: [{ id: 'faux-48k', contextWindow: 48_000, maxTokens: 4_000, reasoning: true }],
});
afterAll(() => faux.unregister());

const readLog: AgentTool = {
  name: 'read_log',
  label: 'Read log',
  description: 'Reads one part of the service log.',
  parameters: Type.Object({ part: Type.Number({ description: 'Which part, from 0.' }) }),
  execute: async (_id, params) => {
    const { part } = params as { part: number };
    return {
      content: [{ type: 'text', text: sampleText('log', OUTPUT_CHARS, part) }],
      details: { part },
    };
  },
};

it(`keeps every request of a ${STEPS}-step agent run within the budget, paired, with its task`, async () => {
  const model = faux.getModel();
  // The manager's defaults: the transform itself keeps the task (keepFirstUserMessage).
  const manager = createContextManager({ model: piModelInfo(model) });
  const requests: Context[] = [];
  const reports: FitReport[] = [];
  faux.setResponses([
    ...Array.from({ length: STEPS }, (_, step) => (context: Context) => {
      requests.push({ ...context, messages: [...context.messages] });
      return fauxAssistantMessage(
        [
          { type: 'thinking', thinking: `Part ${step} next.`, thinkingSignature: `sig-${step}` },
          fauxToolCall('read_log', { part: step }, { id: `call_${step}` }),
        ],
        { stopReason: 'toolUse' },
      );
    }),
    (context: Context) => {
      requests.push({ ...context, messages: [...context.messages] });
      return fauxAssistantMessage('The error is in part 39.');
    },
  ]);

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
  expect(requests).toHaveLength(STEPS + 1);
  const transcript = agent.state.messages;
  expect(transcript).toHaveLength(1 + 2 * STEPS + 1);
  const task = transcript[0];
  const system = countTokens(
    [{ role: 'system', content: 'You read logs and find errors.' }],
    manager.counter,
  );
  const tools = manager.countTools([
    {
      name: readLog.name,
      description: readLog.description,
      parameters: readLog.parameters as unknown as Record<string, unknown>,
    },
  ]);
  // Each answer's usage, by the faux provider's count (a token per four characters), is
  // recorded: the budget in the counter's tokens is each fit's own, and the provider's count
  // of each request stays within the manager's.
  const answers = transcript.filter((message) => message.role === 'assistant');
  expect(answers).toHaveLength(requests.length);
  expect(reports.at(-1)?.calibration).toMatchObject({ kind: 'calibrated', samples: 16 });
  for (const [index, request] of requests.entries()) {
    const sent = countTokens(toCtxkitMessages(request.messages), manager.counter);
    expect(sent + system + tools).toBeLessThanOrEqual(reports[index]?.maxTokens ?? 0);
    expect(answers[index]?.usage.input).toBeLessThanOrEqual(manager.maxTokens);
    expect(request.messages[0]).toBe(task);
    const calls = new Set<string>();
    const answered = new Set<string>();
    for (const message of request.messages) {
      if (message.role === 'assistant') {
        for (const block of message.content) if (block.type === 'toolCall') calls.add(block.id);
      }
      if (message.role === 'toolResult') {
        expect(calls.has(message.toolCallId)).toBe(true);
        expect(answered.has(message.toolCallId)).toBe(false);
        answered.add(message.toolCallId);
      }
    }
  }
  // The run outgrew the window many times over, so the fits did work, and each request still
  // ends with the newest step: the last tool result, whole up to the tool-output cap.
  const last = requests.at(-1) as Context;
  expect(last.messages.length).toBeLessThan(transcript.length - 1);
  expect(last.messages.at(-1)).toMatchObject({
    role: 'toolResult',
    toolCallId: `call_${STEPS - 1}`,
  });
  expect(reports.every((report) => report.toolTokens === tools)).toBe(true);
  expect(
    reports.some((report) => report.changes.some((change) => change.action === 'dropped')),
  ).toBe(true);
});
