import type { TokenCounter } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS,
  anthropicToolSystemPromptTokens,
  countAnthropicToolTokens,
  countGeminiToolTokens,
  countMessageOverheadTokens,
  countOpenAIToolTokens,
  createHeuristicCounter,
  createTiktokenCounter,
  type ToolDeclaration,
  type ToolDefinition,
  tiktokenEncodingOf,
} from '../src/index.js';
import { expectInvalidOption } from './helpers.js';

/** The OpenAI Cookbook's example ("Counting tokens for chat completions with tool calls"). */
const WEATHER: ToolDeclaration = {
  name: 'get_current_weather',
  description: 'Get the current weather in a given location',
  parameters: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
      unit: {
        type: 'string',
        description: 'The unit of temperature to return',
        enum: ['celsius', 'fahrenheit'],
      },
    },
    required: ['location'],
  },
};
const MESSAGES = [
  'You are a helpful assistant that can answer to questions about the weather.',
  "What's the weather like in San Francisco?",
];

/** Prompt tokens of the cookbook's request: messages, their framing, and the tool. */
function cookbookPrompt(counter: TokenCounter, model: string): number {
  const content = MESSAGES.reduce((sum, text) => sum + counter.count(text), 0);
  return (
    countMessageOverheadTokens('openai', MESSAGES.length) +
    content +
    countOpenAIToolTokens([WEATHER], counter, model)
  );
}

describe('countOpenAIToolTokens', () => {
  it('reproduces the cookbook’s example: 101 prompt tokens on gpt-4o, 105 on gpt-4', () => {
    expect(cookbookPrompt(createTiktokenCounter('o200k_base'), 'gpt-4o')).toBe(101);
    expect(cookbookPrompt(createTiktokenCounter('o200k_base'), 'gpt-4o-mini')).toBe(101);
    expect(cookbookPrompt(createTiktokenCounter('cl100k_base'), 'gpt-4')).toBe(105);
    expect(cookbookPrompt(createTiktokenCounter('cl100k_base'), 'gpt-3.5-turbo')).toBe(105);
  });

  it('costs nothing without tools, and counts a tool without parameters by its name and description', () => {
    const counter = createTiktokenCounter('o200k_base');
    expect(countOpenAIToolTokens([], counter)).toBe(0);
    expect(countOpenAIToolTokens([{ name: 'ping', description: 'Check.' }], counter)).toBe(
      7 + counter.count('ping:Check') + 12,
    );
  });

  it('counts the keywords the cookbook leaves out (nested schemas, bounds) as their JSON', () => {
    const counter = createTiktokenCounter('o200k_base');
    const flat: ToolDeclaration = {
      name: 'search',
      parameters: { type: 'object', properties: { tags: { type: 'array', description: 'Tags' } } },
    };
    const nested: ToolDeclaration = {
      name: 'search',
      parameters: {
        type: 'object',
        properties: { tags: { type: 'array', description: 'Tags', items: { type: 'string' } } },
      },
    };
    expect(countOpenAIToolTokens([nested], counter) - countOpenAIToolTokens([flat], counter)).toBe(
      counter.count('{"items":{"type":"string"}}'),
    );
  });

  it('grows with every tool added', () => {
    const counter = createHeuristicCounter();
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 8 }),
        (names) => {
          const tools = names.map((name) => ({ ...WEATHER, name }));
          const total = countOpenAIToolTokens(tools, counter);
          expect(total).toBeGreaterThanOrEqual(0);
          expect(countOpenAIToolTokens([...tools, WEATHER], counter)).toBeGreaterThan(total);
        },
      ),
      fuzzParameters(100),
    );
  });
});

describe('countAnthropicToolTokens', () => {
  it('adds the published tool-use system prompt of the model and tool choice', () => {
    expect(anthropicToolSystemPromptTokens('claude-opus-4-7')).toBe(675);
    expect(anthropicToolSystemPromptTokens('claude-opus-4-7', 'any')).toBe(804);
    expect(anthropicToolSystemPromptTokens('claude-sonnet-4-5-20250929', 'none')).toBe(496);
    expect(anthropicToolSystemPromptTokens('claude-sonnet-4-5-20250929', 'tool')).toBe(588);
    expect(anthropicToolSystemPromptTokens('claude-opus-4-20250514')).toBe(313);
    expect(anthropicToolSystemPromptTokens('claude-opus-4-1-20250805', 'any')).toBe(315);
    expect(anthropicToolSystemPromptTokens('claude-opus-4-8')).toBe(290);
    expect(anthropicToolSystemPromptTokens('claude-sonnet-5')).toBe(354);
    expect(anthropicToolSystemPromptTokens('claude-3-5-haiku-20241022', 'any')).toBe(355);
    expect(anthropicToolSystemPromptTokens('anthropic.claude-haiku-4-5-20251001-v1:0')).toBe(496);
  });

  it('gives a model the table does not list its largest figure', () => {
    const largest = Math.max(
      ...Object.values(ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS).flatMap((row) => [
        row.autoOrNone,
        row.anyOrTool,
      ]),
    );
    expect(largest).toBe(804);
    expect(anthropicToolSystemPromptTokens('claude-opus-5')).toBe(804);
    expect(anthropicToolSystemPromptTokens('claude-3-opus-20240229')).toBe(804);
  });

  it('adds every tool as the JSON the API receives', () => {
    const counter = createTiktokenCounter('o200k_base');
    const json = JSON.stringify({
      name: WEATHER.name,
      description: WEATHER.description,
      input_schema: WEATHER.parameters,
    });
    expect(countAnthropicToolTokens([WEATHER], counter, 'claude-sonnet-4-5')).toBe(
      496 + counter.count(json),
    );
    expect(countAnthropicToolTokens([], counter, 'claude-sonnet-4-5')).toBe(0);
  });
});

