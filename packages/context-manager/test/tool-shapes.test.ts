import {
  InvalidOptionError,
  type Message,
  type ToolDeclaration,
  type ToolDefinition,
} from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContextManager } from '../src/index.js';

// Users hand `fit` the tools they send, in the shape their provider or framework has them: each
// is counted with its schema, as the same tool in ctxkit's own shape is.

const MODELS = ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-pro'] as const;

const SCHEMA = {
  type: 'object',
  properties: {
    location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['location'],
};
const WEATHER: ToolDeclaration = {
  name: 'get_weather',
  description: 'Get the current weather in a given location',
  parameters: SCHEMA,
};

const history: Message[] = [{ role: 'user', content: 'What is the weather in Paris?' }];

/** `declaration` in one of the shapes taken. */
function inShape(declaration: ToolDeclaration, shape: Shape): ToolDefinition {
  const { name, description, parameters } = declaration;
  const text = description === undefined ? {} : { description };
  switch (shape) {
    case 'ctxkit':
      return declaration;
    case 'chat':
      return {
        type: 'function',
        function: { name, ...text, ...(parameters === undefined ? {} : { parameters }) },
      };
    case 'responses':
      return {
        type: 'function',
        name,
        description: description ?? null,
        parameters: parameters ?? null,
        strict: false,
      };
    case 'anthropic':
      return {
        name,
        ...text,
        input_schema: parameters ?? { type: 'object' },
        cache_control: { type: 'ephemeral' },
      };
    case 'ai-sdk':
      return { name, ...text, inputSchema: parameters ?? { type: 'object' } };
  }
}
const SHAPES = ['ctxkit', 'chat', 'responses', 'anthropic', 'ai-sdk'] as const;
type Shape = (typeof SHAPES)[number];

describe('fit and countTools take tools in every shape, with their schemas', () => {
  for (const model of MODELS) {
    for (const shape of SHAPES) {
      it(`${model}: ${shape}'s shape counts as ctxkit's`, async () => {
        const manager = createContextManager({ model });
        const expected = manager.countTools([WEATHER]);
        const tools = deepFreeze([inShape(WEATHER, shape)]);
        const before = structuredClone(tools);
        expect(manager.countTools(tools)).toBe(expected);
        const { report } = await manager.fit(history, { tools });
        expect(report.toolTokens).toBe(expected);
        // The schema is counted: a tool without one costs less.
        expect(expected).toBeGreaterThan(
          manager.countTools([{ name: WEATHER.name, description: WEATHER.description }]),
        );
        expect(tools).toEqual(before);
      });
    }
  }

  it('predicts the same cost for the same tools in any shape', async () => {
    const reference = await createContextManager({ model: 'claude-sonnet-4-5' }).fit(history, {
      tools: [WEATHER],
      conversationId: 'c',
    });
    for (const shape of SHAPES) {
      const manager = createContextManager({ model: 'claude-sonnet-4-5' });
      const { report } = await manager.fit(history, {
        tools: [inShape(WEATHER, shape)],
        conversationId: 'c',
      });
      expect(report.predictedCost).toEqual(reference.report.predictedCost);
    }
  });

  it('counts a schema edited in place under input_schema again', async () => {
    const manager = createContextManager({ model: 'claude-sonnet-4-5' });
    const schema = structuredClone(SCHEMA);
    const tools = [{ name: 'get_weather', input_schema: schema }];
    const first = await manager.fit(history, { tools });
    (schema.properties as Record<string, unknown>).days = {
      type: 'integer',
      description: 'How many days of forecast to give, from one to ten.',
    };
    const second = await manager.fit(history, { tools });
    expect(second.report.toolTokens).toBeGreaterThan(first.report.toolTokens);
    expect(second.report.toolTokens).toBe(
      createContextManager({ model: 'claude-sonnet-4-5' }).countTools([
        { name: 'get_weather', parameters: structuredClone(schema) },
      ]),
    );
  });

  it('converts a Standard Schema again at every fit: its JSON Schema changed, its count does', async () => {
    // A schema of the Standard JSON Schema interface, whose JSON Schema lives where no snapshot
    // of the tool sees it (a closure), as a schema library's state may.
    let description = 'The city.';
    const schema = {
      '~standard': {
        version: 1,
        vendor: 'example',
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input: () => ({ type: 'object', properties: { city: { type: 'string', description } } }),
          output: () => ({}),
        },
      },
    };
    const manager = createContextManager({ model: 'gpt-4o' });
    const tools = [{ name: 'lookup', inputSchema: schema }];
    const first = await manager.fit(history, { tools });
    expect(manager.countTools(tools)).toBe(first.report.toolTokens);
    description =
      'The city, with its country, its region and its postal code, as the user wrote it.';
    const second = await manager.fit(history, { tools });
    expect(second.report.toolTokens).toBeGreaterThan(first.report.toolTokens);
    expect(second.report.toolTokens).toBe(
      createContextManager({ model: 'gpt-4o' }).countTools([
        {
          name: 'lookup',
          parameters: { type: 'object', properties: { city: { type: 'string', description } } },
        },
      ]),
    );
  });

  it('refuses a tool of no shape taken, naming fit, the tool and its keys', async () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const tools = [WEATHER, { name: 'search', description: 'Search.', input_shema: SCHEMA }];
    const fit = manager.fit(history, { tools: tools as never });
    await expect(fit).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(fit).rejects.toThrow(
      /\[ctxkit\/context-manager\] fit: tools\[1\] \("search"\) is not a tool definition ctxkit takes: it has keys name, description, input_shema/,
    );
    expect(() => manager.countTools(tools as never)).toThrow(/countTools: tools\[1\] \("search"\)/);
  });

  it('counts random tools in random shapes as ctxkit counts them', () => {
    const managers = MODELS.map((model) => createContextManager({ model }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(arbitraryDeclaration, fc.constantFrom(...SHAPES)), { maxLength: 6 }),
        fc.integer({ min: 0, max: MODELS.length - 1 }),
        (tools, which) => {
          const manager = managers[which] as (typeof managers)[number];
          const declarations = tools.map(([declaration]) => declaration);
          const shaped = tools.map(([declaration, shape]) => inShape(declaration, shape));
          expect(manager.countTools(shaped)).toBe(
            manager.countTools(structuredClone(declarations)),
          );
        },
      ),
      fuzzParameters(200),
    );
  });

  it('refuses a random tool of no shape taken among good ones, naming it and its keys', () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(arbitraryDeclaration, fc.constantFrom(...SHAPES)), { maxLength: 4 }),
        arbitraryDeclaration,
        fc.stringMatching(/^[a-z][a-zA-Z_]{2,14}$/).filter((key) => !KNOWN_KEYS.has(key)),
        fc.nat(),
        (tools, declaration, key, at) => {
          const shaped = tools.map(([tool, shape]) => inShape(tool, shape));
          const index = at % (shaped.length + 1);
          const { name, parameters } = declaration;
          shaped.splice(index, 0, { name, [key]: parameters } as never);
          let thrown: unknown;
          try {
            manager.countTools(shaped);
          } catch (error) {
            thrown = error;
          }
          expect(InvalidOptionError.isInstance(thrown)).toBe(true);
          const error = thrown as InvalidOptionError;
          expect(error.details).toMatchObject({ option: `tools[${index}]`, keys: ['name', key] });
          expect(error.message).toContain(`tools[${index}] (${JSON.stringify(name)})`);
          expect(error.message).toContain(`it has keys name, ${key}`);
        },
      ),
      fuzzParameters(100),
    );
  });
});

