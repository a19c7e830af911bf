import { countTokensUncached, type ToolDeclaration, toolResultsOf } from '@ctxkit/context-core';
import { createContextManager } from '@ctxkit/context-manager';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent, tool } from 'langchain';
import { describe, expect, it } from 'vitest';
import {
  contextMiddleware,
  type LangChainFitResult,
  toCtxkitMessages,
  toolDeclarations,
} from '../src/index.js';

const STEPS = 40;
const OUTPUT_CHARS = 50 * 1024;
const SYSTEM = 'You are a build doctor. Read the logs and find why the build fails.';
const TASK = 'The nightly build fails. Find out why.';

/** A log of `chars` characters that differs from step to step. */
function buildLog(step: number, chars: number): string {
  const line = `step ${step}: compiling module ${step} of the build, warning W${step} in file src/m${step}.ts\n`;
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

const readLog = tool(async ({ step }: { step: number }) => buildLog(step, OUTPUT_CHARS), {
  name: 'read_log',
  description: 'Reads the build log of one step.',
  schema: {
    type: 'object',
    properties: { step: { type: 'number', description: 'The step whose log to read.' } },
    required: ['step'],
  },
});

/** A model that calls `read_log` `STEPS` times, then answers. */
function scriptedModel() {
  const model = fakeModel();
  for (let step = 0; step < STEPS; step += 1) {
    model.respondWithTools([{ name: 'read_log', args: { step }, id: `call_${step}` }]);
  }
  return model.respond(new AIMessage('The build fails in module 39.'));
}

describe('contextMiddleware in a createAgent loop', () => {
  it('keeps every one of 40 model requests with 50 KB tool outputs within the budget, paired and with the task', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 24_000 });
    const model = scriptedModel();
    const fits: LangChainFitResult[] = [];
    const agent = createAgent({
      model,
      tools: [readLog],
      systemPrompt: SYSTEM,
      middleware: [contextMiddleware({ manager, onFit: (result) => fits.push(result) })],
    });

    const result = await agent.invoke(
      { messages: [new HumanMessage(TASK)] },
      { recursionLimit: 2 * STEPS + 10 },
    );

    // The agent's own history is whole: the middleware changed only what the model saw.
    const history = result.messages as BaseMessage[];
    expect(history).toHaveLength(2 + 2 * STEPS);
    expect(history.filter((message) => message.type === 'tool')).toHaveLength(STEPS);
    expect(history.at(-1)?.text).toBe('The build fails in module 39.');
    expect(history.at(2)?.content).toBe(buildLog(0, OUTPUT_CHARS));

    expect(model.calls).toHaveLength(STEPS + 1);
    expect(fits).toHaveLength(STEPS + 1);
    const tools: ToolDeclaration[] = toolDeclarations([readLog]);
    const toolTokens = manager.countTools(tools);
    expect(toolTokens).toBeGreaterThan(0);
    let compressed = 0;
    for (const [index, call] of model.calls.entries()) {
      const sent = call.messages as BaseMessage[];
      // The system prompt comes first, as the agent puts it.
      expect(sent[0]?.type).toBe('system');
      expect(sent[0]?.text).toBe(SYSTEM);
      const { messages, repairs } = toCtxkitMessages(sent);
      expect(repairs).toEqual([]);
      // Every request fits: messages (the system prompt among them) and the bound tools, counted
      // afresh, without the counts cached during the fits.
      const promptTokens = countTokensUncached(messages, manager.counter) + toolTokens;
      expect(promptTokens, `request ${index}`).toBeLessThanOrEqual(manager.maxTokens);
      expect(fits[index]?.report.toolTokens).toBe(toolTokens);
      // The task is still there, right after the system prompt.
      expect(sent[1]).toBe(history[0]);
      // No orphan: every tool result answers a call of an earlier message it was sent with.
      const calls = new Set<string>();
      for (const message of messages) {
        for (const part of Array.isArray(message.content) ? message.content : []) {
          if (part.type === 'tool-call') calls.add(part.toolCallId);
        }
        for (const part of toolResultsOf(message)) {
          expect(calls.has(part.toolCallId), `request ${index}: ${part.toolCallId}`).toBe(true);
        }
      }
      // The newest tool output is what the model asked for last.
      if (index > 0) expect(sent.at(-1)?.type).toBe('tool');
      if (fits[index]?.report.steps.length) compressed += 1;
    }
    // Without the middleware the later requests would be ~500,000 tokens.
    expect(compressed).toBeGreaterThan(STEPS / 2);
  });
});
