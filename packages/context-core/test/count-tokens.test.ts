import { describe, expect, it } from 'vitest';
import {
  countMessageTokens,
  countTokens,
  countTokensFromContent,
  countTokensUncached,
  hasValidTokenCount,
  MESSAGE_OVERHEAD_TOKENS,
  type Message,
  type Part,
  rememberTokenCount,
  TOOL_CALL_OVERHEAD_TOKENS,
  TOOL_RESULT_OVERHEAD_TOKENS,
  withContent,
  withTokenCount,
} from '../src/index.js';
import { spyCounter } from '../src/testing/index.js';
import { charCounter } from './helpers.js';

describe('countMessageTokens', () => {
  it('adds the per-message overhead to text', () => {
    expect(countMessageTokens({ role: 'user', content: 'hello' }, charCounter)).toBe(
      5 + MESSAGE_OVERHEAD_TOKENS,
    );
  });

  it('counts thinking, tool call ids and names, the JSON of tool-call inputs and tool outputs', () => {
    const message: Message = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'hmm', signature: 'opaque' },
        { type: 'text', text: 'ok' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a' } },
      ],
    };
    const expected =
      MESSAGE_OVERHEAD_TOKENS +
      3 +
      2 +
      TOOL_CALL_OVERHEAD_TOKENS +
      2 +
      4 +
      JSON.stringify({ path: 'a' }).length;
    expect(countMessageTokens(message, charCounter)).toBe(expected);
    const toolMessage: Message = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: 'contents' }],
    };
    expect(countMessageTokens(toolMessage, charCounter)).toBe(
      MESSAGE_OVERHEAD_TOKENS + TOOL_RESULT_OVERHEAD_TOKENS + 2 + 4 + 8,
    );
  });

  it('never trusts a tokens field a caller wrote, whatever counter it names', () => {
    let calls = 0;
    const counting = {
      name: charCounter.name,
      count: (text: string) => {
        calls += 1;
        return text.length;
      },
    };
    const forged: Message = { role: 'user', content: 'abc', tokens: 1, tokenCounter: 'test:chars' };
    expect(countMessageTokens(forged, counting)).toBe(3 + MESSAGE_OVERHEAD_TOKENS);
    expect(calls).toBe(1);
    expect(hasValidTokenCount({ ...forged }, counting)).toBe(false);
  });

  it('reuses its own count of a message object while the content is unchanged', () => {
    let calls = 0;
    const counting = {
      name: charCounter.name,
      count: (text: string) => {
        calls += 1;
        return text.length;
      },
    };
    const message: Message = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: 'abc' }],
    };
    const first = countMessageTokens(message, counting);
    expect(countMessageTokens(message, counting)).toBe(first);
    expect(calls).toBe(3);
    expect(hasValidTokenCount(message, counting)).toBe(true);
    expect(hasValidTokenCount(message, { ...counting, name: 'other' })).toBe(false);
  });

  it('counts again after the content was edited in place, replaced, or grew a part', () => {
    const part = { type: 'text' as const, text: 'abc' };
    const message: Message = { role: 'user', content: [part] };
    expect(countMessageTokens(message, charCounter)).toBe(3 + MESSAGE_OVERHEAD_TOKENS);
    part.text = 'a much longer text';
    expect(countMessageTokens(message, charCounter)).toBe(18 + MESSAGE_OVERHEAD_TOKENS);
    (message.content as Part[]).push({ type: 'text', text: 'xy' });
    expect(countMessageTokens(message, charCounter)).toBe(20 + MESSAGE_OVERHEAD_TOKENS);
    message.content = 'z';
    expect(countMessageTokens(message, charCounter)).toBe(1 + MESSAGE_OVERHEAD_TOKENS);
  });

  it('counts an input that does not serialize as empty instead of throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const message: Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: cyclic }],
    };
    expect(countMessageTokens(message, charCounter)).toBe(
      MESSAGE_OVERHEAD_TOKENS + TOOL_CALL_OVERHEAD_TOKENS + 1 + 1,
    );
  });

  it('counts a long tool call id: it is sent, twice', () => {
    const id = 'x'.repeat(40_000);
    const call: Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 't', input: {} }],
    };
    expect(countMessageTokens(call, charCounter)).toBeGreaterThan(40_000);
  });

  it('counts again after a deep edit inside a tool-call input', () => {
    const input = { query: { text: 'x' } };
    const call: Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input }],
    };
    const before = countMessageTokens(call, charCounter);
    input.query.text = 'y'.repeat(3_000);
    expect(countMessageTokens(call, charCounter)).toBe(before + 2_999);
  });

  it('counts again after an array inside the content shrank, grew, or had an element replaced', () => {
    const rows = [{ name: 'a' }, { name: 'b' }];
    const tags = ['x', 'y'];
    const call: Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: { rows, tags } }],
    };
    const fresh = () => countTokensUncached([call], charCounter);
    expect(countMessageTokens(call, charCounter)).toBe(fresh());
    tags.pop();
    expect(countMessageTokens(call, charCounter)).toBe(fresh());
    tags.push('a longer tag', 'another');
    expect(countMessageTokens(call, charCounter)).toBe(fresh());
    rows[1] = { name: 'a much longer name' };
    expect(countMessageTokens(call, charCounter)).toBe(fresh());
    (rows[0] as { name: string }).name = 'edited in place, deep in an array';
    expect(countMessageTokens(call, charCounter)).toBe(fresh());
  });
});

