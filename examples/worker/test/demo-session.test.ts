import { countTokens, type Message } from '@ctxkit/context-core';
import { countToolDefinitions } from '@ctxkit/context-manager';
import { createTiktokenCounter } from '@ctxkit/token-counters';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { DEMO_QUESTIONS, runDemoSession } from '../src/demo-session.js';
import { captureLogger } from './capture-logger.js';
import { tempDatabase } from './temp-database.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** The message without its cached count, so it is counted again from its content. */
const uncached = ({ tokens: _tokens, tokenCounter: _counter, ...message }: Message): Message =>
  message;

describe('the demo session', () => {
  for (const compressor of ['simple', 'guard', 'three-layer', 'summarize']) {
    it(`sends every request within MAX_CONTEXT_TOKENS by the configured counter (${compressor})`, async () => {
      const database = tempDatabase();
      cleanups.push(database.remove);
      // The compressor alone, on whole tool outputs; offloading has its own test (offload-demo).
      const config = loadConfig({
        CTX_DB: database.file,
        CTX_COMPRESSOR: compressor,
        CTX_OFFLOAD: 'off',
      });
      const counter = createTiktokenCounter(
        config.counter === 'cl100k_base' ? 'cl100k_base' : 'o200k_base',
      );
      const printed: string[] = [];
      const result = await runDemoSession({
        config,
        print: (line) => printed.push(line),
        logger: captureLogger().logger,
      });

      expect(result.requests.length).toBeGreaterThanOrEqual(30);
      expect(result.done).toBe(DEMO_QUESTIONS.length);
      expect(result.failed).toBe(0);
      for (const request of result.requests) {
        const sent =
          countTokens(request.messages.map(uncached), counter) +
          countToolDefinitions(request.tools, counter, config.model);
        expect(sent).toBe(request.tokensSent);
        expect(sent).toBeLessThanOrEqual(config.maxContextTokens - config.reserveTokens);
      }
      expect(result.allWithinBudget).toBe(true);
      expect(result.tokensSent).toBeLessThan(result.tokensWithout / 5);
      expect(printed[0]).toContain('Model: scripted');
      expect(printed.at(-2)).toMatch(
        /tokens saved \(\d+%\)\. Every request within 6000 tokens: yes\.$/,
      );
      // The steps named in the table are explained under it.
      expect(printed.at(-1)).toMatch(/^Steps: out-of-reach drops, .* trim-to-budget then drops/);
    });
  }
});
