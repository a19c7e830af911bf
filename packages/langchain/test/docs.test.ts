import { readFileSync } from 'node:fs';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from 'langchain';
import { expect, it } from 'vitest';
import { buildAgent, buildChain } from './guide/agent-with-ctxkit.js';

/** About 50,000 tokens of log lines that differ from line to line. */
function bigLog(seed: number): string {
  return Array.from(
    { length: 9_000 },
    (_, line) => `${seed}:${line} error E${(line * 7919) % 10_007}`,
  ).join('\n');
}

/** A history of three big tool results: far more than gpt-4o's 128,000-token window. */
function longHistory(): BaseMessage[] {
  const history: BaseMessage[] = [new HumanMessage('Why does the build fail?')];
  for (let step = 0; step < 3; step += 1) {
    history.push(
      new AIMessage({ content: '', tool_calls: [{ id: `c${step}`, name: 'read_log', args: {} }] }),
      new ToolMessage({ content: bigLog(step), tool_call_id: `c${step}` }),
    );
  }
  return history;
}

/** Characters of the messages' content: what a fit cuts or drops. */
function chars(messages: readonly BaseMessage[]): number {
  return messages.reduce((sum, message) => sum + JSON.stringify(message.content).length, 0);
}

const readLog = tool(async () => 'log', {
  name: 'read_log',
  description: 'Reads the build log.',
  schema: { type: 'object', properties: {} },
});

it('docs/integrations/langchain.md shows the example this test type-checks and runs', () => {
  const page = readFileSync(
    new URL('../../../docs/integrations/langchain.md', import.meta.url),
    'utf8',
  );
  const example = readFileSync(new URL('./guide/agent-with-ctxkit.ts', import.meta.url), 'utf8');
  // The fence may say more after `ts` (`no-run` and why: the docs' code-block check does not
  // call the model; this test runs the file).
  const fenced = new RegExp(`^\`\`\`ts( [^\\n]*)?\\n${escapeRegExp(example)}\`\`\`$`, 'm');
  expect(page).toMatch(fenced);
  // The glue: the lines that import or call ctxkit; the rest is the user's own code.
  const glueLines = example
    .split('\n')
    .filter((line) => /@ctxkit\/|\b(contextMiddleware|contextTrimmer)\b/.test(line));
  expect(glueLines.length).toBeLessThanOrEqual(5);
});

it('the page’s agent sends the model a fitted request and keeps its own history whole', async () => {
  const model = fakeModel().respond(new AIMessage('A missing file.'));
  const history = longHistory();
  const result = await buildAgent(model, [readLog]).invoke({ messages: history });
  const sent = model.calls[0]?.messages as BaseMessage[];
  expect(chars(history)).toBeGreaterThan(500_000);
  expect(chars(sent)).toBeLessThan(chars(history) / 2);
  expect(sent.find((message) => message.type === 'human')?.text).toBe('Why does the build fail?');
  expect(result.messages).toHaveLength(history.length + 1);
});

it('the page’s chain fits the list before the model', async () => {
  const model = fakeModel().respond(new AIMessage('A missing file.'));
  const answer = await buildChain(model).invoke(longHistory());
  expect(answer.text).toBe('A missing file.');
  expect(chars(model.calls[0]?.messages ?? [])).toBeLessThan(chars(longHistory()) / 2);
});

/** `text` as a regular expression that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
