import {
  countTokensUncached,
  InvalidMessageError,
  InvalidOptionError,
  type Message,
} from '@ctxkit/context-core';
import { countOpenAIToolTokens, createTiktokenCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import { createContextManager } from '../src/index.js';

/**
 * Fields the caches cannot see: a property that is not enumerable (a snapshot or a hash walks
 * enumerable keys) or an accessor of a class (a private field behind a getter). Counting reads
 * fields by name, so such a field could be counted once and changed unseen: the manager refuses
 * them where it takes them, messages and tool definitions alike.
 */
const independent = createTiktokenCounter('o200k_base');

function hiddenText(text: string): Record<string, unknown> {
  const part: Record<string, unknown> = { type: 'text' };
  Object.defineProperty(part, 'text', { value: text, writable: true, enumerable: false });
  return part;
}

class TextPart {
  readonly type = 'text' as const;
  #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  get text(): string {
    return this.#text;
  }
  set text(text: string) {
    this.#text = text;
  }
}

class ToolWithGetter {
  readonly name = 'lookup';
  #description = 'x';
  readonly parameters = { type: 'object', properties: {} };
  get description(): string {
    return this.#description;
  }
  set description(text: string) {
    this.#description = text;
  }
}

const long = 'word '.repeat(5_000);

describe('fields the caches cannot see', () => {
  it('a message part whose text is not enumerable is refused, edited or not', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 2_000 });
    const part = hiddenText('hello');
    const messages = [{ role: 'user', content: [part] }] as unknown as Message[];
    await expect(manager.fit(messages)).rejects.toBeInstanceOf(InvalidMessageError);
    // A fresh object holding another hidden text is refused too (its hash would not see it).
    const other = [{ role: 'user', content: [hiddenText(long)] }] as unknown as Message[];
    await expect(manager.fit(other)).rejects.toThrow(/text/);
  });

  it('a message part of a class with a getter is refused', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 2_000 });
    const messages = [{ role: 'user', content: [new TextPart('hello')] }] as unknown as Message[];
    await expect(manager.fit(messages)).rejects.toBeInstanceOf(InvalidMessageError);
  });

  it('a tool whose description is not enumerable is refused', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 2_000 });
    const tool: Record<string, unknown> = { name: 'search', parameters: { type: 'object' } };
    Object.defineProperty(tool, 'description', {
      value: 'short',
      writable: true,
      enumerable: false,
    });
    const fit = manager.fit([{ role: 'user', content: 'hi' }], { tools: [tool as never] });
    await expect(fit).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(fit).rejects.toThrow(/tools\[0\]\.description/);
  });

  it('a tool of a class with a getter is refused', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 2_000 });
    const fit = manager.fit([{ role: 'user', content: 'hi' }], {
      tools: [new ToolWithGetter() as never],
    });
    await expect(fit).rejects.toBeInstanceOf(InvalidOptionError);
  });

  it('plain data edited in place is counted again (the same cases, made visible)', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 2_000 });
    const part = { type: 'text' as const, text: 'hello' };
    const tool = { name: 'search', description: 'short', parameters: { type: 'object' } };
    const messages: Message[] = [{ role: 'user', content: [part] }];
    await manager.fit(messages, { tools: [tool] });
    part.text = long;
    tool.description = 'a longer description '.repeat(20);
    const { messages: sent, report } = await manager.fit(messages, { tools: [tool] });
    const prompt =
      countTokensUncached(sent, independent) + countOpenAIToolTokens([tool], independent, 'gpt-4o');
    expect(prompt).toBeLessThanOrEqual(report.maxTokens);
    expect(report.promptTokens).toBe(prompt);
  });
});

describe('fields the caches cannot see, given after a count', () => {
  const messages: Message[] = [{ role: 'user', content: 'hi' }];

  it('a tool given a description that is not enumerable is refused, as it would be afresh', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 2_000 });
    const tool: Record<string, unknown> = { name: 'search', parameters: { type: 'object' } };
    const tools = [tool as never];
    await manager.fit(messages, { tools });
    Object.defineProperty(tool, 'description', { value: long, enumerable: false });
    await expect(manager.fit(messages, { tools })).rejects.toThrow(/tools\[0\]\.description/);
  });

  it('a tool whose description became a getter is refused, as it would be afresh', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 2_000 });
    const tool: Record<string, unknown> = { name: 'search', description: 'short' };
    const tools = [tool as never];
    await manager.fit(messages, { tools });
    Object.defineProperty(tool, 'description', { get: () => 'short', enumerable: true });
    await expect(manager.fit(messages, { tools })).rejects.toBeInstanceOf(InvalidOptionError);
  });
});
