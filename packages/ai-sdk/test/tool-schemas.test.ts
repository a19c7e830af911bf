import type { LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { InvalidOptionError, type Message, type ToolDeclaration } from '@ctxkit/context-core';
import { createContextManager } from '@ctxkit/context-manager';
import { asSchema, jsonSchema, tool, zodSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import * as z3 from 'zod/v3';
import { callToolDeclarations, toolSetDeclarations } from '../src/index.js';

// AI SDK users hand the manager tools whose inputSchema is a Zod schema, or an AI SDK schema
// (`jsonSchema()`, `zodSchema()`): each is counted with the JSON Schema it stands for, as the same
// tool with that JSON Schema in ctxkit's shape is; one that cannot be converted is refused.

const MODELS = ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-pro'] as const;
const history: Message[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
const name = 'get_weather';
const description = 'Get the current weather in a given location';

const weather = z.object({
  location: z.string().describe('The city and state, e.g. San Francisco, CA'),
  unit: z.enum(['celsius', 'fahrenheit']).optional(),
});
/** The JSON Schema of `weather`'s input, by the Standard JSON Schema interface. */
const weatherJson = weather['~standard'].jsonSchema.input({ target: 'draft-07' });

function declared(parameters: Record<string, unknown>): ToolDeclaration {
  return { name, description, parameters };
}

describe('tools with a Zod schema or an AI SDK schema', () => {
  for (const model of MODELS) {
    it(`${model}: a Zod inputSchema counts as its JSON Schema, through fit and countTools`, async () => {
      const manager = createContextManager({ model });
      const expected = manager.countTools([declared(weatherJson)]);
      expect(expected).toBeGreaterThan(manager.countTools([{ name, description }]));
      const tools = [{ name, description, inputSchema: weather }];
      expect(manager.countTools(tools)).toBe(expected);
      const { report } = await manager.fit(history, { tools });
      expect(report.toolTokens).toBe(expected);
      // Under Anthropic's or ctxkit's key, a Zod schema is converted the same way.
      expect(manager.countTools([{ name, description, input_schema: weather } as never])).toBe(
        expected,
      );
      expect(manager.countTools([{ name, description, parameters: weather } as never])).toBe(
        expected,
      );
    });
  }

  it('counts an AI SDK schema as the JSON Schema it holds', async () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const wrapped = jsonSchema(structuredClone(weatherJson));
    expect(manager.countTools([{ name, description, inputSchema: wrapped }])).toBe(
      manager.countTools([declared(weatherJson)]),
    );
    // zodSchema() gives the AI SDK's own conversion (objects closed with additionalProperties).
    const sent = (await asSchema(weather).jsonSchema) as Record<string, unknown>;
    expect(sent.additionalProperties).toBe(false);
    const { report } = await manager.fit(history, {
      tools: [{ name, description, inputSchema: zodSchema(weather) }],
    });
    expect(report.toolTokens).toBe(manager.countTools([declared(sent)]));
  });

  it('counts a JSON Schema made by Zod as the JSON it is (though it is a Standard Schema too)', () => {
    const manager = createContextManager({ model: 'claude-sonnet-4-5' });
    const json = z.toJSONSchema(weather, { target: 'draft-07', io: 'input' });
    json.additionalProperties = false;
    expect('~standard' in json).toBe(true);
    expect(manager.countTools([{ name, description, inputSchema: json }])).toBe(
      manager.countTools([declared(JSON.parse(JSON.stringify(json)))]),
    );
  });

  it('converts a Zod schema again at every fit: metadata registered on it since is counted', async () => {
    const schema = z.object({ city: z.string() });
    const manager = createContextManager({ model: 'claude-sonnet-4-5' });
    const tools = [{ name: 'lookup', inputSchema: schema }];
    const first = await manager.fit(history, { tools });
    expect((await manager.fit(history, { tools })).report.toolTokens).toBe(first.report.toolTokens);
    schema.register(z.globalRegistry, {
      title: 'Looks the weather up for a city the user named, in the units the user prefers',
    });
    const second = await manager.fit(history, { tools });
    expect(second.report.toolTokens).toBeGreaterThan(first.report.toolTokens);
    expect(second.report.toolTokens).toBe(
      manager.countTools([
        {
          name: 'lookup',
          parameters: schema['~standard'].jsonSchema.input({ target: 'draft-07' }),
        },
      ]),
    );
  });

  it('refuses a schema that gives no JSON Schema (zod/mini, Zod 3), saying how to pass it', async () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const mini = zm.object({ city: zm.string() });
    const fit = manager.fit(history, { tools: [{ name: 'lookup', inputSchema: mini }] });
    await expect(fit).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(fit).rejects.toThrow(
      /fit: tools\[0\]\.inputSchema \("lookup"\) is a zod schema that gives no JSON Schema/,
    );
    await expect(fit).rejects.toThrow(/z\.toJSONSchema\(schema/);
    // Converted as the message says, it is counted.
    const json = zm.toJSONSchema(mini, { io: 'input', target: 'draft-07' });
    expect(manager.countTools([{ name: 'lookup', inputSchema: json }])).toBeGreaterThan(
      manager.countTools([{ name: 'lookup' }]),
    );
    const v3 = z3.z.object({ city: z3.z.string() });
    expect(() => manager.countTools([{ name: 'lookup', inputSchema: v3 }])).toThrow(
      /zod-to-json-schema/,
    );
    // zodSchema() converts Zod 3 too.
    expect(manager.countTools([{ name: 'lookup', inputSchema: zodSchema(v3) }])).toBeGreaterThan(
      manager.countTools([{ name: 'lookup' }]),
    );
  });
});

describe('the adapter’s declarations count as fit counts the same tools', () => {
  it('toolSetDeclarations: as fit counts the AI SDK schema each tool sends', async () => {
    const manager = createContextManager({ model: 'claude-sonnet-4-5' });
    const json = jsonSchema<{ query: string }>({
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for.' } },
    });
    const tools = {
      get_weather: tool({ description, inputSchema: weather }),
      search: tool({ description: 'Searches the web.', inputSchema: json }),
    };
    const declarations = await toolSetDeclarations(tools);
    const asFitTakesThem = [
      { name: 'get_weather', description, inputSchema: asSchema(weather) },
      { name: 'search', description: 'Searches the web.', inputSchema: json },
    ];
    expect(manager.countTools(declarations)).toBe(manager.countTools(asFitTakesThem));
    // A Zod schema given to fit as it is counts its own JSON Schema, without the
    // additionalProperties the AI SDK adds to objects: the adapter counts what is sent.
    const raw = manager.countTools([{ name: 'get_weather', description, inputSchema: weather }]);
    const sent = manager.countTools([asFitTakesThem[0] as (typeof asFitTakesThem)[0]]);
    expect(sent).toBeGreaterThan(raw);
  });

  it('callToolDeclarations: a call’s function tools, given to fit as they are, count the same', () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const callTools: LanguageModelV4FunctionTool[] = [
      { type: 'function', name, description, inputSchema: weatherJson as never },
      {
        type: 'function',
        name: 'search',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
        providerOptions: { openai: { strict: true } },
      },
    ];
    expect(manager.countTools(callToolDeclarations(callTools))).toBe(manager.countTools(callTools));
  });
});
