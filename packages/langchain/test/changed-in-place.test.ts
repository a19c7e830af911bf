import {
  countTokensUncached,
  InvalidMessageError,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import { contextErrorRejectedBy } from '@ctxkit/context-core/testing';
import {
  countToolDefinitions,
  createContextManager,
  defaultCounter,
} from '@ctxkit/context-manager';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { tool } from 'langchain';
import { describe, expect, it } from 'vitest';
import {
  contextTrimmer,
  fitLangChainMessages,
  type LangChainFitResult,
  toCtxkitMessages,
} from '../src/index.js';

// Tools and messages changed in place between fits: a tool's description or schema edited, a
// tool pushed into the same array, a message's content edited (a secret redacted). Every fit
// must count and send them as they are now.

const MAX_TOKENS = 4_000;

/** A tool whose description and schema take some 250 tokens. */
function mcpTool(index: number) {
  const properties: Record<string, unknown> = {};
  for (let field = 0; field < 8; field += 1) {
    properties[`field_${index}_${field}`] = {
      type: 'string',
      description: `Field ${field} of tool ${index}: a value the server checks before it runs.`,
    };
  }
  return tool(async () => 'done', {
    name: `mcp_${index}`,
    description: `Tool ${index} of the MCP server: reads and writes records of kind ${index}.`,
    schema: { type: 'object', properties },
  });
}

/** The messages sent and the tools bound, counted afresh: a new counter, no cache. */
function independentCount(sent: BaseMessage[], tools: readonly object[]): number {
  const counter = defaultCounter('gpt-4o');
  const declarations: ToolDeclaration[] = tools.map((bound) => {
    const { function: fn } = convertToOpenAITool(bound as never) as {
      function: { name: string; description?: string; parameters: Record<string, unknown> };
    };
    return {
      name: fn.name,
      ...(fn.description === undefined ? {} : { description: fn.description }),
      parameters: structuredClone(fn.parameters),
    };
  });
  const toolTokens =
    declarations.length === 0 ? 0 : countToolDefinitions(declarations, counter, 'gpt-4o');
  return countTokensUncached(toCtxkitMessages(sent).messages, counter) + toolTokens;
}

function history(turns: number): BaseMessage[] {
  const messages: BaseMessage[] = [new HumanMessage('Update every record.')];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push(new AIMessage(`Record ${turn}: ${'updated. '.repeat(60)}`));
    messages.push(new HumanMessage(`Next: record ${turn + 1}.`));
  }
  return messages;
}

describe('tools changed in place between fits', () => {
  it('contextTrimmer counts a tool pushed into the same array and a description edited in place', async () => {
    const tools: object[] = [mcpTool(0)];
    const fits: LangChainFitResult[] = [];
    const trimmer = contextTrimmer({
      model: 'gpt-4o',
      maxTokens: MAX_TOKENS,
      tools,
      onFit: (fit) => fits.push(fit),
    });
    const messages = history(30);
    for (let step = 1; step <= 8; step += 1) {
      const sent = await trimmer.invoke(messages);
      const tokens = independentCount(sent, tools);
      expect(tokens).toBeLessThanOrEqual(MAX_TOKENS);
      expect(fits.at(-1)?.report.promptTokens).toBe(tokens);
      tools.push(mcpTool(step));
      // And the first tool's description grows in place.
      const first = tools[0] as { description: string };
      first.description = `${first.description} It keeps an audit log of change ${step}.`;
    }
  });
});

describe('a message changed in place between fits', () => {
  it('sends what it holds now: a secret redacted inside a content array is never sent again', async () => {
    const secret = 'sk-live-0123456789';
    const block = { type: 'text' as const, text: `token ${secret}\n${'log line\n'.repeat(8_000)}` };
    const messages: BaseMessage[] = [
      new HumanMessage('Read the deploy log.'),
      new AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: 'read_log', args: {} }] }),
      new ToolMessage({ tool_call_id: 'call_1', content: [block] }),
    ];
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 20_000 });
    const first = await fitLangChainMessages(manager, messages);
    expect(JSON.stringify(first.messages)).toContain(secret);
    block.text = block.text.replace(secret, '[redacted]');
    const second = await fitLangChainMessages(manager, [...messages, new HumanMessage('Go on.')]);
    expect(JSON.stringify(second.messages)).not.toContain(secret);
    expect(JSON.stringify(second.messages)).toContain('[redacted]');
  });
});

