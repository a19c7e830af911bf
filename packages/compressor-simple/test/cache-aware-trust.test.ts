import {
  type CompressContext,
  countTokens,
  createInMemoryEventStore,
  type LastPromptStore,
  type Message,
  type StoredPrompt,
  type TokenCounter,
  toolCallsOf,
  toolResultsOf,
  validateMessages,
} from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { cacheAware, contextGuard, trimToBudget } from '../src/index.js';
import { assistant, call, charCounter, result, system, user } from './helpers.js';

/**
 * A tool-using agent's history after `turns` turns, every message with an id `m0`, `m1`, ... as
 * a store numbers them, its texts and call ids marked with `tag`. Each tool output (about 340
 * characters, `tag` in its first line) is over the cap, so a compaction cuts it.
 */
function history(turns: number, tag: string): Message[] {
  const messages: Message[] = [system('You are terse.')];
  for (let index = 0; index < turns; index += 1) {
    messages.push(
      user(`${tag} question ${index}`),
      call(`${tag}-t${index}`),
      result(
        `${tag}-t${index}`,
        `token=hunter2-${tag}-${index}\n${'a line of output\n'.repeat(20)}`,
      ),
      assistant(`${tag} answer ${index}`),
    );
  }
  return messages.map((message, index) => ({ ...message, id: `m${index}` }));
}

const budget = { maxTokens: 2_000 };
const compressor = () =>
  cacheAware({
    compressor: contextGuard({
      toolResults: { maxOutputChars: 300, headChars: 100, tailChars: 100 },
    }),
  });

/** The first `turns` (from 1 up) at which the compressor's output cuts a tool output. */
async function compactedAt(
  run: (messages: Message[]) => Promise<Message[]>,
  make: (turns: number) => Message[],
): Promise<{ turns: number; output: Message[] }> {
  for (let turns = 1; turns < 40; turns += 1) {
    const output = await run(make(turns));
    if (JSON.stringify(output).includes('characters truncated')) return { turns, output };
  }
  throw new Error('never compacted');
}

/** A tool message of `output` cut short that holds a secret: its id and the secret. */
function cutSecret(output: readonly Message[]): { id: string; secret: string } {
  for (const message of output) {
    const text = JSON.stringify(message.content);
    const secret = /hunter2-[a-z]+-\d+/.exec(text)?.[0];
    if (message.role === 'tool' && text.includes('characters truncated') && secret)
      return { id: message.id as string, secret };
  }
  throw new Error('no cut output holds a secret');
}

/** `message`, a tool result, as a new object whose output no longer holds the secret. */
function redacted(message: Message): Message {
  const [part] = toolResultsOf(message);
  return {
    ...message,
    content: [{ ...(part as NonNullable<typeof part>), output: 'token=[redacted]' }],
  };
}

/** What is wrong with the tool pairs of `messages`, or undefined. */
function orphans(messages: readonly Message[]): string[] {
  const calls = new Set<string>();
  const answered = new Set<string>();
  const problems: string[] = [];
  for (const message of messages) {
    for (const part of toolCallsOf(message)) calls.add(part.toolCallId);
    for (const part of toolResultsOf(message)) {
      if (!calls.has(part.toolCallId)) problems.push(`result ${part.toolCallId} without its call`);
      answered.add(part.toolCallId);
    }
  }
  return problems;
}

/** A last-prompt store in memory that keeps JSON copies, as a database would. */
function memoryStore(): LastPromptStore & { rows: Map<string, string> } {
  const rows = new Map<string, string>();
  return {
    rows,
    async getLastPrompt(conversationId) {
      const row = rows.get(conversationId);
      return row === undefined ? undefined : (JSON.parse(row) as StoredPrompt);
    },
    async putLastPrompt(conversationId, prompt) {
      rows.set(conversationId, JSON.stringify(prompt));
    },
  };
}

