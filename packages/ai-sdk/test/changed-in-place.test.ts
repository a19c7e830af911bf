import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
} from '@ai-sdk/provider';
import {
  countTokensUncached,
  type FitReport,
  InvalidMessageError,
  type ToolDeclaration,
  validateMessages,
} from '@ctxkit/context-core';
import { contextErrorRejectedBy } from '@ctxkit/context-core/testing';
import { countToolDefinitions, defaultCounter } from '@ctxkit/context-manager';
import { generateText, jsonSchema, type ModelMessage, stepCountIs, type ToolSet, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  callToolDeclarations,
  contextMiddleware,
  contextPrepareStep,
  fromPrompt,
  toPrompt,
} from '../src/index.js';

// Tools and messages an agent changes in place between steps (an MCP client adds tools to the
// same ToolSet; a secret is redacted inside a message already sent): every request must be
// counted and sent as it is now.

const MAX_TOKENS = 4_000;

/** A tool with a description and schema of some 250 tokens. */
function mcpTool(index: number) {
  const properties: Record<string, { type: 'string'; description: string }> = {};
  for (let field = 0; field < 8; field += 1) {
    properties[`field_${index}_${field}`] = {
      type: 'string',
      description: `Field ${field} of tool ${index}: a value the server checks before it runs.`,
    };
  }
  return {
    description: `Tool ${index} of the MCP server: reads and writes records of kind ${index}.`,
    schema: { type: 'object' as const, properties },
  };
}

/** What the model received, counted afresh: a new counter, the tools as sent, no cache. */
function independentCount(prompt: LanguageModelV4Prompt, tools: unknown[] | undefined): number {
  const counter = defaultCounter('gpt-4o');
  const { messages } = fromPrompt(prompt);
  validateMessages(messages);
  const declarations: ToolDeclaration[] = (tools ?? []).map((entry) => {
    const sent = entry as LanguageModelV4FunctionTool;
    return {
      name: sent.name,
      ...(sent.description === undefined ? {} : { description: sent.description }),
      parameters: structuredClone(sent.inputSchema) as Record<string, unknown>,
    };
  });
  const toolTokens =
    declarations.length === 0 ? 0 : countToolDefinitions(declarations, counter, 'gpt-4o');
  return countTokensUncached(messages, counter) + toolTokens;
}

/** A model that calls `lookup` at every step and adds a tool to `toolSet`, in place, each time. */
function growingToolsModel(toolSet: ToolSet): MockLanguageModelV4 {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async (): Promise<LanguageModelV4GenerateResult> => {
      step += 1;
      const { description, schema } = mcpTool(step);
      toolSet[`mcp_${step}`] = tool({ description, inputSchema: jsonSchema(schema) });
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `call-${step}`,
            toolName: 'lookup',
            input: JSON.stringify({ key: `record-${step}` }),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage: {
          inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 0, text: 0, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

describe('tools added to the same ToolSet between steps', () => {
  it('prepareStep counts them: every request is within the budget and the report says so', async () => {
    const toolSet: ToolSet = {
      lookup: tool({
        description: 'Looks a record up.',
        inputSchema: jsonSchema({ type: 'object', properties: { key: { type: 'string' } } }),
        execute: async ({ key }: { key: string }) => `${key}: ${'value '.repeat(150)}`,
      }),
    };
    const reports: FitReport[] = [];
    const model = growingToolsModel(toolSet);
    await generateText({
      model,
      messages: [{ role: 'user', content: 'Look up every record.' }],
      tools: toolSet,
      prepareStep: contextPrepareStep({
        model: 'gpt-4o',
        maxTokens: MAX_TOKENS,
        tools: toolSet,
        onFit: (report) => reports.push(report),
      }),
      stopWhen: stepCountIs(10),
    });
    expect(model.doGenerateCalls).toHaveLength(10);
    model.doGenerateCalls.forEach((call: LanguageModelV4CallOptions, step) => {
      const tokens = independentCount(call.prompt, call.tools);
      expect(tokens).toBeLessThanOrEqual(MAX_TOKENS);
      expect(reports[step]?.promptTokens).toBe(tokens);
    });
    // The tools alone took most of the budget by the end.
    expect(reports.at(-1)?.toolTokens).toBeGreaterThan(MAX_TOKENS / 2);
  });

  it('the middleware counts tools pushed into the same params.tools array', async () => {
    const reports: FitReport[] = [];
    const middleware = contextMiddleware({
      model: 'gpt-4o',
      maxTokens: MAX_TOKENS,
      onFit: (report) => reports.push(report),
    });
    const tools: LanguageModelV4FunctionTool[] = [];
    const prompt: LanguageModelV4Prompt = [
      { role: 'user', content: [{ type: 'text', text: 'Look up every record.' }] },
    ];
    for (let step = 1; step <= 10; step += 1) {
      const { description, schema } = mcpTool(step);
      tools.push({ type: 'function', name: `mcp_${step}`, description, inputSchema: schema });
      prompt.push(
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: `c${step}`, toolName: 'lookup', input: {} }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: `c${step}`,
              toolName: 'lookup',
              output: { type: 'text', value: `record ${step}: ${'value '.repeat(150)}` },
            },
          ],
        },
      );
      const params = await middleware.transformParams?.({
        type: 'generate',
        // A new prompt array each call (the tools array is the one changed in place).
        params: { prompt: [...prompt], tools },
        model: undefined as never,
      });
      const tokens = independentCount(params?.prompt ?? [], tools);
      expect(tokens).toBeLessThanOrEqual(MAX_TOKENS);
      expect(reports.at(-1)?.promptTokens).toBe(tokens);
    }
  });
});

