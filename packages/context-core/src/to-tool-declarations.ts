import { closestName } from './closest-name.js';
import type { ContextError } from './context-error.js';
import { InvalidOptionError } from './error-families.js';
import { jsonDataProblem } from './json-data.js';
import { nonDataProperty } from './non-data-property.js';
import { describeOption, optionChecker } from './option-checker.js';
import { sameData } from './same-data.js';
import type { ToolDeclaration } from './tool-declaration.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * The tool definitions of a request as ctxkit counts them: each one, whatever its shape (see
 * {@link toolDeclarationOf}), as a {@link ToolDeclaration}. Nothing given is changed; a schema of
 * JSON data is the declaration's `parameters` as it is (not a copy).
 *
 * @param tools - the tool definitions, as the caller gave them
 * @param source - the package named in errors
 * @param caller - the public function that was called, named in errors (such as `fit`)
 * @returns one declaration per tool, in order
 * @throws InvalidOptionError (`invalid_option`) when `tools` is not an array, or naming the first
 *   tool that is none of the shapes, or is malformed (see {@link toolDeclarationOf})
 */
export function toToolDeclarations(
  tools: readonly ToolDefinition[],
  source = 'context-core',
  caller = 'toToolDeclarations',
): ToolDeclaration[] {
  if (!Array.isArray(tools)) {
    throw optionChecker(source, caller).invalid('tools', tools, 'an array of tool definitions');
  }
  return tools.map((tool: unknown, index) => toolDeclarationOf(tool, index, source, caller));
}

/**
 * One tool definition as a {@link ToolDeclaration}: its name, description and JSON Schema. Takes
 * ctxkit's own `{ name, description?, parameters? }` (Gemini's function declaration too); OpenAI
 * Chat Completions' `{ type: 'function', function: { name, description?, parameters?, strict? } }`;
 * OpenAI Responses' `{ type: 'function', name, description?, parameters?, strict? }`; Anthropic's
 * `{ name, description?, input_schema, cache_control?, ... }`; the AI SDK's
 * `{ name, description?, inputSchema }`. A schema is JSON Schema (plain JSON data), an AI SDK
 * schema (`jsonSchema()`, `zodSchema()`: its `jsonSchema`), or a Standard Schema object (Zod 4 and
 * others) that offers JSON Schema (`~standard.jsonSchema.input({ target: 'draft-07' })`, or Zod's
 * `toJSONSchema`). `null` stands for a field left out. Refused: anything else, so that no schema is
 * ever counted as none. Reads each field once; changes nothing.
 *
 * @param tool - the tool definition
 * @param index - its index in the tools given, named in errors
 * @param source - the package named in errors
 * @param caller - the public function that was called, named in errors (such as `fit`)
 * @returns its declaration
 * @throws InvalidOptionError (`invalid_option`) naming `tools[index]` (and the tool's name): a
 *   value that is not an object, a getter or a property that is not enumerable, keys that are
 *   none of the shapes (the error lists the keys and the shapes taken), a `type` other than the
 *   shape's, an empty name, a description that is not a string, a schema that is not JSON Schema
 *   and cannot be converted to it (with how to pass it), or two schema keys that disagree
 */
export function toolDeclarationOf(
  tool: unknown,
  index: number,
  source = 'context-core',
  caller = 'toolDeclarationOf',
): ToolDeclaration {
  const check = optionChecker(source, caller);
  const at = `tools[${index}]`;
  if (typeof tool !== 'object' || tool === null) {
    throw check.invalid(at, tool, 'a tool definition: an object with a name');
  }
  if (Array.isArray(tool)) throw check.invalid(at, tool, 'a tool definition, not an array');
  refuseNonData(tool, at, check.invalid);
  const fields = tool as Record<string, unknown>;
  const reader: Reader = { source, caller, at, fields };
  return fields.function !== undefined ? chatTool(reader) : flatTool(reader);
}

/**
 * Whether a snapshot of `tool` (`snapshotOf`) sees all that {@link toolDeclarationOf} reads from
 * it: plain data, without a getter or a property that is not enumerable (on the tool or its
 * `function`), whose schema is JSON data rather than an object converted by calling into it (an
 * AI SDK schema, a Standard Schema). A cache keeps a tool's declaration by its snapshot only when
 * this holds, and makes the declaration of any other tool again to compare it.
 *
 * @param tool - a tool definition, as given
 * @returns whether its snapshot covers its declaration
 */
