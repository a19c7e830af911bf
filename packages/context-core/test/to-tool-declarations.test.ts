import { describe, expect, it } from 'vitest';
import {
  InvalidOptionError,
  isPlainToolDefinition,
  type ToolDeclaration,
  toolDeclarationOf,
  toToolDeclarations,
} from '../src/index.js';

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
const { name, description } = WEATHER;

/** The same tool in every shape taken. */
const SHAPES: Record<string, unknown> = {
  ctxkit: WEATHER,
  'OpenAI Chat Completions': {
    type: 'function',
    function: { name, description, parameters: SCHEMA, strict: null },
  },
  'OpenAI Responses': { type: 'function', name, description, parameters: SCHEMA, strict: true },
  Anthropic: {
    name,
    description,
    input_schema: SCHEMA,
    cache_control: { type: 'ephemeral' },
  },
  'AI SDK': { name, description, inputSchema: SCHEMA },
  'AI SDK call tool': { type: 'function', name, description, inputSchema: SCHEMA },
};

/** A schema of the Standard JSON Schema interface, written to its spec (no library). */
function standardSchema(json: Record<string, unknown> | (() => unknown), vendor = 'example') {
  return {
    '~standard': {
      version: 1,
      vendor,
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: (options: { target: string }) => {
          expect(options.target).toBe('draft-07');
          return typeof json === 'function' ? json() : structuredClone(json);
        },
        output: () => structuredClone(json),
      },
    },
  };
}

function refusal(run: () => unknown): InvalidOptionError {
  try {
    run();
  } catch (error) {
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionError).code).toBe('invalid_option');
    return error as InvalidOptionError;
  }
  throw new Error('expected a refusal');
}

