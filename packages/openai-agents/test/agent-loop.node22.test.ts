import { countTokens, type Message, type ToolDeclaration } from '@ctxkit/context-core';
import { kitCounter } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import { Agent, type AgentInputItem, Runner, tool } from '@openai/agents-core';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { contextInputFilter, type InputFit, itemsToMessages } from '../src/index.js';
import { assistantSays, ScriptedModel } from './scripted-model.js';

const STEPS = 40;
const MAX_TOKENS = 60_000;

/** About 60 KB of log lines for part `part`, different for every part. */
function logPart(part: number): string {
  const lines: string[] = [];
  for (let line = 0; lines.join('\n').length < 60_000; line++) {
    lines.push(
      `part ${part} line ${line}: request served in ${(line * 7 + part) % 500} ms by worker ${line % 16}`,
    );
  }
  return lines.join('\n');
}

it(`a ${STEPS}-step tool-calling run through Runner sends the model only requests that fit, with no tool result or call without its partner and with the first user message`, async () => {
  const model = new ScriptedModel((_request, step) =>
    step < STEPS
      ? [
          {
            type: 'reasoning',
            id: `rs_${step}`,
            content: [{ type: 'input_text', text: `Part ${step} next.` }],
            providerData: { encryptedContent: `sealed-${step}` },
          },
          {
            type: 'function_call',
            callId: `call_${step}`,
            name: 'read_log',
            arguments: JSON.stringify({ part: step }),
            status: 'completed',
          },
        ]
      : [assistantSays('The slow requests all came from worker 7.')],
  );
  const readLog = tool({
    name: 'read_log',
    description: 'Reads one part of the service log.',
    parameters: z.object({ part: z.number().int() }),
    execute: async ({ part }) => logPart(part),
  });
  const agent = new Agent({
    name: 'log reader',
    instructions: 'Read the log part by part, then say which worker is slow.',
    model,
    tools: [readLog],
  });
  const manager = createContextManager({ maxTokens: MAX_TOKENS, counter: kitCounter });
  const fits: InputFit[] = [];
  const runner = new Runner({
    callModelInputFilter: contextInputFilter({ manager, onFit: (fit) => fits.push(fit) }),
    tracingDisabled: true,
  });

  const result = await runner.run(agent, 'Which worker is slow?', { maxTurns: STEPS + 5 });

  expect(result.finalOutput).toBe('The slow requests all came from worker 7.');
  expect(model.requests).toHaveLength(STEPS + 1);
  expect(logPart(0).length).toBeGreaterThanOrEqual(50_000);
  const firstUser = (model.requests[0]?.input as AgentInputItem[] | undefined)?.[0];
  expect(firstUser).toMatchObject({ role: 'user', content: 'Which worker is slow?' });
  for (const [step, request] of model.requests.entries()) {
    const input = request.input as AgentInputItem[];
    const tools: ToolDeclaration[] = request.tools.map((serialized) => ({
      name: serialized.name,
      ...('description' in serialized ? { description: serialized.description } : {}),
      ...('parameters' in serialized ? { parameters: serialized.parameters } : {}),
    }));
    const system: Message[] = [{ role: 'system', content: request.systemInstructions ?? '' }];
    const promptTokens =
      countTokens(itemsToMessages(input), kitCounter) +
      countTokens(system, kitCounter) +
      manager.countTools(tools);
    expect(promptTokens, `request ${step}`).toBeLessThanOrEqual(MAX_TOKENS);
    expect(input[0], `request ${step}`).toStrictEqual(firstUser);
    const calls = new Set<string>();
    const answered = new Set<string>();
    for (const item of input) {
      if (item.type === 'function_call') calls.add(item.callId);
      if (item.type === 'function_call_result') {
        expect(calls.has(item.callId), `request ${step}`).toBe(true);
        answered.add(item.callId);
      }
    }
    // Sealed reasoning is sent whole or not at all.
    for (const item of input) {
      if (item.type !== 'reasoning') continue;
      const step = Number(item.id?.slice(3));
      expect(item.content).toEqual([{ type: 'input_text', text: `Part ${step} next.` }]);
      expect(item.providerData).toEqual({ encryptedContent: `sealed-${step}` });
    }
    // Every call the model sees has its output too (the Responses API refuses a call without one).
    expect(
      [...calls].filter((callId) => !answered.has(callId)),
      `request ${step}`,
    ).toEqual([]);
  }
  expect(model.requests.at(-1)?.input).toContainEqual(
    expect.objectContaining({ type: 'reasoning', id: `rs_${STEPS - 1}` }),
  );
  // Without the filter the last request would hold all 40 outputs: far more than the budget.
  expect(STEPS * kitCounter.count(logPart(0))).toBeGreaterThan(2 * MAX_TOKENS);
  expect(fits).toHaveLength(STEPS + 1);
  expect(fits.at(-1)?.report.changes.some((change) => change.action !== 'kept')).toBe(true);
  expect(fits.every((fit) => fit.repairs.length === 0)).toBe(true);
});
