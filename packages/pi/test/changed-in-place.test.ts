import {
  countTokensUncached,
  type FitReport,
  InvalidMessageError,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import {
  countToolDefinitions,
  createContextManager,
  defaultCounter,
} from '@ctxkit/context-manager';
import { Agent, type AgentMessage, type AgentTool } from '@mariozechner/pi-agent-core';
import {
  type Context,
  fauxAssistantMessage,
  registerFauxProvider,
  type ToolResultMessage,
  Type,
} from '@mariozechner/pi-ai';
import { afterAll, describe, expect, it } from 'vitest';
import {
  contextTransform,
  piModelInfo,
  repairToolResults,
  toCtxkitMessages,
} from '../src/index.js';

// Tools and messages changed in place between model calls: pi's Agent hands `transformContext`
// the same `state.tools` array, which a caller (an MCP client) adds tools to; a message already
// sent may be edited in place (a secret redacted). Every request must be counted as it is now.

const MAX_TOKENS = 4_000;

const faux = registerFauxProvider({
  models: [{ id: 'faux-in-place', contextWindow: 48_000, maxTokens: 4_000 }],
});
afterAll(() => faux.unregister());

/** A tool with a description and schema of some 250 tokens. */
function mcpTool(index: number): AgentTool {
  const fields: Record<string, ReturnType<typeof Type.String>> = {};
  for (let field = 0; field < 8; field += 1) {
    fields[`field_${index}_${field}`] = Type.String({
      description: `Field ${field} of tool ${index}: a value the server checks before it runs.`,
    });
  }
  return {
    name: `mcp_${index}`,
    label: `MCP ${index}`,
    description: `Tool ${index} of the MCP server: reads and writes records of kind ${index}.`,
    parameters: Type.Object(fields),
    execute: async () => ({ content: [{ type: 'text', text: 'done' }], details: {} }),
  };
}

/** What the model received, counted afresh: a new counter, the tools as sent, no cache. */
function independentCount(request: Context): number {
  const counter = defaultCounter('gpt-4o');
  const system = request.systemPrompt
    ? countTokensUncached([{ role: 'system', content: request.systemPrompt }], counter)
    : 0;
  const tools: ToolDeclaration[] = (request.tools ?? []).map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: structuredClone(tool.parameters) as unknown as Record<string, unknown>,
  }));
  const toolTokens = tools.length === 0 ? 0 : countToolDefinitions(tools, counter, 'gpt-4o');
  return countTokensUncached(toCtxkitMessages(request.messages), counter) + system + toolTokens;
}

describe('contextTransform with state changed in place', () => {
  it('counts tools pushed into agent.state.tools between runs: every request within the budget', async () => {
    const model = faux.getModel();
    const manager = createContextManager({
      model: { ...piModelInfo(model), id: 'gpt-4o' },
      maxTokens: MAX_TOKENS,
    });
    const requests: Context[] = [];
    const reports: FitReport[] = [];
    const agent = new Agent({
      initialState: { model, systemPrompt: 'You manage records.', tools: [mcpTool(0)] },
    });
    agent.transformContext = contextTransform({
      manager,
      context: () => agent.state,
      onFit: (report) => reports.push(report),
    });
    for (let run = 1; run <= 8; run += 1) {
      faux.setResponses([
        (context: Context) => {
          requests.push({ ...context, messages: [...context.messages] });
          return fauxAssistantMessage(`Run ${run} done: ${'noted '.repeat(100)}`);
        },
      ]);
      await agent.prompt(`Run ${run}: update the records of kind ${run}.`);
      agent.state.tools.push(mcpTool(run));
    }
    expect(requests).toHaveLength(8);
    requests.forEach((request, index) => {
      const tokens = independentCount(request);
      expect(tokens).toBeLessThanOrEqual(MAX_TOKENS);
      expect(reports[index]?.promptTokens).toBe(tokens);
    });
    // The last run sent eight tools: each one counted.
    expect(reports.at(-1)?.toolTokens).toBeGreaterThan(7 * (reports[0]?.toolTokens ?? 0));
  });

  it('sends what a message holds now: a secret redacted in place is never sent again', async () => {
    const secret = 'sk-live-0123456789';
    const result: ToolResultMessage = {
      role: 'toolResult',
      toolCallId: 'call_1',
      toolName: 'read_log',
      content: [{ type: 'text', text: `token ${secret}\n${'log line\n'.repeat(8_000)}` }],
      isError: false,
      timestamp: 2,
    };
    const messages: AgentMessage[] = [
      { role: 'user', content: 'Read the deploy log.', timestamp: 1 },
      {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'call_1', name: 'read_log', arguments: {} }],
        api: 'faux',
        provider: 'faux',
        model: 'faux',
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: 'toolUse',
        timestamp: 2,
      },
      result,
    ];
    let failure: unknown;
    const transform = contextTransform({
      model: 'gpt-4o',
      maxTokens: 20_000,
      onError: (error, sent) => {
        failure = error;
        return sent;
      },
    });
    const first = await transform(messages);
    expect(JSON.stringify(first)).toContain(secret);
    const text = result.content[0] as { text: string };
    text.text = text.text.replace(secret, '[redacted]');
    const second = await transform([
      ...messages,
      { role: 'user', content: 'Go on.', timestamp: 3 },
    ]);
    expect(failure).toBeUndefined();
    expect(JSON.stringify(second)).not.toContain(secret);
    expect(JSON.stringify(second)).toContain('[redacted]');
  });
});