export function isPlainToolDefinition(tool: unknown): boolean {
  if (typeof tool !== 'object' || tool === null || nonDataProperty(tool) !== undefined) {
    return false;
  }
  const fields = tool as Record<string, unknown>;
  const inner = fields.function;
  if (inner !== undefined) {
    if (typeof inner !== 'object' || inner === null || nonDataProperty(inner) !== undefined) {
      return false;
    }
    return isPlainSchema((inner as Record<string, unknown>).parameters);
  }
  return SCHEMA_KEYS.every((key) => isPlainSchema(fields[key]));
}

// --- internal helpers ---

/** What the helpers need to read one tool and name it in errors. */
interface Reader {
  readonly source: string;
  readonly caller: string;
  /** `tools[i]`. */
  readonly at: string;
  readonly fields: Record<string, unknown>;
}

/** The keys a flat tool's schema may be under, each naming its shape. */
const SCHEMA_KEYS = ['parameters', 'input_schema', 'inputSchema'] as const;
type SchemaKey = (typeof SCHEMA_KEYS)[number];

/** Each flat shape, by the key its schema is under: the keys it takes and its `type`. */
const FLAT_SHAPES: Readonly<Record<SchemaKey, { keys: ReadonlySet<string>; type: string }>> = {
  // ctxkit's own and Gemini's declaration, and OpenAI Responses' function tool.
  parameters: {
    keys: new Set(['name', 'description', 'parameters', 'type', 'strict']),
    type: 'function',
  },
  input_schema: {
    keys: new Set([
      'name',
      'description',
      'input_schema',
      'type',
      'cache_control',
      'strict',
      'defer_loading',
      'allowed_callers',
      'eager_input_streaming',
    ]),
    type: 'custom',
  },
  inputSchema: {
    keys: new Set(['name', 'description', 'inputSchema', 'type', 'strict', 'providerOptions']),
    type: 'function',
  },
};

/** The keys of the function of an OpenAI Chat Completions tool. */
const CHAT_FUNCTION_KEYS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'parameters',
  'strict',
]);

/** Every key of every shape, for "did you mean". */
const ALL_KEYS: readonly string[] = [
  ...new Set([...Object.values(FLAT_SHAPES).flatMap(({ keys }) => [...keys]), 'function']),
];

/** Keys of examples for the model, which ctxkit does not count. */
const EXAMPLE_KEYS: ReadonlySet<string> = new Set(['input_examples', 'inputExamples']);

/** The shapes taken, as errors list them. */
const SHAPES =
  'ctxkit takes { name, description?, parameters? } (ctxkit, Gemini); ' +
  '{ type: "function", function: { name, description?, parameters?, strict? } } (OpenAI Chat ' +
  'Completions); { type: "function", name, description?, parameters?, strict? } (OpenAI ' +
  'Responses); { name, description?, input_schema, cache_control?, ... } (Anthropic); ' +
  '{ name, description?, inputSchema } with JSON Schema, an AI SDK schema (jsonSchema(), ' +
  'zodSchema()) or a Zod or other Standard Schema (AI SDK). A framework’s own tool objects go ' +
  'through its adapter: toolSetDeclarations or callToolDeclarations (@ctxkit/ai-sdk), ' +
  'toolDeclarations (@ctxkit/langchain), agentToolDeclarations (@ctxkit/openai-agents).';

/** The marker of an AI SDK schema (`jsonSchema()`, `zodSchema()`, `asSchema()`). */
const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

