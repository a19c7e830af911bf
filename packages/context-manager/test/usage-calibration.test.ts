import { InvalidOptionError, type Message } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import { createContextManager } from '../src/index.js';
import {
  CALIBRATION_BASE_MARGIN,
  CALIBRATION_FACTOR_BOUNDS,
  CALIBRATION_MAX_MARGIN,
  CALIBRATION_SAMPLES,
  createUsageCalibration,
} from '../src/usage-calibration.js';

describe('createUsageCalibration', () => {
  it('leaves the budget as it is before any report, saying whether counts are exact', () => {
    expect(createUsageCalibration('exact').budget(10_000)).toEqual({
      maxTokens: 10_000,
      kind: 'exact',
      factor: 1,
      margin: 0,
      samples: 0,
    });
    expect(createUsageCalibration('estimated').budget(10_000).kind).toBe('estimated');
  });

  it('scales the budget by the reported ratio, with a margin that shrinks as reports agree', () => {
    const calibration = createUsageCalibration('estimated');
    calibration.record(1_000, 1_200);
    const first = calibration.budget(12_000);
    expect(first.factor).toBeCloseTo(1.2);
    expect(first.margin).toBeCloseTo(CALIBRATION_BASE_MARGIN);
    expect(first.maxTokens).toBe(Math.floor(12_000 / (1.2 * (1 + CALIBRATION_BASE_MARGIN))));
    for (let report = 1; report < 16; report += 1) calibration.record(2_000, 2_400);
    const later = calibration.budget(12_000);
    expect(later.samples).toBe(16);
    expect(later.margin).toBeCloseTo(CALIBRATION_BASE_MARGIN / 4);
    expect(later.maxTokens).toBeGreaterThan(first.maxTokens);
  });

  it('keeps a margin as wide as the larger reports spread', () => {
    const calibration = createUsageCalibration('estimated');
    calibration.record(1_000, 1_000);
    calibration.record(1_000, 1_100);
    const { factor, margin } = calibration.budget(10_000);
    expect(factor).toBeCloseTo(1.05);
    expect(margin).toBeCloseTo(1.1 / 1.05 - 1 + CALIBRATION_BASE_MARGIN / Math.sqrt(2));
  });

  it('bounds the margin a wild report widens, and forgets it after the newest reports', () => {
    const calibration = createUsageCalibration('estimated');
    for (let report = 0; report < 4; report += 1) calibration.record(10_000, 10_000);
    calibration.record(10_000, 60_000);
    expect(calibration.budget(10_000).margin).toBe(CALIBRATION_MAX_MARGIN);
    for (let report = 0; report < CALIBRATION_SAMPLES; report += 1)
      calibration.record(10_000, 10_000);
    expect(calibration.budget(10_000).margin).toBeCloseTo(CALIBRATION_BASE_MARGIN / 4);
  });

  it('forgets the oldest reports, ignores empty ones and bounds the factor', () => {
    const calibration = createUsageCalibration('estimated');
    calibration.record(1_000, 3_000);
    for (let report = 0; report < CALIBRATION_SAMPLES; report += 1) calibration.record(1_000, 900);
    calibration.record(0, 500);
    calibration.record(500, 0);
    expect(calibration.budget(1_000).factor).toBeCloseTo(0.9);
    const wild = createUsageCalibration('estimated');
    wild.record(1_000, 10);
    expect(wild.budget(1_000).factor).toBe(CALIBRATION_FACTOR_BOUNDS.min);
    wild.record(1, 1_000_000);
    expect(wild.budget(1_000).factor).toBe(CALIBRATION_FACTOR_BOUNDS.max);
  });
});

describe('ContextManager.recordUsage', () => {
  const messages: Message[] = [{ role: 'user', content: 'Summarize the build log, please.' }];

  it('reports counts exact for an OpenAI model’s own tokenizer, estimated for another, calibrated once told', async () => {
    expect(
      (await createContextManager({ model: 'gpt-4o' }).fit(messages)).report.calibration.kind,
    ).toBe('exact');
    const claude = createContextManager({ model: 'claude-sonnet-4-5' });
    const first = await claude.fit(messages);
    expect(first.report.calibration).toMatchObject({ kind: 'estimated', factor: 1, samples: 0 });
    expect(first.report.calibration.providerMaxTokens).toBe(claude.maxTokens);
    claude.recordUsage(first.report, { inputTokens: Math.ceil(first.report.promptTokens * 1.3) });
    const second = await claude.fit(messages);
    expect(second.report.calibration.kind).toBe('calibrated');
    expect(second.report.calibration.factor).toBeGreaterThan(1.29);
    expect(second.report.maxTokens).toBeLessThan(claude.maxTokens / 1.3);
    expect(second.report.calibration.providerPromptTokens).toBe(
      Math.ceil(second.report.promptTokens * second.report.calibration.factor),
    );
  });

  it('records a report once: the same report again does not weigh its request twice', async () => {
    const manager = createContextManager({ model: 'claude-sonnet-4-5' });
    const { report } = await manager.fit(messages);
    manager.recordUsage(report, { inputTokens: report.promptTokens * 2 });
    manager.recordUsage(report, { inputTokens: report.promptTokens * 2 });
    expect((await manager.fit(messages)).report.calibration.samples).toBe(1);
  });

  it('refuses a report of another manager, usage that is not whole numbers, and unknown keys, learning nothing', async () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const other = createContextManager({ maxTokens: 1_000, counter: createHeuristicCounter() });
    const { report } = await manager.fit(messages);
    const { report: foreign } = await other.fit(messages);
    const refused = (call: () => void, field: string) => {
      expect(call).toThrow(InvalidOptionError);
      expect(call).toThrow(field);
    };
    refused(() => manager.recordUsage(foreign, { inputTokens: 10 }), 'report');
    refused(() => manager.recordUsage(null as never, { inputTokens: 10 }), 'report');
    refused(() => manager.recordUsage(report, { inputTokens: -1 }), 'usage.inputTokens');
    refused(() => manager.recordUsage(report, { inputTokens: 1.5 }), 'usage.inputTokens');
    refused(() => manager.recordUsage(report, {} as never), 'usage.inputTokens');
    refused(
      () => manager.recordUsage(report, { inputTokens: 10, cacheReadTokens: 11 }),
      'usage.inputTokens',
    );
    refused(
      () => manager.recordUsage(report, { inputTokens: 10, prompt_tokens: 10 } as never),
      'prompt_tokens',
    );
    expect((await manager.fit(messages)).report.calibration.kind).toBe('exact');
  });
});
