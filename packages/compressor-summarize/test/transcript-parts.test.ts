import { countMessageTokens, type Message, messageParts } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import { cutMessageToFit } from '../src/cut-message.js';
import { renderTranscript } from '../src/index.js';

const counter = createHeuristicCounter();
const MEGABYTE = 1024 * 1024;
/** A megabyte of bytes whose base64 is easy to spot in a transcript. */
const bytes = new Uint8Array(MEGABYTE).fill(0x41);
const base64 = Buffer.from(bytes).toString('base64');

/** One message of every kind of media data: bytes, ArrayBuffer, base64, data URL, URL. */
const withMedia: Message[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is wrong on this dashboard?' },
      { type: 'image', image: bytes, mediaType: 'image/png' },
      { type: 'image', image: bytes.buffer.slice(0), mediaType: 'image/jpeg' },
      { type: 'image', image: base64, mediaType: 'image/png' },
      {
        type: 'file',
        data: `data:application/pdf;base64,${base64}`,
        mediaType: 'application/pdf',
        filename: 'report.pdf',
      },
      { type: 'image', image: new URL('https://example.com/chart.png') },
    ],
  },
  {
    role: 'assistant',
    content: [
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'screenshot',
        input: { url: 'http://grafana' },
      },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'screenshot',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: 'captured the page' },
            { type: 'image', image: base64, mediaType: 'image/png' },
          ],
        },
      },
    ],
  },
];

describe('renderTranscript', () => {
  it('names every image and file by its label and never gives its bytes', () => {
    const transcript = renderTranscript(withMedia, { maxToolChars: 2_000 });
    expect(transcript.length).toBeLessThan(1_000);
    expect(transcript).not.toContain('QUFB'); // base64 of the bytes
    expect(transcript).toContain('[user]\n[image image/png, 1.0 MB]');
    expect(transcript).toContain('[user]\n[image image/jpeg, 1.0 MB]');
    expect(transcript).toContain('[user]\n[file report.pdf, application/pdf, 1.0 MB]');
    expect(transcript).toContain('[user]\n[image https://example.com/chart.png]');
    expect(transcript).toContain(
      '[tool result screenshot]\ncaptured the page\n[image image/png, 1.0 MB]',
    );
  });

  it('renders reasoning by its text, JSON outputs as JSON, and names approvals and opaque parts', () => {
    const transcript = renderTranscript(
      [
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'The disk is probably full.', signature: 'sig-secret' },
            { type: 'reasoning', text: '', redactedData: 'redacted-secret' },
            { type: 'reasoning', text: 'Check df first.', encryptedContent: 'encrypted-secret' },
            { type: 'thinking', text: 'An older model thought this.' },
            {
              type: 'tool-call',
              toolCallId: 's1',
              toolName: 'web_search',
              input: { q: 'df' },
              providerExecuted: true,
            },
            {
              type: 'tool-result',
              toolCallId: 's1',
              toolName: 'web_search',
              output: { type: 'json', value: { hits: 2 } },
            },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'rm', input: { path: '/tmp' } },
            { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
            { type: 'opaque', value: { type: 'citation', source: 'doc-1' } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-approval-response',
              approvalId: 'a1',
              approved: false,
              reason: 'too risky',
            },
          ],
        },
      ],
      { maxToolChars: 2_000 },
    );
    expect(transcript).toBe(
      [
        '[assistant reasoning]\nThe disk is probably full.',
        '[assistant reasoning]\nCheck df first.',
        '[assistant reasoning]\nAn older model thought this.',
        '[tool call web_search, run by the provider]\n{"q":"df"}',
        '[tool result web_search]\n{"hits":2}',
        '[tool call rm]\n{"path":"/tmp"}',
        '[assistant]\n[approval requested c1]',
        '[assistant]\n[opaque part citation]',
        '[tool]\n[denied too risky]',
      ].join('\n\n'),
    );
  });

  it('keeps the start and end of long reasoning and JSON outputs', () => {
    const transcript = renderTranscript(
      [
        {
          role: 'assistant',
          content: [{ type: 'reasoning', text: `start ${'x'.repeat(5_000)} end` }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'list',
              output: { type: 'json', value: { items: 'y'.repeat(5_000), last: 'tail' } },
            },
          ],
        },
      ],
      { maxToolChars: 100 },
    );
    expect(transcript.length).toBeLessThan(400);
    expect(transcript).toMatch(
      /^\[assistant reasoning\]\nstart x+\n… \[\d+ characters left out\] …\nx+ end/,
    );
    expect(transcript).toContain('[tool result list]\n{"items":"yyy');
    expect(transcript).toContain('"last":"tail"}');
  });
});

describe('cutMessageToFit', () => {
  it('sends a message with a megabyte image as a copy naming it, without its bytes', () => {
    const [message] = withMedia as [Message];
    expect(countMessageTokens(message, counter)).toBeGreaterThan(300_000);
    const cut = cutMessageToFit(message, 200, counter);
    expect(countMessageTokens(cut, counter)).toBeLessThanOrEqual(200);
    expect(cut.content).toEqual([
      { type: 'text', text: 'What is wrong on this dashboard?' },
      { type: 'text', text: '[image image/png, 1.0 MB]' },
      { type: 'text', text: '[image image/jpeg, 1.0 MB]' },
      { type: 'text', text: '[image image/png, 1.0 MB]' },
      { type: 'text', text: '[file report.pdf, application/pdf, 1.0 MB]' },
      { type: 'text', text: '[image https://example.com/chart.png]' },
    ]);
  });

  it('gives a content output as its text, with its images named, cut around a marker', () => {
    const tool: Message = {
      id: 't1',
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'screenshot',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: `page ${'z'.repeat(20_000)} done` },
              { type: 'image', image: bytes, mediaType: 'image/png' },
            ],
          },
        },
      ],
    };
    const cut = cutMessageToFit(tool, 300, counter);
    expect(countMessageTokens(cut, counter)).toBeLessThanOrEqual(300);
    const [result] = messageParts(cut);
    expect(result).toMatchObject({ type: 'tool-result', toolCallId: 'c1', toolName: 'screenshot' });
    const output = (result as { output: unknown }).output as string;
    expect(typeof output).toBe('string');
    expect(output).toMatch(/^page z+\n… \[\d+ characters cut to fit the summarizer's input\] …\n/);
    expect(output.endsWith('[image image/png, 1.0 MB]')).toBe(true);
  });

  it('keeps readable reasoning without its seal, and opaque parts by their type only', () => {
    const message: Message = {
      id: 'a1',
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Look at the logs.', signature: 's'.repeat(4_000) },
        { type: 'reasoning', text: '', redactedData: 'r'.repeat(40_000) },
        { type: 'thinking', text: 'Older thinking.', signature: 'sig' },
        { type: 'opaque', value: { type: 'citation', spans: 'q'.repeat(40_000) } },
        { type: 'opaque', value: ['no', 'type'] },
        { type: 'text', text: 'Reading the logs.' },
      ],
    };
    const cut = cutMessageToFit(message, 100, counter);
    expect(cut.content).toEqual([
      { type: 'reasoning', text: 'Look at the logs.' },
      { type: 'reasoning', text: 'Older thinking.' },
      { type: 'opaque', value: { type: 'citation' } },
      { type: 'opaque', value: null },
      { type: 'text', text: 'Reading the logs.' },
    ]);
    expect(cut).toMatchObject({ id: 'a1', role: 'assistant' });
  });
});