/** `{ type: 'function', function: { name, description?, parameters?, strict? } }`. */
function chatTool(reader: Reader): ToolDeclaration {
  const { at, fields } = reader;
  refuseKeys(reader, fields, at, new Set(['type', 'function']));
  if (fields.type !== 'function') {
    throw invalid(
      reader,
      `${at}.type`,
      fields.type,
      '"function" (an OpenAI Chat Completions tool is { type: "function", function: { name, ' +
        'description?, parameters?, strict? } })',
    );
  }
  const inner = fields.function;
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) {
    throw invalid(
      reader,
      `${at}.function`,
      inner,
      'an object { name, description?, parameters?, strict? }',
    );
  }
  refuseNonData(inner, `${at}.function`, (option: string, value: unknown, expected: string) =>
    invalid(reader, option, value, expected),
  );
  const function_ = inner as Record<string, unknown>;
  refuseKeys(reader, function_, `${at}.function`, CHAT_FUNCTION_KEYS);
  return declaration(reader, function_, `${at}.function`, ['parameters']);
}

/** ctxkit's, Gemini's, OpenAI Responses', Anthropic's and the AI SDK's shapes. */
function flatTool(reader: Reader): ToolDeclaration {
  const { at, fields } = reader;
  const schemaKeys = SCHEMA_KEYS.filter((key) => fields[key] !== undefined);
  const shapes = (schemaKeys.length === 0 ? (['parameters'] as const) : schemaKeys).map(
    (key) => FLAT_SHAPES[key],
  );
  refuseKeys(reader, fields, at, new Set(shapes.flatMap(({ keys }) => [...keys])));
  const type = fields.type;
  const types = [...new Set(shapes.map((shape) => shape.type))];
  if (
    type !== undefined &&
    !(type === null && types.includes('custom')) &&
    !types.includes(type as string)
  ) {
    throw invalid(
      reader,
      `${at}.type`,
      type,
      `${types.map((name) => JSON.stringify(name)).join(' or ')}, or left out (ctxkit counts ` +
        'function tools; declare a provider’s built-in tool, such as web search, as { name, ' +
        'parameters } holding its settings, which counts them as their JSON)',
    );
  }
  return declaration(reader, fields, at, schemaKeys.length === 0 ? ['parameters'] : schemaKeys);
}

/** The declaration of the object holding the name, description and schema (under `schemaKeys`). */
function declaration(
  reader: Reader,
  holder: Record<string, unknown>,
  path: string,
  schemaKeys: readonly string[],
): ToolDeclaration {
  const name = holder.name;
  if (typeof name !== 'string' || name.length === 0) {
    throw invalid(reader, `${path}.name`, name, 'a non-empty string');
  }
  const description = holder.description;
  if (description !== undefined && description !== null && typeof description !== 'string') {
    throw invalid(reader, `${path}.description`, description, 'a string');
  }
  let parameters: Readonly<Record<string, unknown>> | undefined;
  let from: string | undefined;
  for (const key of schemaKeys) {
    const schema = schemaOf(reader, holder[key], `${path}.${key}`);
    if (schema === undefined) continue;
    if (parameters === undefined) {
      parameters = schema;
      from = key;
    } else if (!sameData(parameters, schema)) {
      throw new InvalidOptionError({
        code: 'invalid_option',
        source: reader.source,
        message:
          `${reader.caller}: ${reader.at}${named(name)} has two schemas that differ, ${from} ` +
          `and ${key}: give one (the one its API takes).`,
        details: { factory: reader.caller, option: `${path}.${key}`, name },
      });
    }
  }
  return {
    name,
    ...(typeof description === 'string' ? { description } : {}),
    ...(parameters === undefined ? {} : { parameters }),
  };
}

