import { join } from 'node:path';
import { countTokens, type Message, toolOutputText, toolResultsOf } from '@ctxkit/context-core';
import { countToolDefinitions } from '@ctxkit/context-manager';
import { createTiktokenCounter } from '@ctxkit/token-counters';
import {
  DEFAULT_OFFLOAD_MIN_CHARS,
  GET_TOOL_OUTPUT,
  parseOffloadHeader,
} from '@ctxkit/tool-output-store';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { billedInput } from '../src/billed-input.js';
import { loadConfig } from '../src/config.js';
import { DEMO_QUESTIONS } from '../src/demo-session.js';
import { compareOffloading } from '../src/offload-comparison.js';
import { verifyOffloadedOutputs } from '../src/verify-offloaded-outputs.js';
import { captureLogger } from './capture-logger.js';
import { tempDatabase } from './temp-database.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const uncached = ({ tokens: _tokens, tokenCounter: _counter, ...message }: Message): Message =>
  message;
const number = (text: string | undefined) => Number(text?.replaceAll(',', ''));

describe('the demo with and without tool-output offloading', () => {
  it('reports both runs side by side and reads every offloaded output back byte for byte', async () => {
    const folder = tempDatabase();
    cleanups.push(folder.remove);
    const file = (offload: string) => join(folder.file, '..', `${offload}.sqlite`);
    const config = loadConfig({ CTX_DB: file('unused') });
    const printed: string[] = [];
    const comparison = await compareOffloading({
      config,
      databaseFile: file,
      print: (line) => printed.push(line),
      logger: captureLogger().logger,
    });
    const { without, with: offloaded, verification } = comparison;

    for (const run of [without, offloaded]) {
      expect(run).toMatchObject({ done: DEMO_QUESTIONS.length, failed: 0, allWithinBudget: true });
    }
    // What the model is sent with offloading: no tool output over the threshold but the details
    // it asked for, and every request within the budget by a fresh count.
    const counter = createTiktokenCounter('o200k_base');
    for (const request of offloaded.requests) {
      const sent =
        countTokens(request.messages.map(uncached), counter) +
        countToolDefinitions(request.tools, counter, config.model);
      expect(sent).toBe(request.tokensSent);
      expect(sent).toBeLessThanOrEqual(config.maxContextTokens - config.reserveTokens);
      for (const result of request.messages.flatMap(toolResultsOf)) {
        if (result.toolName === GET_TOOL_OUTPUT) continue;
        const text = toolOutputText(result.output);
        expect(
          text.length < DEFAULT_OFFLOAD_MIN_CHARS || parseOffloadHeader(text) !== undefined,
        ).toBe(true);
      }
    }
    expect(without.offloaded).toEqual([]);
    expect(offloaded.offloaded.length).toBeGreaterThan(10);
    expect(offloaded.toolOutputCalls).toBeGreaterThan(0);
    expect(verification).toEqual({
      checked: offloaded.offloaded.length,
      identical: offloaded.offloaded.length,
      failed: [],
    });
    expect(offloaded.tokensWithout).toBeLessThan(without.tokensWithout / 2);

    // The heap limit lives only in the environment of the inspect output: the model found it
    // through get_tool_output, and no answer worked from an output cut short.
    const restarting =
      offloaded.replies[DEMO_QUESTIONS.indexOf('Why does payments-api keep restarting?')];
    expect(restarting).toContain(
      'Diagnosis: the Node heap may grow to 384 MB but the container may use only 256 MiB',
    );
    expect(
      offloaded.replies.filter((reply) => reply.includes('was cut before it reached me')),
    ).toEqual([]);
    expect(without.replies.some((reply) => reply.includes('was cut before it reached me'))).toBe(
      true,
    );

    const row = (label: string) => {
      const lines = printed.flatMap((entry) => entry.split('\n'));
      const line = lines.find((entry) => entry.startsWith(`${label}  `));
      return /\s([\d,]+)\s+([\d,]+)$/
        .exec(line ?? '')
        ?.slice(1)
        .map(number);
    };
    expect(row('tokens sent')).toEqual([without.tokensSent, offloaded.tokensSent]);
    expect(row('uncompressed prompt tokens')).toEqual([
      without.tokensWithout,
      offloaded.tokensWithout,
    ]);
    expect(row('model calls')).toEqual([without.requests.length, offloaded.requests.length]);
    expect(row('tool outputs offloaded')).toEqual([0, offloaded.offloaded.length]);
    // Billed input, cache included, as the prompt-cache replay of each run's requests gives it.
    const lines = printed.flatMap((entry) => entry.split('\n'));
    for (const model of ['claude-sonnet-4-5', 'gpt-4o']) {
      const line = lines.find((entry) => entry.startsWith(`billed input as ${model}`)) ?? '';
      const expected = [without, offloaded].map(
        (run) => `$${billedInput(run.requests, model, run.counter).inputUsd?.toFixed(2)}`,
      );
      expect(line.trim().split(/\s+/).slice(-2)).toEqual(expected);
    }
    expect(printed.at(-1)).toContain(
      `${offloaded.offloaded.length} of ${offloaded.offloaded.length} byte for byte — all retrievable: yes.`,
    );

    // The check is real: a changed row is caught.
    const target = offloaded.offloaded[0]?.ref as string;
    const raw = new Database(file('with'));
    raw
      .prepare('update tool_outputs set output = ? where ref = ?')
      .run(JSON.stringify('changed'), target);
    raw.close();
    expect((await verifyOffloadedOutputs(file('with'), offloaded.offloaded)).failed).toEqual([
      target,
    ]);
  });
});
