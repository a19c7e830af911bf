import {
  createStandardAssembler,
  fromAnthropic,
  fromOpenAIChat,
  toAnthropic,
  toOpenAIChat,
} from '@ctxkit/assembler-standard';
import type { Message } from '@ctxkit/context-core';
import { agentHistory } from './history-counting.js';
import { measure, printTable } from './measure.js';

/**
 * The assembler and the wire formats on a 10,000-message agent history (~2 KB per message):
 * assembling against plain concatenation of system, history and input, and each conversion
 * against the `JSON.stringify` / `JSON.parse` of its result that sending or receiving it costs
 * anyway.
 */
export async function benchAssemblerStandard(): Promise<void> {
  const history = agentHistory(10_000);
  const damaged = history.filter((_message, index) => index % 40 !== 1);
  const system = 'You are the on-call assistant of a container platform.';
  const input = 'What changed since yesterday?';
  const assembler = createStandardAssembler();
  const prompt = assembler.assemble({ system, history, input });
  const openAI = toOpenAIChat(prompt);
  const anthropic = toAnthropic(prompt);
  const openAIText = JSON.stringify(openAI);
  const anthropicText = JSON.stringify(anthropic);
  const options = { minRuns: 10, minTime: 500 };
  const row = async (
    name: string,
    task: () => unknown,
    baselineName: string,
    baseline: () => unknown,
  ) => {
    const measured = await measure(task, options);
    const base = await measure(baseline, options);
    return {
      task: name,
      'median (ms)': measured.median.toFixed(2),
      'per message (µs)': ((measured.median * 1000) / history.length).toFixed(2),
      baseline: baselineName,
      'baseline (ms)': base.median.toFixed(2),
      ratio: (measured.median / base.median).toFixed(2),
    };
  };
  const concat = (): Message[] => [
    { role: 'system', content: system },
    ...history,
    { role: 'user', content: input },
  ];
  printTable('Assembling and converting a 10,000-message history (~2 KB each)', [
    await row(
      'assemble (paired history)',
      () => assembler.assemble({ system, history, input }),
      'concatenate',
      concat,
    ),
    await row(
      'assemble (every 40th message dropped)',
      () => assembler.assemble({ system, history: damaged, input }),
      'concatenate',
      concat,
    ),
    await row(
      'toOpenAIChat',
      () => toOpenAIChat(prompt),
      'JSON.stringify',
      () => JSON.stringify(openAI),
    ),
    await row(
      'toAnthropic',
      () => toAnthropic(prompt),
      'JSON.stringify',
      () => JSON.stringify(anthropic),
    ),
    await row(
      'fromOpenAIChat',
      () => fromOpenAIChat(openAI),
      'JSON.parse',
      () => JSON.parse(openAIText),
    ),
    await row(
      'fromAnthropic',
      () => fromAnthropic(anthropic),
      'JSON.parse',
      () => JSON.parse(anthropicText),
    ),
  ]);
}