/** The JSON Schema of a schema value at `path`, or `undefined` for none (left out or `null`). */
function schemaOf(
  reader: Reader,
  value: unknown,
  path: string,
): Readonly<Record<string, unknown>> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' && typeof value !== 'function') {
    throw invalid(reader, path, value, 'a JSON Schema object');
  }
  if (Array.isArray(value)) throw invalid(reader, path, value, 'a JSON Schema object');
  const schema = value as Record<string | symbol, unknown>;
  if (schema[AI_SDK_SCHEMA] === true && 'jsonSchema' in schema) {
    const json = convert(reader, path, 'its jsonSchema', () => schema.jsonSchema);
    if (isThenable(json)) {
      throw conversionError(
        reader,
        path,
        'is an AI SDK schema whose JSON Schema is a promise',
        'await its jsonSchema and pass that, or use toolSetDeclarations of @ctxkit/ai-sdk',
      );
    }
    return convertedSchema(reader, path, json);
  }
  const prototype = Object.getPrototypeOf(value);
  const plain = prototype === Object.prototype || prototype === null;
  // JSON data is taken as it is, even when it is a Standard Schema too (Zod's JSON Schemas
  // carry a hidden ~standard): JSON is what is sent.
  const problem = plain ? jsonDataProblem(value, path) : undefined;
  if (plain && problem === undefined) return value as Readonly<Record<string, unknown>>;
  if ('~standard' in schema) return standardSchema(reader, schema, path);
  if (typeof value === 'function') throw invalid(reader, path, value, 'a JSON Schema object');
  if (!plain) {
    throw conversionError(
      reader,
      path,
      `is ${instanceName(value)}, not JSON Schema`,
      'convert it to JSON Schema with its library’s own function and pass that, or pass the ' +
        'framework’s tools through its adapter’s declaration helper',
    );
  }
  throw invalid(reader, path, value, `JSON data (${problem})`);
}

/** The JSON Schema of a Standard Schema object: its own conversion, or a refusal saying how. */
function standardSchema(
  reader: Reader,
  schema: Record<string | symbol, unknown>,
  path: string,
): Readonly<Record<string, unknown>> {
  const standard = convert(reader, path, 'its ~standard', () => schema['~standard']) as
    | { vendor?: unknown; jsonSchema?: { input?: unknown } }
    | undefined;
  const vendor = typeof standard?.vendor === 'string' ? standard.vendor : 'Standard Schema';
  const jsonSchema = standard?.jsonSchema;
  if (typeof jsonSchema?.input === 'function') {
    const input = jsonSchema.input as (options: { target: string }) => unknown;
    const json = convert(reader, path, 'its ~standard.jsonSchema.input', () =>
      input.call(jsonSchema, { target: 'draft-07' }),
    );
    return convertedSchema(reader, path, json);
  }
  if (vendor === 'zod' && typeof schema.toJSONSchema === 'function') {
    const toJSONSchema = schema.toJSONSchema as (options: object) => unknown;
    const json = convert(reader, path, 'its toJSONSchema', () =>
      toJSONSchema.call(schema, { target: 'draft-07', io: 'input' }),
    );
    return convertedSchema(reader, path, json);
  }
  throw conversionError(
    reader,
    path,
    `is a ${vendor} schema that gives no JSON Schema (it has no ~standard.jsonSchema)`,
    'convert it to JSON Schema first — Zod 4 (zod/mini too): z.toJSONSchema(schema, { io: ' +
      '"input" }); Zod 3: zod-to-json-schema; the AI SDK: zodSchema(schema) — and pass that, ' +
      'or pass the framework’s tools through its adapter’s declaration helper (such as ' +
      'toolSetDeclarations of @ctxkit/ai-sdk)',
  );
}

/** `run()`, a conversion of the schema at `path`; what it throws becomes a typed error. */
function convert(reader: Reader, path: string, what: string, run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw conversionError(
      reader,
      path,
      `could not be read as JSON Schema: ${what} threw "${reason}"`,
      'convert it to JSON Schema yourself and pass that',
      error,
    );
  }
}

/** A converted schema, checked to be a JSON Schema object of plain JSON data. */
function convertedSchema(
  reader: Reader,
  path: string,
  json: unknown,
): Readonly<Record<string, unknown>> {
  const isObject =
    typeof json === 'object' &&
    json !== null &&
    !Array.isArray(json) &&
    [Object.prototype, null].includes(Object.getPrototypeOf(json));
  const problem = isObject ? jsonDataProblem(json, `${path} (converted)`) : undefined;
  if (!isObject || problem !== undefined) {
    throw conversionError(
      reader,
      path,
      `gave ${problem ?? 'something other than a JSON Schema object'} as its JSON Schema`,
      'convert it to JSON Schema yourself and pass that',
    );
  }
  return json as Readonly<Record<string, unknown>>;
}