describe('countGeminiToolTokens', () => {
  it('counts every declaration as the JSON the API receives', () => {
    const counter = createTiktokenCounter('o200k_base');
    expect(countGeminiToolTokens([WEATHER], counter)).toBe(
      counter.count(
        JSON.stringify({
          name: WEATHER.name,
          description: WEATHER.description,
          parameters: WEATHER.parameters,
        }),
      ),
    );
    expect(countGeminiToolTokens([], counter)).toBe(0);
  });
});

describe('tool counts: invalid input', () => {
  const counter = createHeuristicCounter();
  const cyclic: Record<string, unknown> = { type: 'object' };
  cyclic.self = cyclic;

  it('rejects declarations without a name, with a bad description or with non-JSON parameters', () => {
    expectInvalidOption(() => countOpenAIToolTokens([{ name: '' }], counter), 'tools[0].name');
    expectInvalidOption(
      () => countGeminiToolTokens([WEATHER, { name: 'x', description: 3 as never }], counter),
      'tools[1].description',
    );
    expectInvalidOption(
      () =>
        countAnthropicToolTokens([{ name: 'x', parameters: cyclic }], counter, 'claude-opus-4-7'),
      'tools[0].parameters',
    );
    expectInvalidOption(
      () => countOpenAIToolTokens([{ name: 'x', parameters: [] as never }], counter),
      'tools[0].parameters',
    );
    expectInvalidOption(() => countOpenAIToolTokens('tools' as never, counter), 'tools');
  });

  it('rejects an unknown tool choice and an empty model', () => {
    expectInvalidOption(
      () => countAnthropicToolTokens([WEATHER], counter, 'claude-opus-4-7', 'required' as never),
      'toolChoice',
    );
    expectInvalidOption(() => anthropicToolSystemPromptTokens(''), 'model');
    expectInvalidOption(() => countOpenAIToolTokens([WEATHER], counter, ''), 'model');
  });
});

describe('tiktokenEncodingOf', () => {
  it('gives gpt-3.5 and gpt-4 cl100k_base, every later or other model o200k_base', () => {
    for (const model of ['gpt-4', 'gpt-4-0613', 'openai/gpt-3.5-turbo', 'GPT-4']) {
      expect(tiktokenEncodingOf(model)).toBe('cl100k_base');
    }
    for (const model of ['gpt-4o', 'gpt-4.1-mini', 'o3', 'claude-sonnet-4-5', '']) {
      expect(tiktokenEncodingOf(model)).toBe('o200k_base');
    }
  });
});

describe('tool counts: every shape of tool definition', () => {
  const counter = createTiktokenCounter('o200k_base');
  const { name, description, parameters } = WEATHER;
  const shapes: Record<string, ToolDefinition> = {
    'OpenAI Chat Completions': { type: 'function', function: { name, description, parameters } },
    'OpenAI Responses': { type: 'function', name, description, parameters, strict: true },
    Anthropic: {
      name,
      description,
      input_schema: parameters as Record<string, unknown>,
      cache_control: { type: 'ephemeral' },
    },
    'AI SDK': { name, description, inputSchema: parameters as object },
  };
  const counts = {
    openai: (tools: readonly ToolDefinition[]) => countOpenAIToolTokens(tools, counter),
    anthropic: (tools: readonly ToolDefinition[]) =>
      countAnthropicToolTokens(tools, counter, 'claude-sonnet-4-5'),
    gemini: (tools: readonly ToolDefinition[]) => countGeminiToolTokens(tools, counter),
  };

  for (const [shape, tool] of Object.entries(shapes)) {
    it(`counts ${shape}'s shape as ctxkit's, schema included, by every formula`, () => {
      for (const count of Object.values(counts)) {
        expect(count([tool])).toBe(count([WEATHER]));
        expect(count([tool])).toBeGreaterThan(count([{ name, description }]));
      }
    });
  }

  it('refuses a tool of no shape taken, naming it and its keys', () => {
    const misspelt = { name, input_shema: parameters } as never;
    for (const count of Object.values(counts)) {
      expect(() => count([misspelt])).toThrow(
        /tools\[0\] \("get_current_weather"\) is not a tool definition ctxkit takes: it has keys name, input_shema/,
      );
    }
    expectInvalidOption(
      () => countOpenAIToolTokens([{ type: 'function', function: { name: '' } }], counter),
      'tools[0].function.name',
    );
  });
});
