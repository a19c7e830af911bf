import {
  countTokens,
  createInMemoryHistoryStore,
  type FitReport,
  InvalidOptionError,
  type Message,
} from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
// The core's own test helpers: a character counter, message builders and a reference trim.
import { assistant, charCounter, user } from '../../context-core/test/helpers.js';
import { plainAssembler, referenceTrim } from '../../context-core/test/reference-compressor.js';
import { createContextManager, createContextPipeline, usageOfFit } from '../src/index.js';

const BUDGET = { maxTokens: 20_000, reserveTokens: 2_000 };

async function setup() {
  const provider = createInMemoryHistoryStore({ counter: charCounter });
  await provider.append('c1', [
    user('Which service is slow?'),
    assistant(`The logs say: ${'request served in 12 ms. '.repeat(40)}`),
  ]);
  const pipeline = createContextPipeline({
    provider,
    compressor: referenceTrim(),
    assembler: plainAssembler,
    counter: charCounter,
    budget: BUDGET,
  });
  return { provider, pipeline };
}

describe('ContextPipeline.recordUsage', () => {
  it('learns the provider’s ratio of the whole prompt, the new input included, and keeps the request within the budget by its count', async () => {
    const { provider, pipeline } = await setup();
    // Far more history than the window holds.
    for (let part = 0; part < 40; part += 1) {
      await provider.append('c1', [
        user(`Part ${part}?`),
        assistant(`Part ${part}: ${'request served in 12 ms. '.repeat(40)}`),
      ]);
    }
    const system = 'You find slow services.';
    const input = `Here is the new log: ${'request served in 900 ms. '.repeat(120)}`;
    const limit = BUDGET.maxTokens - BUDGET.reserveTokens;
    // The provider counts 1.3 times every token the request sent.
    const providerCount = (messages: readonly Message[]) =>
      Math.round(countTokens(messages, charCounter) * 1.3);
    for (let call = 0; call < 3; call += 1) {
      const { messages, report } = await pipeline.build('c1', { system, input });
      expect(countTokens(messages, charCounter)).toBeGreaterThan(report.promptTokens);
      pipeline.recordUsage(report, { inputTokens: providerCount(messages) });
    }
    const { messages, report } = await pipeline.build('c1', { system, input });
    expect(report.calibration.kind).toBe('calibrated');
    expect(report.calibration.samples).toBe(3);
    // The ratio of the whole prompt: the fit's part is not charged with the input's tokens.
    expect(report.calibration.factor).toBeCloseTo(1.3, 3);
    expect(providerCount(messages)).toBeLessThanOrEqual(limit);
    expect(providerCount(messages)).toBeGreaterThan(limit * 0.95);
  });

  it('sends more than the counter’s limit when the provider counts fewer tokens, within its own', async () => {
    const { provider, pipeline } = await setup();
    for (let part = 0; part < 40; part += 1) {
      await provider.append('c1', [
        user(`Part ${part}?`),
        assistant(`Part ${part}: ${'request served in 12 ms. '.repeat(40)}`),
      ]);
    }
    const limit = BUDGET.maxTokens - BUDGET.reserveTokens;
    const providerCount = (messages: readonly Message[]) =>
      Math.round(countTokens(messages, charCounter) * 0.7);
    for (let call = 0; call < 3; call += 1) {
      const { messages, report } = await pipeline.build('c1', { system: 'Be brief.' });
      pipeline.recordUsage(report, { inputTokens: providerCount(messages) });
    }
    const { messages, report } = await pipeline.build('c1', { system: 'Be brief.' });
    expect(report.calibration.factor).toBeCloseTo(0.7, 3);
    expect(countTokens(messages, charCounter)).toBeGreaterThan(limit);
    expect(providerCount(messages)).toBeLessThanOrEqual(limit);
  });

  it('passes the usage as it came when the prompt is the fit’s, and refuses what the manager refuses', async () => {
    const { pipeline } = await setup();
    const { messages, report } = await pipeline.build('c1', { system: 'Be brief.' });
    expect(countTokens(messages, charCounter)).toBe(report.promptTokens);
    pipeline.recordUsage(report, { inputTokens: report.promptTokens * 2 });
    expect((await pipeline.build('c1', { system: 'Be brief.' })).report.calibration.factor).toBe(2);

    const other = createContextManager({
      maxTokens: 1_000,
      counter: { ...charCounter, name: 'x' },
    });
    const { report: foreign } = await other.fit([user('Hi.')]);
    const refused = (call: () => void, field: string) => {
      expect(call).toThrow(InvalidOptionError);
      expect(call).toThrow(field);
    };
    refused(() => pipeline.recordUsage(foreign, { inputTokens: 10 }), 'report');
    refused(() => pipeline.recordUsage(report, { inputTokens: 1.5 }), 'usage.inputTokens');
    refused(
      () => pipeline.recordUsage(report, { inputTokens: 10, prompt_tokens: 10 } as never),
      'prompt_tokens',
    );
  });
});

describe('usageOfFit', () => {
  const report = { promptTokens: 1_000 } as FitReport;

  it('takes the fit’s share of the usage, cache reads and writes alike', () => {
    expect(
      usageOfFit(
        { inputTokens: 3_001, cacheReadTokens: 1_501, cacheWriteTokens: 1_500 },
        2_000,
        report,
      ),
    ).toEqual({ inputTokens: 1_501, cacheReadTokens: 750, cacheWriteTokens: 750 });
    expect(usageOfFit({ inputTokens: 3 }, 1_000_000, report)).toEqual({ inputTokens: 1 });
  });

  it('gives the usage back as it came for a prompt no larger than the fit’s, and for usage recordUsage would refuse', () => {
    const usage = { inputTokens: 1_300 };
    expect(usageOfFit(usage, 1_000, report)).toBe(usage);
    expect(usageOfFit(usage, 900, report)).toBe(usage);
    for (const odd of [
      { inputTokens: 1.5 },
      { inputTokens: 10, cacheReadTokens: 11 },
      { inputTokens: 10, prompt_tokens: 10 },
      null,
    ]) {
      expect(usageOfFit(odd as never, 2_000, report)).toBe(odd);
    }
  });
});