/** The error for a schema at `path` that cannot be taken as JSON Schema, and how to pass it. */
function conversionError(
  reader: Reader,
  path: string,
  problem: string,
  fix: string,
  cause?: unknown,
): ContextError {
  const name = nameOf(reader);
  return new InvalidOptionError({
    code: 'invalid_option',
    source: reader.source,
    message: `${reader.caller}: ${path}${named(name)} ${problem}: ${fix}.`,
    details: { factory: reader.caller, option: path },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The error for an option of the tool (`tools[i].name`, ...) that is not `expected`, worded as
 * `optionChecker`'s, naming the tool when it has a name.
 */
function invalid(reader: Reader, option: string, value: unknown, expected: string): ContextError {
  const name = nameOf(reader);
  return new InvalidOptionError({
    code: 'invalid_option',
    source: reader.source,
    message:
      `${reader.caller}: option ${option} must be ${expected}, got ${describeOption(value)}` +
      `${typeof name === 'string' && name.length > 0 ? ` (in the tool ${JSON.stringify(name)})` : ''}.`,
    details: {
      factory: reader.caller,
      option,
      value,
      ...(typeof name === 'string' ? { name } : {}),
    },
  });
}

/** The tool's name as given (of its `function` for OpenAI Chat Completions' shape), if any. */
function nameOf(reader: Reader): unknown {
  const { fields } = reader;
  const inner = fields.function;
  return typeof inner === 'object' && inner !== null
    ? (inner as { name?: unknown }).name
    : fields.name;
}

/** Refuses a key of `holder` (at `path`) that is not in `known`, naming the tool and its keys. */
function refuseKeys(
  reader: Reader,
  holder: Record<string, unknown>,
  path: string,
  known: ReadonlySet<string>,
): void {
  const keys = Object.keys(holder).filter((key) => holder[key] !== undefined);
  const unknown = keys.find((key) => !known.has(key));
  if (unknown === undefined) return;
  const { caller, at } = reader;
  const name = nameOf(reader);
  const where = path === at ? '' : ` in ${path.slice(at.length + 1)}`;
  let why: string;
  if (EXAMPLE_KEYS.has(unknown)) {
    why =
      `${unknown} holds input examples, which ctxkit does not count: pass the tool without ` +
      'them and leave room for them in the budget';
  } else {
    const suggestion = closestName(unknown, ALL_KEYS);
    why =
      `${unknown} is not a key of that shape` +
      (suggestion === undefined || suggestion === unknown ? '' : ` (did you mean ${suggestion}?)`);
  }
  throw new InvalidOptionError({
    code: 'invalid_option',
    source: reader.source,
    message:
      `${caller}: ${at}${named(name)} is not a tool definition ctxkit takes: it has keys ` +
      `${keys.join(', ')}${where}; ${why}. ${SHAPES}`,
    details: {
      factory: caller,
      option: at,
      ...(typeof name === 'string' ? { name } : {}),
      keys,
      key: unknown,
    },
  });
}

/** Refuses a getter, a setter or a property that is not enumerable (the snapshots miss them). */
function refuseNonData(
  value: object,
  path: string,
  fail: (option: string, value: unknown, expected: string) => ContextError,
): void {
  const property = nonDataProperty(value);
  if (property === undefined) return;
  throw fail(
    `${path}.${property.key}`,
    value,
    property.kind === 'accessor'
      ? 'plain data, not a getter or setter'
      : 'an enumerable property of plain data',
  );
}

/**
 * Whether a schema value is taken as the JSON data it is (or is none), not converted: as
 * {@link schemaOf} decides, the walk of the data left for a value that is also a Standard Schema.
 */
function isPlainSchema(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (AI_SDK_SCHEMA in value) return false;
  return !('~standard' in value) || jsonDataProblem(value, 'schema') === undefined;
}

function isThenable(value: unknown): boolean {
  return (
    ((typeof value === 'object' && value !== null) || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** ` ("name")` for a tool with a name, else nothing. */
function named(name: unknown): string {
  return typeof name === 'string' && name.length > 0 ? ` (${JSON.stringify(name)})` : '';
}

function instanceName(value: object): string {
  const maker = (value as { constructor?: { name?: unknown } }).constructor;
  const name = typeof maker?.name === 'string' ? maker.name : '';
  return name === '' ? 'a class instance' : `a ${name} instance`;
}