/** Every key of every shape taken. */
const KNOWN_KEYS = new Set([
  'name',
  'description',
  'parameters',
  'type',
  'strict',
  'function',
  'input_schema',
  'cache_control',
  'defer_loading',
  'allowed_callers',
  'eager_input_streaming',
  'inputSchema',
  'providerOptions',
]);

// --- arbitraries ---

const arbitraryProperty = fc.record(
  {
    type: fc.constantFrom('string', 'integer', 'number', 'boolean'),
    description: fc.string({ maxLength: 60 }),
    enum: fc.array(fc.string({ minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 4 }),
    minimum: fc.integer({ min: 0, max: 100 }),
  },
  { requiredKeys: ['type'] },
);

/** An object schema with random properties (Anthropic's and the AI SDK's shapes need one). */
const arbitrarySchema = fc
  .dictionary(fc.stringMatching(/^[a-z][a-z_]{0,11}$/), arbitraryProperty, { maxKeys: 5 })
  .chain((properties) =>
    fc.subarray(Object.keys(properties)).map((required) => ({
      type: 'object',
      properties,
      ...(required.length === 0 ? {} : { required }),
    })),
  );

const arbitraryDeclaration: fc.Arbitrary<ToolDeclaration> = fc.record(
  {
    name: fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,30}$/),
    description: fc.string({ maxLength: 120 }),
    parameters: arbitrarySchema,
  },
  { requiredKeys: ['name', 'parameters'] },
);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