describe('countTokens', () => {
  it('sums messages', () => {
    const messages: Message[] = [
      { role: 'user', content: 'ab' },
      { role: 'assistant', content: 'cde' },
    ];
    expect(countTokens(messages, charCounter)).toBe(5 + 2 * MESSAGE_OVERHEAD_TOKENS);
    expect(countTokens([], charCounter)).toBe(0);
  });
});

describe('withTokenCount and withContent', () => {
  it('caches a count on a copy and returns the same object when it is already valid', () => {
    const original: Message = { role: 'user', content: 'abc', id: 'm1' };
    const counted = withTokenCount(original, charCounter);
    expect(counted).not.toBe(original);
    expect(original.tokens).toBeUndefined();
    expect(counted).toEqual({
      ...original,
      tokens: 3 + MESSAGE_OVERHEAD_TOKENS,
      tokenCounter: charCounter.name,
    });
    expect(withTokenCount(counted, charCounter)).toBe(counted);
  });

  it('replaces content, keeps id and meta, and recounts', () => {
    const original: Message = {
      role: 'user',
      content: 'long text',
      id: 'm1',
      meta: { pinned: true },
      tokens: 13,
      tokenCounter: charCounter.name,
    };
    const changed = withContent(original, 'short', charCounter);
    expect(changed).toEqual({
      role: 'user',
      content: 'short',
      id: 'm1',
      meta: { pinned: true },
      tokens: 5 + MESSAGE_OVERHEAD_TOKENS,
      tokenCounter: charCounter.name,
    });
    expect(original.content).toBe('long text');
  });
});

describe('countTokensFromContent', () => {
  it('never takes a count a store planted, and counts a content it counted before by its hash', () => {
    const { counter, texts } = spyCounter('spy');
    const message: Message = { role: 'user', content: 'a'.repeat(500) };
    rememberTokenCount(message, counter.name, 1);
    expect(countTokens([message], counter)).toBe(1);
    expect(countTokensFromContent([message], counter)).toBe(500 + MESSAGE_OVERHEAD_TOKENS);
    expect(texts).toHaveLength(1);
    // The same content in a new object (a history read again): no tokenization.
    const again = { role: 'user' as const, content: 'a'.repeat(500) };
    expect(countTokensFromContent([again, again], counter)).toBe(
      2 * (500 + MESSAGE_OVERHEAD_TOKENS),
    );
    expect(texts).toHaveLength(1);
  });
});