describe('malformed messages', () => {
  /** `{ a: { a: ... 1 } }`, `levels` deep. */
  function nested(levels: number): unknown {
    let value: unknown = 1;
    for (let level = 0; level < levels; level += 1) value = { a: value };
    return value;
  }
  function cyclic<T extends object>(value: T, key: string): T {
    (value as Record<string, unknown>)[key] = value;
    return value;
  }
  const call = (args: unknown) =>
    new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'read', args: args as never }] });
  function withContent(content: unknown): HumanMessage {
    const message = new HumanMessage('placeholder');
    (message as { content: unknown }).content = content;
    return message;
  }
  const SHAPES: { name: string; messages: () => unknown[]; names: string }[] = [
    { name: 'content that is a number', messages: () => [withContent(5)], names: 'message 0' },
    { name: 'content that is null', messages: () => [withContent(null)], names: 'message 0' },
    {
      name: 'content that is an object',
      messages: () => [withContent({ text: 'hi' })],
      names: 'message 0',
    },
    { name: 'a null message', messages: () => [new HumanMessage('Go.'), null], names: 'message 1' },
    { name: 'a null part', messages: () => [withContent([null])], names: 'content block 0' },
    {
      name: 'a part that refers to itself',
      messages: () => [withContent([cyclic({ type: 'hologram' }, 'self')])],
      names: 'self',
    },
    {
      name: 'a cyclic tool-call input',
      messages: () => [new HumanMessage('Go.'), call(cyclic({ path: 'a' }, 'again'))],
      names: 'again',
    },
    {
      name: 'a tool-call input 100,000 levels deep',
      messages: () => [new HumanMessage('Go.'), call(nested(100_000))],
      names: 'nested more than',
    },
  ];
  it.each(SHAPES)('$name gives InvalidMessageError naming it', async ({ messages, names }) => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 10_000 });
    const error = await contextErrorRejectedBy(
      fitLangChainMessages(manager, messages() as BaseMessage[]),
    );
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    expect(error.message).toContain(names);
  });
});

describe('fields the snapshots do not walk', () => {
  it('counts a block text that is not enumerable as it is now, edited in place', async () => {
    // The conversion (and a chat model) reads `text` by name: it must be counted as it is.
    const block: Record<string, unknown> = { type: 'text' };
    Object.defineProperty(block, 'text', { value: 'Hi.', enumerable: false, writable: true });
    const messages: BaseMessage[] = [new HumanMessage({ content: [block as never] })];
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 20_000 });
    const first = await fitLangChainMessages(manager, messages);
    block.text = 'word '.repeat(2_000);
    const second = await fitLangChainMessages(manager, messages);
    const fresh = await fitLangChainMessages(
      createContextManager({ model: 'gpt-4o', maxTokens: 20_000 }),
      messages,
    );
    expect(second.report.promptTokens).toBe(fresh.report.promptTokens);
    expect(second.report.promptTokens).toBeGreaterThan(first.report.promptTokens + 1_000);
  });

  it('refuses a tool-call input replaced by an equal one too deep to compare, at every fit', async () => {
    const nested = (levels: number): Record<string, unknown> => {
      let value: Record<string, unknown> = { end: true };
      for (let level = 0; level < levels; level += 1) value = { a: value };
      return value;
    };
    const call = { id: 'c1', name: 'read', args: nested(20_000) };
    const messages = [new HumanMessage('Go.'), new AIMessage({ content: '', tool_calls: [call] })];
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 10_000 });
    for (let fit = 0; fit < 2; fit += 1) {
      const error = await contextErrorRejectedBy(fitLangChainMessages(manager, messages));
      expect(InvalidMessageError.isInstance(error)).toBe(true);
      call.args = nested(20_000);
    }
  });
});