describe('a message changed in place after a step', () => {
  it('prepareStep sends what it holds now: a secret redacted in place is never sent again', async () => {
    const secret = 'sk-live-0123456789';
    const output = {
      type: 'text' as const,
      value: `token ${secret}\n${'log line\n'.repeat(8_000)}`,
    };
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Read the deploy log.' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: {} }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output }],
      },
    ];
    const prepare = contextPrepareStep({ model: 'gpt-4o', maxTokens: 20_000 });
    const first = await prepare({ messages });
    // The long output was cut to its head and tail: the first request still has the token.
    expect(JSON.stringify(first.messages)).toContain(secret);
    output.value = output.value.replace(secret, '[redacted]');
    const second = await prepare({ messages: [...messages, { role: 'user', content: 'Go on.' }] });
    expect(JSON.stringify(second.messages)).not.toContain(secret);
    expect(JSON.stringify(second.messages)).toContain('[redacted]');
  });

  it('prepareStep takes an array the agent pushes to in place between steps', async () => {
    const messages: ModelMessage[] = [{ role: 'user', content: 'Count to three.' }];
    const prepare = contextPrepareStep({ model: 'gpt-4o', maxTokens: 20_000 });
    for (let step = 1; step <= 3; step += 1) {
      const { messages: sent } = await prepare({ messages });
      expect(sent).toEqual(messages);
      messages.push({ role: 'assistant', content: `${step}` }, { role: 'user', content: 'Next.' });
    }
  });

  it('a part ctxkit has no type for, changed after the conversion, comes back as ctxkit counted it', () => {
    const part = { type: 'hologram', frames: 3 };
    const prompt = [{ role: 'user', content: [part] }] as unknown as LanguageModelV4Prompt;
    const { messages } = fromPrompt(prompt);
    expect(toPrompt(messages)[0]?.content[0]).toBe(part);
    part.frames = 3_000;
    expect(toPrompt(messages)[0]?.content[0]).toEqual({ type: 'hologram', frames: 3 });
  });
});

describe('fields the snapshots do not walk', () => {
  it('prepareStep counts a text that is not enumerable as it is now, edited in place', async () => {
    // The AI SDK reads `text` by name, so it sends a non-enumerable text: it is counted as sent.
    const part: Record<string, unknown> = { type: 'text' };
    Object.defineProperty(part, 'text', { value: 'Hi.', enumerable: false, writable: true });
    const messages = [{ role: 'user', content: [part] }] as unknown as ModelMessage[];
    const reports: FitReport[] = [];
    const prepareOf = () =>
      contextPrepareStep({
        model: 'gpt-4o',
        maxTokens: 20_000,
        onFit: (report) => reports.push(report),
      });
    const prepare = prepareOf();
    await prepare({ messages });
    part.text = 'word '.repeat(2_000);
    await prepare({ messages });
    await prepareOf()({ messages });
    expect(reports[1]?.promptTokens).toBe(reports[2]?.promptTokens);
    expect(reports[1]?.promptTokens).toBeGreaterThan((reports[0]?.promptTokens ?? 0) + 1_000);
  });

  it('prepareStep refuses a tool input replaced by an equal one too deep to compare, at every step', async () => {
    const nested = (levels: number): Record<string, unknown> => {
      let value: Record<string, unknown> = { end: true };
      for (let level = 0; level < levels; level += 1) value = { a: value };
      return value;
    };
    const call = { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: nested(20_000) };
    const messages = [
      { role: 'user', content: 'Read.' },
      { role: 'assistant', content: [call] },
    ] as ModelMessage[];
    const prepare = contextPrepareStep({ model: 'gpt-4o', maxTokens: 20_000 });
    for (let step = 0; step < 2; step += 1) {
      const error = await contextErrorRejectedBy(Promise.resolve(prepare({ messages })));
      expect(InvalidMessageError.isInstance(error)).toBe(true);
      call.input = nested(20_000);
    }
  });
});

describe('tool fields the snapshots do not walk', () => {
  it('callToolDeclarations declares a description that is not enumerable as it is now, edited in place', () => {
    const { schema } = mcpTool(1);
    const sent = { type: 'function', name: 'mcp_1', inputSchema: schema } as Record<
      string,
      unknown
    >;
    Object.defineProperty(sent, 'description', {
      value: 'Short.',
      enumerable: false,
      writable: true,
    });
    const tools = [sent as unknown as LanguageModelV4FunctionTool];
    expect(callToolDeclarations(tools)[0]?.description).toBe('Short.');
    sent.description = 'Reads and writes records.';
    expect(callToolDeclarations(tools)[0]?.description).toBe('Reads and writes records.');
  });
});

it('callToolDeclarations takes provider args replaced by equal ones too deep to compare', () => {
  const nested = (levels: number): Record<string, unknown> => {
    let value: Record<string, unknown> = { end: true };
    for (let level = 0; level < levels; level += 1) value = { a: value };
    return value;
  };
  const search = {
    type: 'provider',
    id: 'openai.web_search',
    name: 'search',
    args: nested(20_000),
  };
  const tools = [search] as never[];
  const first = callToolDeclarations(tools);
  search.args = nested(20_000);
  // Compared by identity: a deep equality of the two would itself overflow.
  expect(callToolDeclarations(tools) === first).toBe(false);
});
