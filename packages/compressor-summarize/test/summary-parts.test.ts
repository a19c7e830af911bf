import { countMessageTokens, type Message } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCoveredEnd } from '../src/find-covered-end.js';
import {
  createChatSummarizer,
  DEFAULT_SUMMARY_PROMPT,
  renderTranscript,
  SUMMARY_CUT_MARKER,
  SUMMARY_HEADER,
} from '../src/index.js';
import { messageFingerprint } from '../src/message-fingerprint.js';
import { capSummaryText } from '../src/summary-message.js';

const counter = createHeuristicCounter();

describe('capSummaryText', () => {
  it('returns text that fits whole, and otherwise the longest head that fits with the marker', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 3_000 }),
        fc.integer({ min: 0, max: 800 }),
        (text, max) => {
          const capped = capSummaryText(text, max, counter);
          const tokens = (body: string) =>
            countMessageTokens({ role: 'user', content: `${SUMMARY_HEADER}\n\n${body}` }, counter);
          if (tokens(text) <= max) {
            expect(capped).toBe(text);
            return;
          }
          if (capped === undefined) {
            expect(tokens(SUMMARY_CUT_MARKER)).toBeGreaterThan(max);
            return;
          }
          expect(tokens(capped)).toBeLessThanOrEqual(max);
          expect(capped.endsWith(SUMMARY_CUT_MARKER)).toBe(true);
          expect(text.startsWith(capped.slice(0, -SUMMARY_CUT_MARKER.length))).toBe(true);
        },
      ),
      fuzzParameters(100),
    );
  });
});

describe('findCoveredEnd', () => {
  const history: Message[] = ['a', 'b', 'ok', 'c', 'ok', 'd'].map((content, index) => ({
    id: `m${index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    content,
  }));

  it('finds the covered message by id, then at its position, then at the earliest fingerprint', () => {
    const fingerprint = messageFingerprint(history, 3);
    expect(findCoveredEnd(history, { throughId: 'm3', fingerprint: 'x', count: 3 })).toBe(3);
    const renamed = history.map((message, index) => ({ ...message, id: `n${index}` }));
    expect(findCoveredEnd(renamed, { throughId: 'm3', fingerprint, count: 3, position: 3 })).toBe(
      3,
    );
    const shifted = renamed.slice(1);
    expect(findCoveredEnd(shifted, { throughId: 'm3', fingerprint, count: 3, position: 3 })).toBe(
      2,
    );
    expect(findCoveredEnd(shifted, { fingerprint: 'nothing', count: 3 })).toBe(-1);
  });
});

describe('createChatSummarizer', () => {
  const messages: Message[] = [
    { role: 'user', content: 'Why does the API restart?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'the restarts follow memory', signature: 'signature-data' },
        { type: 'tool-call', toolCallId: 't1', toolName: 'get_logs', input: { tail: 50 } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 't1',
          toolName: 'get_logs',
          output: `OOMKilled ${'x'.repeat(10_000)} exit 137`,
          isError: true,
        },
      ],
    },
  ];

  it('sends the prompt and a transcript, then the previous summary with only the new messages', async () => {
    const sent: Message[][] = [];
    const summarize = createChatSummarizer({
      complete: async (request) => {
        sent.push(request);
        return 'summary';
      },
      maxToolChars: 100,
      model: 'gpt-4o-mini',
    });
    expect(await summarize(messages, undefined, {})).toBe('summary');
    await summarize(messages.slice(0, 1), 'Earlier summary.', {});
    const [first, second] = sent as [Message[], Message[]];
    expect(first[0]).toEqual({ role: 'system', content: DEFAULT_SUMMARY_PROMPT });
    const transcript = renderTranscript(messages, { maxToolChars: 100 });
    expect(first[1]?.content).toContain(`<conversation>\n${transcript}\n</conversation>`);
    expect(transcript).toContain('[tool call get_logs]\n{"tail":50}');
    expect(transcript).toContain('[tool result get_logs, error]\nOOMKilled');
    expect(transcript).toContain('exit 137');
    expect(transcript).toContain('characters left out');
    expect(transcript).toContain('[assistant reasoning]\nthe restarts follow memory');
    expect(transcript).not.toContain('signature-data');
    expect(transcript.length).toBeLessThan(450);
    expect(second[1]?.content).toContain(
      '<previous-summary>\nEarlier summary.\n</previous-summary>',
    );
    expect(second[1]?.content).not.toContain('get_logs');
  });

  it('rejects a missing complete function or an empty prompt', () => {
    expect(() => createChatSummarizer({} as never)).toThrow(/option complete must be a function/);
    expect(() => createChatSummarizer({ complete: async () => '', prompt: ' ' })).toThrow(
      /option prompt must be a non-empty string/,
    );
  });
});