describe('toolDeclarationOf', () => {
  for (const [shape, tool] of Object.entries(SHAPES)) {
    it(`takes ${shape}'s shape, with its schema, and changes nothing`, () => {
      const before = structuredClone(tool);
      const declaration = toolDeclarationOf(deepFreeze(tool), 0);
      expect(declaration).toEqual(WEATHER);
      // JSON data is taken as it is: no copy.
      expect(declaration.parameters).toBe(SCHEMA);
      expect(tool).toEqual(before);
      expect(isPlainToolDefinition(tool)).toBe(true);
    });
  }

  it('takes null for a field left out, as the OpenAI SDKs write it', () => {
    const tool = { type: 'function', name: 'ping', description: null, parameters: null };
    expect(toolDeclarationOf(tool, 0)).toEqual({ name: 'ping' });
    expect(toolDeclarationOf({ name: 'ping', input_schema: SCHEMA, type: null }, 0)).toEqual({
      name: 'ping',
      parameters: SCHEMA,
    });
  });

  it('takes two schema keys that agree, and refuses two that differ', () => {
    const both = { name, parameters: SCHEMA, input_schema: structuredClone(SCHEMA) };
    expect(toolDeclarationOf(both, 0).parameters).toEqual(SCHEMA);
    const differ = { name, parameters: SCHEMA, input_schema: { type: 'object' } };
    const error = refusal(() => toolDeclarationOf(differ, 3, 'context-manager', 'fit'));
    expect(error.message).toContain('tools[3] ("get_weather") has two schemas that differ');
    expect(error.message).toContain('parameters and input_schema');
  });

  it('converts a Standard Schema with JSON Schema, each time it is read', () => {
    const schema = standardSchema(SCHEMA);
    const tool = { name, description, inputSchema: schema };
    expect(toolDeclarationOf(tool, 0)).toEqual(WEATHER);
    expect(toolDeclarationOf({ name, description, parameters: schema }, 0)).toEqual(WEATHER);
    // Its snapshot does not see what the conversion reads: a cache must convert again.
    expect(isPlainToolDefinition(tool)).toBe(false);
  });

  it('takes JSON Schema that is a Standard Schema too (as Zod makes it) as the JSON it is', () => {
    const json = structuredClone(SCHEMA);
    Object.defineProperty(json, '~standard', {
      value: standardSchema({ type: 'object' })['~standard'],
      enumerable: false,
    });
    const tool = { name, description, inputSchema: json };
    expect(toolDeclarationOf(tool, 0).parameters).toBe(json);
    expect(isPlainToolDefinition(tool)).toBe(true);
  });

  it('refuses a Standard Schema without JSON Schema, saying how to pass it', () => {
    const schema = { '~standard': { version: 1, vendor: 'valibot', validate: () => ({}) } };
    const error = refusal(() => toolDeclarationOf({ name, inputSchema: schema }, 2, 'x', 'fit'));
    expect(error.message).toContain('tools[2].inputSchema ("get_weather") is a valibot schema');
    expect(error.message).toContain('z.toJSONSchema');
    expect(error.details.option).toBe('tools[2].inputSchema');
  });

  it('refuses a conversion that throws or gives no JSON Schema object, keeping the cause', () => {
    const broken = standardSchema(() => {
      throw new Error('Date cannot be represented in JSON Schema');
    });
    const error = refusal(() => toolDeclarationOf({ name, inputSchema: broken }, 0));
    expect(error.message).toContain('Date cannot be represented');
    expect(error.cause).toBeInstanceOf(Error);
    const odd = standardSchema(() => ['not', 'a', 'schema']);
    expect(refusal(() => toolDeclarationOf({ name, inputSchema: odd }, 0)).message).toContain(
      'as its JSON Schema',
    );
  });

  it('refuses a schema that is a class instance, or not JSON data', () => {
    class Schema {
      readonly type = 'object';
    }
    const instance = refusal(() => toolDeclarationOf({ name, parameters: new Schema() }, 0));
    expect(instance.message).toContain('is a Schema instance, not JSON Schema');
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(refusal(() => toolDeclarationOf({ name, input_schema: cyclic }, 0)).message).toContain(
      'tools[0].input_schema must be JSON data',
    );
    expect(refusal(() => toolDeclarationOf({ name, parameters: [] }, 0)).details.option).toBe(
      'tools[0].parameters',
    );
  });

  it('refuses a tool of no shape taken, naming it, its keys and the shapes', () => {
    const misspelt = { name, description, input_shema: SCHEMA };
    const error = refusal(() => toToolDeclarations([WEATHER, misspelt as never], 'x', 'fit'));
    expect(error.message).toContain('fit: tools[1] ("get_weather") is not a tool definition');
    expect(error.message).toContain('it has keys name, description, input_shema');
    expect(error.message).toContain('did you mean input_schema?');
    for (const shape of ['OpenAI Chat Completions', 'OpenAI Responses', 'Anthropic', 'AI SDK']) {
      expect(error.message).toContain(shape);
    }
    expect(error.details).toMatchObject({
      option: 'tools[1]',
      name: 'get_weather',
      keys: ['name', 'description', 'input_shema'],
    });
  });

  it('refuses keys of another shape, a function with extra keys, and input examples', () => {
    const mixed = { name, inputSchema: SCHEMA, cache_control: { type: 'ephemeral' } };
    expect(refusal(() => toolDeclarationOf(mixed, 0)).details.key).toBe('cache_control');
    const chat = { type: 'function', function: { ...WEATHER, execute: () => 'sunny' } };
    const extra = refusal(() => toolDeclarationOf(chat, 0));
    expect(extra.message).toContain('keys name, description, parameters, execute in function');
    const examples = { name, input_schema: SCHEMA, input_examples: [{ location: 'Paris' }] };
    expect(refusal(() => toolDeclarationOf(examples, 0)).message).toContain(
      'input examples, which ctxkit does not count',
    );
  });

  it('refuses a type that is not the shape’s, such as a provider’s built-in tool', () => {
    const search = { type: 'web_search_20250305', name: 'web_search' };
    const error = refusal(() => toolDeclarationOf(search, 0));
    expect(error.details.option).toBe('tools[0].type');
    expect(error.message).toContain('(in the tool "web_search")');
    expect(error.message).toContain('as { name, parameters }');
    const chat = { type: 'custom', function: WEATHER };
    expect(refusal(() => toolDeclarationOf(chat, 0)).details.option).toBe('tools[0].type');
    const anthropic = { type: 'function', name, input_schema: SCHEMA };
    expect(refusal(() => toolDeclarationOf(anthropic, 0)).message).toContain('"custom"');
  });

  it('refuses what is not a tool: no name, a bad description, not an object, not an array', () => {
    expect(refusal(() => toolDeclarationOf({ name: '' }, 0)).details.option).toBe('tools[0].name');
    expect(
      refusal(() => toolDeclarationOf({ type: 'function', function: {} }, 1)).details.option,
    ).toBe('tools[1].function.name');
    expect(refusal(() => toolDeclarationOf({ name, description: 3 }, 0)).details.option).toBe(
      'tools[0].description',
    );
    expect(refusal(() => toolDeclarationOf(null, 4)).details.option).toBe('tools[4]');
    expect(refusal(() => toolDeclarationOf(['x'], 0)).details.option).toBe('tools[0]');
    expect(refusal(() => toToolDeclarations('tools' as never)).details.option).toBe('tools');
  });

  it('refuses a getter or a hidden field, on the tool or its function', () => {
    const getter = Object.defineProperty({ name }, 'description', {
      get: () => 'changes',
      enumerable: true,
    });
    expect(refusal(() => toolDeclarationOf(getter, 0)).details.option).toBe('tools[0].description');
    expect(isPlainToolDefinition(getter)).toBe(false);
    const inner = Object.defineProperty({ name }, 'parameters', { value: SCHEMA });
    const chat = { type: 'function', function: inner };
    expect(refusal(() => toolDeclarationOf(chat, 0)).details.option).toBe(
      'tools[0].function.parameters',
    );
    expect(isPlainToolDefinition(chat)).toBe(false);
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