describe('contextTransform with fields the snapshots do not walk', () => {
  /** A transform whose reports are kept; a failure fails the test. */
  function reportingTransform(reports: FitReport[]) {
    return contextTransform({
      model: 'gpt-4o',
      maxTokens: 20_000,
      onFit: (report) => reports.push(report),
      onError: (error) => {
        throw error;
      },
    });
  }

  it('counts a text that is not enumerable as it is now, edited in place', async () => {
    // pi reads `text` by name, so it sends a non-enumerable text: it must be counted as sent.
    const block: Record<string, unknown> = { type: 'text' };
    Object.defineProperty(block, 'text', { value: 'Hi.', enumerable: false, writable: true });
    const messages = [
      { role: 'user', content: [block], timestamp: 1 },
    ] as unknown as AgentMessage[];
    const reports: FitReport[] = [];
    const transform = reportingTransform(reports);
    await transform(messages);
    block.text = 'word '.repeat(2_000);
    await transform(messages);
    const fresh: FitReport[] = [];
    await reportingTransform(fresh)(messages);
    expect(reports[1]?.promptTokens).toBe(fresh[0]?.promptTokens);
    expect(reports[1]?.promptTokens).toBeGreaterThan(1_000);
  });

  it('counts a tool description that is not enumerable as it is now, edited in place', async () => {
    const tool = mcpTool(1);
    Object.defineProperty(tool, 'description', {
      value: 'Short.',
      enumerable: false,
      writable: true,
    });
    const tools = [tool];
    const messages: AgentMessage[] = [{ role: 'user', content: 'Update.', timestamp: 1 }];
    const reports: FitReport[] = [];
    const transform = contextTransform({
      model: 'gpt-4o',
      maxTokens: 20_000,
      context: () => ({ tools }),
      onFit: (report) => reports.push(report),
    });
    await transform(messages);
    tool.description = 'word '.repeat(2_000);
    await transform(messages);
    expect(reports[1]?.toolTokens).toBeGreaterThan((reports[0]?.toolTokens ?? 0) + 1_000);
  });
});

describe('repairToolResults with the same result in another place', () => {
  it('says why as it is now: an orphan result that later repeats an answer', () => {
    const result = {
      role: 'toolResult',
      toolCallId: 'call_1',
      toolName: 'read_log',
      content: [{ type: 'text', text: 'the log' }],
      isError: false,
      timestamp: 3,
    } as ToolResultMessage;
    const call = {
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'call_1', name: 'read_log', arguments: {} }],
      timestamp: 1,
    } as unknown as AgentMessage;
    const orphan = repairToolResults([result]);
    expect(orphan.repairs[0]?.kind).toBe('orphan-tool-result');
    const answer = { ...result, content: [{ type: 'text', text: 'the first answer' }] };
    const repeated = repairToolResults([call, answer as ToolResultMessage, result]);
    expect(repeated.repairs[0]?.kind).toBe('repeated-tool-result');
    const notice = repeated.repairs[0]?.replacement.content[0] as { text: string };
    expect(notice.text).toContain('which answers a call already answered');
  });
});

describe('contextTransform with a tool input replaced by an equal one too deep to compare', () => {
  it('refuses it as invalid at every fit, the first and the next', async () => {
    const nested = (levels: number): Record<string, unknown> => {
      let value: Record<string, unknown> = { end: true };
      for (let level = 0; level < levels; level += 1) value = { a: value };
      return value;
    };
    const call = { type: 'toolCall', id: 'call_1', name: 'read', arguments: nested(20_000) };
    const messages = [
      { role: 'user', content: 'Read.', timestamp: 1 },
      { role: 'assistant', content: [call], stopReason: 'toolUse', timestamp: 2 },
    ] as unknown as AgentMessage[];
    const failures: unknown[] = [];
    const transform = contextTransform({
      model: 'gpt-4o',
      maxTokens: 20_000,
      onError: (error, sent) => {
        failures.push(error);
        return sent;
      },
    });
    await transform(messages);
    call.arguments = nested(20_000);
    await transform(messages);
    expect(failures).toHaveLength(2);
    for (const failure of failures) expect(InvalidMessageError.isInstance(failure)).toBe(true);
  });
});