describe('cacheAware trusts no id for content', () => {
  it('sends nothing of one conversation in another that reuses its ids, without a conversationId', async () => {
    const instance = compressor();
    const plain: CompressContext = { counter: charCounter };
    // Conversation "alpha" until its prompt is a compaction holding cut outputs.
    const { turns } = await compactedAt(
      async (messages) => (await instance.compress(messages, budget, plain)).messages,
      (count) => history(count, 'alpha'),
    );
    // Then "beta", with the same ids m0, m1, ... and a turn more, through the same instance.
    const beta = history(turns + 1, 'beta');
    const { messages } = await instance.compress(beta, budget, plain);
    expect(JSON.stringify(messages)).not.toContain('alpha');
    expect(orphans(messages)).toEqual([]);
    expect(countTokens(messages, charCounter)).toBeLessThanOrEqual(budget.maxTokens);
    // What a fresh instance makes of "beta" is what it gets.
    const fresh = await compressor().compress(history(turns + 1, 'beta'), budget, plain);
    expect(JSON.stringify(messages)).toBe(JSON.stringify(fresh.messages));
  });

  it('never sends again a secret redacted by replacing its message with a new object under the same id', async () => {
    const instance = compressor();
    const context: CompressContext = { counter: charCounter, conversationId: 'c1' };
    // Every tool output holds a secret in its first line, which a cut keeps.
    const { turns, output } = await compactedAt(
      async (messages) => (await instance.compress(messages, budget, context)).messages,
      (count) => history(count, 'x'),
    );
    const { id, secret } = cutSecret(output);
    // The caller redacts it the documented way: a new object under the same id (as LangGraph's
    // reducer does), and the conversation goes on.
    const next = history(turns + 1, 'x');
    const index = next.findIndex((message) => message.id === id);
    next[index] = redacted(next[index] as Message);
    const { messages } = await instance.compress(next, budget, context);
    expect(JSON.stringify(messages)).not.toContain(secret);
    expect(messages).toContain(next[index]);
    expect(orphans(messages)).toEqual([]);
  });

  it('never sends again a secret redacted by editing its message in place, however deep', async () => {
    const instance = compressor();
    const context: CompressContext = { counter: charCounter, conversationId: 'c1' };
    // The same objects, grown turn by turn, until the prompt is a compaction.
    const messages: Message[] = [];
    const { output } = await compactedAt(
      async (turnHistory) => {
        messages.push(...turnHistory.slice(messages.length));
        return (await instance.compress([...messages], budget, context)).messages;
      },
      (count) => history(count, 'x'),
    );
    const { id, secret } = cutSecret(output);
    // Redacted in place, deep in the part; then one more message.
    const message = messages.find((candidate) => candidate.id === id) as Message;
    const part = toolResultsOf(message)[0] as { output: unknown };
    part.output = 'token=[redacted]';
    messages.push({ ...user('x question last'), id: 'last' });
    const { messages: after } = await instance.compress([...messages], budget, context);
    expect(JSON.stringify(after)).not.toContain(secret);
    expect(orphans(after)).toEqual([]);
  });

  it('ignores a stored prompt counted by another counter, recording why, and fits by the counter given', async () => {
    const store = memoryStore();
    const first = compressor();
    const context = (counter: TokenCounter): CompressContext => ({
      counter,
      conversationId: 'c1',
      lastPrompts: store,
    });
    const { turns } = await compactedAt(
      async (messages) => (await first.compress(messages, budget, context(charCounter))).messages,
      (count) => history(count, 'x'),
    );
    // After a restart, a counter that counts every character twice: the stored prompt's tokens
    // (by characters) are half what it holds by this counter. One short message more: by the
    // stored count, the prompt and it stay under the trigger.
    const double: TokenCounter = { name: 'test:double', count: (text) => 2 * text.length };
    const events = createInMemoryEventStore();
    const next = [...history(turns, 'x'), { ...user('and then?'), id: 'next' }];
    const { messages } = await compressor().compress(next, budget, {
      ...context(double),
      events,
    });
    expect(countTokens(messages, double)).toBeLessThanOrEqual(budget.maxTokens);
    const ignored = await events.listEvents('c1');
    expect(
      ignored.map((event) => [event.type, (event.payload as { reason: string }).reason]),
    ).toEqual([['context.last_prompt_ignored', 'counter']]);
    // The prompt stored in its place names the counter its tokens are by.
    const after = JSON.parse(store.rows.get('c1') as string) as StoredPrompt;
    expect(after.counter).toBe('test:double');
  });
});

describe('cacheAware appends only what keeps the tool pairs', () => {
  it('does not append an approval request whose call the compaction left out', async () => {
    const compressor = cacheAware({ compressor: trimToBudget(), trigger: 0.9, target: 0.5 });
    const messages: Message[] = [
      user(`first ${'x'.repeat(300)}`),
      call('c1'),
      user(`question ${'y'.repeat(300)}`),
      assistant(`answer ${'z'.repeat(300)}`),
      user(`question ${'w'.repeat(300)}`),
    ].map((message, index) => ({ ...message, id: `m${index}` }));
    const budget = { maxTokens: 1_000 };
    const first = await compressor.compress(messages, budget, { counter: charCounter });
    expect(first.messages.flatMap(toolCallsOf)).toEqual([]);
    const request: Message = {
      role: 'assistant',
      id: 'm5',
      content: [{ type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' }],
    };
    const next = [...messages, request];
    validateMessages(next);
    const second = await compressor.compress(next, budget, { counter: charCounter });
    expect(() => validateMessages(second.messages)).not.toThrow();
  });
});
