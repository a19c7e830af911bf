import type { ContextManager, FitReport, Message } from '@ctxkit/context-core';
import {
  fuzzSeed,
  SAMPLE_TEXT_KINDS,
  sampleText,
  seededRandom,
} from '@ctxkit/context-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContextManager } from '../src/index.js';
import { type ChatMessage, type LlamaServer, startLlamaServer } from './llama-server.js';

// A long agent loop against a local server that counts with Llama 3's tokenizer, not o200k: the
// manager budgets with o200k and learns from the usage the server reports. The same loop with a
// manager never told the usage runs beside it.

const WINDOW = 32_768;
const RESERVE = 1_024;
const CALLS = 110;
const SYSTEM = 'You are a build agent. Read the outputs you are given and decide the next command.';

/** One request of a loop, by the server's count. */
interface Request {
  /** The prompt's input tokens, as the server counted them (refused ones too). */
  sent: number;
  /**
   * What the prompt could have held: the server's count of what the same fit, counting with the
   * server's own tokenizer, sends (the compressor keeps whole messages, so not always the budget).
   */
  couldHave: number;
  refused: boolean;
  report: FitReport;
}

function chat(messages: readonly Message[]): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    ...messages.map((message) => ({
      role: message.role as 'user' | 'assistant',
      content: message.content as string,
    })),
  ];
}

/** Runs the loop: each call appends an output of 150 to 600 tokens of some kind, and the reply. */
async function runLoop(
  server: LlamaServer,
  manager: ContextManager,
  learn: boolean,
  seed: number,
): Promise<Request[]> {
  const oracle = createContextManager({ counter: server.counter, maxTokens: WINDOW - RESERVE });
  const random = seededRandom(seed);
  const history: Message[] = [
    {
      id: 'task',
      role: 'user',
      content: 'Build the project and fix what fails.',
      meta: { pinned: true },
    },
  ];
  const requests: Request[] = [];
  for (let call = 0; call < CALLS; call += 1) {
    const fit = await manager.fit(history, { system: SYSTEM });
    const prompt = chat(fit.messages);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'llama-3.1-8b-instruct', messages: prompt }),
    });
    const body = (await response.json()) as { usage?: { prompt_tokens: number } };
    const sent = server.countPrompt(prompt);
    requests.push({
      sent,
      couldHave: server.countPrompt(chat((await oracle.fit(history, { system: SYSTEM })).messages)),
      refused: !response.ok,
      report: fit.report,
    });
    if (learn && body.usage !== undefined) {
      manager.recordUsage(fit.report, { inputTokens: body.usage.prompt_tokens });
    }
    const kind = SAMPLE_TEXT_KINDS[Math.floor(random.next() * SAMPLE_TEXT_KINDS.length)] ?? 'log';
    const chars = 600 + Math.floor(random.next() * 1_800);
    history.push(
      { id: `a${call}`, role: 'assistant', content: `Running step ${call}: the next command.` },
      { id: `o${call}`, role: 'user', content: sampleText(kind, chars, seed + call) },
    );
  }
  return requests;
}

const use = (request: Request) => request.sent / Math.min(request.couldHave, WINDOW - RESERVE);

describe('a budget calibrated by the usage a Llama server reports', () => {
  let server: LlamaServer;
  beforeAll(async () => {
    server = await startLlamaServer(WINDOW);
  });
  afterAll(async () => {
    await server.close();
  });

  it(`keeps ${CALLS} calls within the server's budget by its own count, and after the first 3 sends what a fit by its tokenizer would`, async () => {
    const seed = fuzzSeed();
    const make = () =>
      createContextManager({ model: 'llama-3.1-8b-instruct', maxTokens: WINDOW - RESERVE });
    const calibrated = await runLoop(server, make(), true, seed);
    const fixed = await runLoop(server, make(), false, seed);
    const summary = (requests: Request[]) => ({
      over: requests.filter((request) => request.sent > WINDOW - RESERVE).length,
      refused: requests.filter((request) => request.refused).length,
      leastUse: Math.min(...requests.slice(3).map(use)),
      meanUse:
        requests.slice(3).reduce((sum, request) => sum + use(request), 0) / (requests.length - 3),
      full: requests.filter((request) => request.report.changes.some((c) => c.action === 'dropped'))
        .length,
    });
    const figures = { seed, calibrated: summary(calibrated), fixedO200k: summary(fixed) };
    console.info(JSON.stringify(figures));
    if (process.env.DEBUG_LOOP)
      for (const r of calibrated)
        console.info(
          r.sent,
          r.couldHave,
          use(r).toFixed(3),
          r.report.calibration.factor.toFixed(4),
          r.report.calibration.margin.toFixed(4),
          r.report.maxTokens,
          r.report.promptTokens,
        );
    // The loop reaches the window: most calls are fitted, not sent whole.
    expect(figures.calibrated.full).toBeGreaterThan(CALLS / 2);
    expect(figures.calibrated.over, JSON.stringify(figures)).toBe(0);
    expect(figures.calibrated.refused).toBe(0);
    // Against a fit that counts with the server's own tokenizer: on average within 3%; a request
    // can fall short by one whole message (up to 2,400 tokens here) the margin left out.
    expect(figures.calibrated.meanUse, JSON.stringify(figures)).toBeGreaterThanOrEqual(0.97);
    expect(figures.calibrated.leastUse, JSON.stringify(figures)).toBeGreaterThanOrEqual(0.9);
    expect(calibrated.at(-1)?.report.calibration.kind).toBe('calibrated');
    expect(fixed.at(-1)?.report.calibration.kind).toBe('estimated');
    // Counted with o200k and never told, the same loop eats into the answer's reserve.
    expect(figures.fixedO200k.over).toBeGreaterThan(0);
  });
});
