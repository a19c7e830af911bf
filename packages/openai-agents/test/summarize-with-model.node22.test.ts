import {
  createChatSummarizer,
  createSummarizingCompressor,
  DEFAULT_SUMMARY_PROMPT,
} from '@ctxkit/compressor-summarize';
import {
  contextErrorRejectedBy,
  contextErrorThrownBy,
  kitCounter,
} from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import { Agent, type AgentInputItem, type Model, Runner, tool } from '@openai/agents-core';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { chatComplete, contextInputFilter } from '../src/index.js';
import { assistantSays, ScriptedModel } from './scripted-model.js';

it('createChatSummarizer summarizes through the Agents SDK model chatComplete wraps', async () => {
  const model = new ScriptedModel(() => [assistantSays('## Goal\nRead the logs.')]);
  const summarize = createChatSummarizer({ complete: chatComplete(model), maxInputTokens: 4_000 });
  const signal = new AbortController().signal;

  const summary = await summarize(
    [
      { role: 'user', content: 'Read the logs of the payment service.' },
      { role: 'assistant', content: 'Reading them now.' },
    ],
    undefined,
    { signal },
  );

  expect(summary).toBe('## Goal\nRead the logs.');
  const [request] = model.requests;
  expect(request?.systemInstructions).toBe(DEFAULT_SUMMARY_PROMPT);
  expect(request?.tools).toEqual([]);
  expect(request?.input).toEqual([
    { role: 'user', content: expect.stringContaining('Read the logs of the payment service.') },
  ]);
  expect(model.signals[0]).toBe(signal);
});

it('an agent run whose old steps are summarized by a second model keeps going with the summary', async () => {
  const summaryModel = new ScriptedModel(() => [assistantSays('Summary: parts 0 to 5 were read.')]);
  const steps = 12;
  const agentModel = new ScriptedModel((_request, step) =>
    step < steps
      ? [
          {
            type: 'function_call',
            callId: `call_${step}`,
            name: 'read',
            arguments: '{}',
            status: 'completed',
          },
        ]
      : [assistantSays('Done.')],
  );
  const agent = new Agent({
    name: 'reader',
    model: agentModel,
    tools: [
      tool({
        name: 'read',
        description: 'Reads the next part.',
        parameters: z.object({}),
        execute: async () => 'log line with some words '.repeat(200),
      }),
    ],
  });
  const manager = createContextManager({
    maxTokens: 4_000,
    counter: kitCounter,
    compressor: createSummarizingCompressor({
      summarize: createChatSummarizer({
        complete: chatComplete(summaryModel),
        maxInputTokens: 8_000,
      }),
      keepRecentTokens: 1_500,
    }),
  });

  await new Runner({
    callModelInputFilter: contextInputFilter({ manager }),
    tracingDisabled: true,
  }).run(agent, 'Read every part.', { maxTurns: steps + 2 });

  expect(summaryModel.requests.length).toBeGreaterThan(0);
  const last = agentModel.requests.at(-1)?.input as AgentInputItem[];
  expect(JSON.stringify(last)).toContain('Summary: parts 0 to 5 were read.');
});

it('a model that answers without text is an error the summarizing compressor can fall back from', async () => {
  const silent = new ScriptedModel(() => []);
  const error = await contextErrorRejectedBy(
    chatComplete(silent)([{ role: 'user', content: 'Summarize.' }], {}),
  );
  expect(error.code).toBe('invalid_message');
  expect(error.message).toContain('no text');
});

it('refuses something that is not a Model', () => {
  const error = contextErrorThrownBy(() => chatComplete({} as Model));
  expect(error.code).toBe('invalid_option');
  expect(error.message).toContain('model');
});
