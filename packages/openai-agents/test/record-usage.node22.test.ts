import {
  type ContextManager,
  countTokens,
  type FitReport,
  type ProviderUsage,
} from '@ctxkit/context-core';
import { kitCounter } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import { Agent, type AgentOutputItem, Runner, tool, Usage } from '@openai/agents-core';
import {
  assistantMessage,
  functionCall,
  modelResponder,
  ScriptedModel,
} from '@openai/agents-core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contextInputFilter, type InputFit } from '../src/index.js';

// The filter hands each request's usage, as the SDK adds it up in the run's context, to the
// manager with the report of the fit that request sent. The SDK's own ScriptedModel answers,
// reporting for each request the input tokens the test decides from the fit it was sent with.
// The first call of an agent's first run is never recorded: the filter meets the agent there,
// after the event that tells the run.

const MAX_TOKENS = 20_000;

const readPart = tool({
  name: 'read_part',
  description: 'Reads one part of the report.',
  parameters: z.object({ part: z.number().int() }),
  execute: async ({ part }) => `part ${part}: ${'all requests served in time. '.repeat(40)}`,
});

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

/**
 * An agent on the SDK's ScriptedModel, for `runs` runs of `calls` tool calls and an answer each;
 * each response reports the usage `usageOf` makes from the newest fit (the one its request was
 * sent with) and the step, from 0 over all runs.
 */
function scriptedAgent(
  name: string,
  instructions: string,
  calls: number,
  newestFit: () => FitReport,
  usageOf: (report: FitReport, step: number) => Usage,
  runs = 1,
) {
  const model = new ScriptedModel(
    Array.from({ length: runs * (calls + 1) }, (_, step) =>
      modelResponder(() => {
        const output: AgentOutputItem[] =
          step % (calls + 1) < calls
            ? [functionCall('read_part', { part: step }, { callId: `${name}_call_${step}` })]
            : [assistantMessage(`${name}: all parts read.`)];
        return { output, usage: usageOf(newestFit(), step), responseId: `${name}_${step}` };
      }),
    ),
  );
  return new Agent({ name, instructions, model, tools: [readPart] });
}

const scaled = (report: FitReport, factor: number, details?: Record<string, number>) =>
  new Usage({
    requests: 1,
    inputTokens: Math.ceil(report.promptTokens * factor),
    outputTokens: 20,
    ...(details === undefined ? {} : { inputTokensDetails: details }),
  });

