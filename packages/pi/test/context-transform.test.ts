import { type FitReport, InvalidOptionError } from '@ctxkit/context-core';
import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import type { AssistantMessage, Tool, ToolResultMessage } from '@mariozechner/pi-ai';
import { Type } from '@mariozechner/pi-ai';
import { describe, expect, it } from 'vitest';
import { contextTransform, type ToolResultRepair } from '../src/index.js';

const usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function call(id: string): AssistantMessage {
  return {
    role: 'assistant',
    content: [{ type: 'toolCall', id, name: 'read', arguments: { path: `${id}.txt` } }],
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    usage,
    stopReason: 'toolUse',
    timestamp: 2,
  };
}

function result(id: string, text: string): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: id,
    toolName: 'read',
    content: [{ type: 'text', text }],
    details: { bytes: text.length },
    isError: false,
    timestamp: 3,
  };
}

const task: AgentMessage = { role: 'user', content: 'Read the files.', timestamp: 1 };

describe('contextTransform', () => {
  it('counts the system prompt and the tools as the manager counts them', async () => {
    const tools: Tool[] = [
      {
        name: 'read',
        description: 'Reads a file.',
        parameters: Type.Object({ path: Type.String({ description: 'The file.' }) }),
      },
    ];
    const manager = createContextManager({ model: 'claude-sonnet-4-5' });
    const reports: FitReport[] = [];
    const transform = contextTransform({
      manager,
      context: { systemPrompt: 'You are a careful agent.', tools },
      onFit: (report) => reports.push(report),
    });
    await transform([task]);
    const declared = tools.map(({ name, description, parameters }) => ({
      name,
      description,
      parameters: parameters as unknown as Record<string, unknown>,
    }));
    expect(reports[0]?.toolTokens).toBe(manager.countTools(declared));
    expect(reports[0]?.toolTokens).toBeGreaterThan(0);
    expect(reports[0]?.systemTokens).toBeGreaterThan(0);
  });

  it('reads the prompt’s source before every fit', async () => {
    const state = { systemPrompt: '', tools: [] as Tool[] };
    const reports: FitReport[] = [];
    const transform = contextTransform({
      maxTokens: 100_000,
      context: () => state,
      onFit: (report) => reports.push(report),
    });
    await transform([task]);
    state.systemPrompt = 'A much longer system prompt than before.';
    await transform([task]);
    expect(reports.map((report) => report.systemTokens > 0)).toStrictEqual([false, true]);
  });

  it('under pressure, a cut tool result keeps its call id, details and timestamp', async () => {
    const messages: AgentMessage[] = [
      task,
      call('c1'),
      result('c1', 'x'.repeat(60_000)),
      call('c2'),
      result('c2', 'short'),
    ];
    const sent = await contextTransform({ maxTokens: 4_000 })(messages);
    const cut = sent.find(
      (message) => message.role === 'toolResult' && message.toolCallId === 'c1',
    ) as ToolResultMessage | undefined;
    expect(cut).toBeDefined();
    expect(cut).not.toBe(messages[2]);
    expect(cut).toMatchObject({ toolName: 'read', details: { bytes: 60_000 }, timestamp: 3 });
    expect((cut?.content[0] as { text: string } | undefined)?.text.length).toBeLessThan(60_000);
    expect(sent.at(-1)).toBe(messages[4]);
  });

  it('sends a tool result without its call as a user message, and reports it', async () => {
    const orphan = result('gone', 'the output');
    const repairs: ToolResultRepair[] = [];
    const transform = contextTransform({
      maxTokens: 100_000,
      onRepair: (repair) => repairs.push(repair),
    });
    const sent = await transform([task, orphan, call('c1'), result('c1', 'ok')]);
    expect(sent).toHaveLength(4);
    expect(sent[1]).toStrictEqual({
      role: 'user',
      content: [
        {
          type: 'text',
          text: '[Result of tool read (call gone), whose call is no longer in the conversation:]',
        },
        { type: 'text', text: 'the output' },
      ],
      timestamp: 3,
    });
    expect(repairs).toMatchObject([
      { kind: 'orphan-tool-result', index: 1, toolCallId: 'gone', toolName: 'read' },
    ]);
  });

  it('sends a second result for one call as a user message, and reports it', async () => {
    const repairs: ToolResultRepair[] = [];
    const transform = contextTransform({
      maxTokens: 100_000,
      onRepair: (repair) => repairs.push(repair),
    });
    const sent = await transform([task, call('c1'), result('c1', 'a'), result('c1', 'b')]);
    expect(sent[3]?.role).toBe('user');
    expect(repairs).toMatchObject([{ kind: 'repeated-tool-result', index: 3 }]);
  });

  it('warns on the logger of a repair when no onRepair is given', async () => {
    const lines: unknown[][] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      warn: (...args: unknown[]) => lines.push(args),
      error: () => {},
    };
    await contextTransform({ maxTokens: 100_000, logger })([task, result('gone', 'x')]);
    expect(String(lines[0]?.[0])).toContain('call gone');
  });

  it('hands a failed fit to onError and sends what it returns, without throwing', async () => {
    const errors: unknown[] = [];
    const transform = contextTransform({
      maxTokens: 50,
      context: { systemPrompt: 'word '.repeat(200) },
      onError: (error, messages) => {
        errors.push(error);
        return messages.slice(-1);
      },
    });
    const messages = [task, call('c1'), result('c1', 'ok')];
    await expect(transform(messages)).resolves.toStrictEqual([messages[2]]);
    expect(errors).toHaveLength(1);
    expect((errors[0] as { code?: string }).code).toBe('budget_exceeded');
  });

  it('by default sends the messages as they came when the fit fails, with an error logged', async () => {
    const errors: unknown[][] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: (...args: unknown[]) => errors.push(args),
    };
    const messages = [task];
    const sent = await contextTransform({
      maxTokens: 50,
      logger,
      context: { systemPrompt: 'word '.repeat(200) },
    })(messages);
    expect(sent).toStrictEqual(messages);
    expect(errors).toHaveLength(1);
  });

  it('sends the messages as they came when the fit is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const messages = [task];
    const onError = () => [] as AgentMessage[];
    const sent = await contextTransform({ maxTokens: 100_000, onError })(
      messages,
      controller.signal,
    );
    expect(sent).toStrictEqual(messages);
  });

  it.each([
    ['no model, budget or manager', {}, 'maxTokens'],
    ['a manager without fit', { manager: {} }, 'manager'],
    [
      'a context that is neither an object nor a function',
      { maxTokens: 10, context: 3 },
      'context',
    ],
    ['an onRepair that is not a function', { maxTokens: 10, onRepair: 'log' }, 'onRepair'],
  ])('refuses %s at creation', (_, options, option) => {
    const error = contextErrorThrownBy(() => contextTransform(options as never));
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error.message).toContain(option);
  });

  it('takes a pi-ai model’s window for the budget', () => {
    const reports: FitReport[] = [];
    const transform = contextTransform({
      model: {
        id: 'my-model',
        name: 'My model',
        api: 'openai-completions',
        provider: 'local',
        baseUrl: 'http://127.0.0.1:1',
        reasoning: false,
        input: ['text'],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 32_000,
        maxTokens: 4_000,
      },
      onFit: (report) => reports.push(report),
    });
    return transform([task]).then(() => {
      expect(reports[0]?.maxTokens).toBe(28_000);
    });
  });
});