describe('contextInputFilter records the usage of each request', () => {
  it('after requests the provider counted 1.3 times the fit, fits are calibrated and budget 1.3 times tighter', async () => {
    const manager = createContextManager({ maxTokens: MAX_TOKENS, counter: kitCounter });
    const fits: InputFit[] = [];
    const agent = scriptedAgent(
      'reader',
      'Read every part, then answer.',
      4,
      () => (fits.at(-1) as InputFit).report,
      (report) => scaled(report, 1.3),
      2,
    );
    const runner = new Runner({
      callModelInputFilter: contextInputFilter({ manager, onFit: (fit) => fits.push(fit) }),
      tracingDisabled: true,
    });

    for (let run = 0; run < 2; run += 1) {
      expect((await runner.run(agent, 'Read the report.')).finalOutput).toBe(
        'reader: all parts read.',
      );
    }

    expect(fits).toHaveLength(10);
    for (const fit of fits.slice(0, 2)) {
      expect(fit.report.calibration).toMatchObject({ kind: 'estimated', samples: 0 });
      expect(fit.report.maxTokens).toBe(MAX_TOKENS);
    }
    for (const [index, fit] of fits.entries()) {
      if (index < 2) continue;
      const { calibration, maxTokens } = fit.report;
      expect(calibration.kind).toBe('calibrated');
      // Every request since the first, each learnt once (the first run's last one when that run
      // ended): the provider's tokens over the fits'.
      expect(calibration.samples).toBe(index - 1);
      const learnt = fits.slice(1, index).map((earlier) => earlier.report.promptTokens);
      const provider = learnt.reduce((sum, tokens) => sum + Math.ceil(tokens * 1.3), 0);
      const counted = learnt.reduce((sum, tokens) => sum + tokens, 0);
      expect(calibration.factor).toBeCloseTo(provider / counted, 10);
      expect(calibration.factor).toBeCloseTo(1.3, 1);
      expect(calibration.providerMaxTokens).toBe(MAX_TOKENS);
      expect(maxTokens).toBe(
        Math.floor(MAX_TOKENS / (calibration.factor * (1 + calibration.margin))),
      );
      expect(maxTokens).toBeLessThan(MAX_TOKENS / 1.3);
    }
    // The second run's last request was recorded when it ended.
    const after = await manager.fit([{ role: 'user', content: 'Next.' }]);
    expect(after.report.calibration.samples).toBe(9);
  });

  it('gives the cached tokens as cache reads, and leaves out a request without usage', async () => {
    const recorded: [FitReport, ProviderUsage][] = [];
    const manager = createContextManager({ maxTokens: MAX_TOKENS, counter: kitCounter });
    const fits: InputFit[] = [];
    const agent = scriptedAgent(
      'cached',
      'Read every part, then answer.',
      3,
      () => (fits.at(-1) as InputFit).report,
      // The third request reports no usage, as a model without usage does.
      (report, step) =>
        step === 2
          ? new Usage()
          : scaled(report, 1.25, { cached_tokens: Math.floor(report.promptTokens / 2) }),
    );
    const runner = new Runner({
      callModelInputFilter: contextInputFilter({
        manager: listening(manager, recorded),
        onFit: (fit) => fits.push(fit),
      }),
      tracingDisabled: true,
    });

    await runner.run(agent, 'Read the report.');

    expect(fits).toHaveLength(4);
    expect(recorded.map(([report]) => report)).toEqual([fits[1]?.report, fits[3]?.report]);
    for (const [report, usage] of recorded) {
      expect(usage).toEqual({
        inputTokens: Math.ceil(report.promptTokens * 1.25),
        cacheReadTokens: Math.floor(report.promptTokens / 2),
      });
    }
    // The request without usage changed nothing: the fit after it knew as much as the one before.
    expect(fits[3]?.report.calibration.samples).toBe(1);
    expect(fits[3]?.report.calibration.factor).toBe(fits[2]?.report.calibration.factor);
  });

  it('pairs each fit with its own run’s request when runs share the filter and a context object at once', async () => {
    const recorded: [FitReport, ProviderUsage][] = [];
    const manager = createContextManager({ maxTokens: MAX_TOKENS, counter: kitCounter });
    const fits: InputFit[] = [];
    const filter = contextInputFilter({
      manager: listening(manager, recorded),
      onFit: (fit) => fits.push(fit),
    });
    // The two agents' instructions differ in length: a fit's system tokens tell its run.
    const short = 'Read every part.';
    const long = `Read every part, slowly and with care. ${'Take notes as you go. '.repeat(20)}`;
    const shortTokens = countTokens([{ role: 'system', content: short }], kitCounter);
    const isLong = (report: FitReport) => report.systemTokens > shortTokens;
    const newest = (long: boolean) => () =>
      fits.findLast((fit) => isLong(fit.report) === long)?.report as FitReport;
    const first = scriptedAgent(
      'first',
      short,
      3,
      newest(false),
      (report) => scaled(report, 1.1),
      2,
    );
    const second = scriptedAgent(
      'second',
      long,
      3,
      newest(true),
      (report) => scaled(report, 1.5),
      2,
    );
    const runner = new Runner({ callModelInputFilter: filter, tracingDisabled: true });
    // A run of each first, as the filter meets each agent there.
    await runner.run(first, 'Read the report.');
    await runner.run(second, 'Read the report.');
    const before = { fits: fits.length, recorded: recorded.length };

    const context = { team: 'ops' };
    await Promise.all([
      runner.run(first, 'Read the report.', { context }),
      runner.run(second, 'Read the report.', { context }),
    ]);

    const overlapping = fits.slice(before.fits);
    expect(overlapping).toHaveLength(8);
    // The runs did overlap: the fits of one came between those of the other.
    const order = overlapping.map((fit) => isLong(fit.report));
    expect(order.slice(0, 4)).toContain(true);
    expect(order.slice(0, 4)).toContain(false);
    const learnt = recorded.slice(before.recorded);
    expect(new Set(learnt.map(([report]) => report))).toEqual(
      new Set(overlapping.map((fit) => fit.report)),
    );
    for (const [report, usage] of learnt) {
      expect(usage.inputTokens).toBe(Math.ceil(report.promptTokens * (isLong(report) ? 1.5 : 1.1)));
    }
  });

  it('records every request of runs that one after the other share a context object', async () => {
    const recorded: [FitReport, ProviderUsage][] = [];
    const manager = createContextManager({ maxTokens: MAX_TOKENS, counter: kitCounter });
    const fits: InputFit[] = [];
    const agent = scriptedAgent(
      'daily',
      'Read every part, then answer.',
      2,
      () => (fits.at(-1) as InputFit).report,
      (report) => scaled(report, 1.2),
      3,
    );
    const runner = new Runner({
      callModelInputFilter: contextInputFilter({
        manager: listening(manager, recorded),
        onFit: (fit) => fits.push(fit),
      }),
      tracingDisabled: true,
    });
    const context = { userId: 'u-1' };
    for (let run = 0; run < 3; run += 1) await runner.run(agent, 'Read the report.', { context });
    expect(fits).toHaveLength(9);
    expect(recorded.map(([report]) => report)).toEqual(fits.slice(1).map((fit) => fit.report));
  });

  it('records nothing with recordUsage: false, and wants a manager with recordUsage otherwise', async () => {
    const manager = createContextManager({ maxTokens: MAX_TOKENS, counter: kitCounter });
    const fits: InputFit[] = [];
    const agent = scriptedAgent(
      'quiet',
      'Read every part, then answer.',
      2,
      () => (fits.at(-1) as InputFit).report,
      (report) => scaled(report, 1.3),
      2,
    );
    const runner = new Runner({
      callModelInputFilter: contextInputFilter({
        manager,
        recordUsage: false,
        onFit: (fit) => fits.push(fit),
      }),
      tracingDisabled: true,
    });
    await runner.run(agent, 'Read the report.');
    await runner.run(agent, 'Read the report.');
    expect(fits.map((fit) => fit.report.calibration.kind)).toEqual(Array(6).fill('estimated'));

    const { recordUsage: _, ...withoutRecordUsage } = manager;
    expect(() => contextInputFilter({ manager: withoutRecordUsage as ContextManager })).toThrow(
      /recordUsage: false/,
    );
    expect(() =>
      contextInputFilter({ manager: withoutRecordUsage as ContextManager, recordUsage: false }),
    ).not.toThrow();
    expect(() => contextInputFilter({ manager, recordUsage: 'no' as never })).toThrow(
      /recordUsage/,
    );
  });
});
