import type { TokenCounter, ToolDefinition } from '@ctxkit/context-core';
import { checkName } from './check-option.js';
import { tiktokenEncodingOf } from './tiktoken-encoding-of.js';
import { checkToolDeclarations } from './tool-declaration.js';

/** The constants of OpenAI's function-calling framing, as the OpenAI Cookbook measured them. */
export interface OpenAIToolFraming {
  /** Tokens at the start of every function. */
  readonly functionStart: number;
  /** Tokens before a function's properties, when it has any. */
  readonly propertiesStart: number;
  /** Tokens per property. */
  readonly property: number;
  /** Tokens where a property has an enum (negative: the framing is shorter). */
  readonly enumStart: number;
  /** Tokens per enum value, besides the value's own tokens. */
  readonly enumItem: number;
  /** Tokens once per request that has functions. */
  readonly end: number;
}

/** Where the framing constants come from. */
export const OPENAI_TOOL_FRAMING_SOURCE =
  'https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken#7-counting-tokens-for-chat-completions-with-tool-calls';

/** The framing of gpt-4o and gpt-4o-mini, also assumed for later models (none is published). */
export const OPENAI_TOOL_FRAMING: OpenAIToolFraming = Object.freeze({
  functionStart: 7,
  propertiesStart: 3,
  property: 3,
  enumStart: -3,
  enumItem: 3,
  end: 12,
});

/** The framing of gpt-3.5-turbo and gpt-4. */
export const OPENAI_LEGACY_TOOL_FRAMING: OpenAIToolFraming = Object.freeze({
  ...OPENAI_TOOL_FRAMING,
  functionStart: 10,
});

/** Property keys the cookbook's formula counts itself. */
const COUNTED_KEYS = new Set(['type', 'description', 'enum']);

/**
 * An estimate of the prompt tokens a list of function tools adds to an OpenAI request, by the
 * formula of the OpenAI Cookbook ("Counting tokens for chat completions with tool calls"), which
 * matches the API's count on its example: per function, a start constant plus the tokens of
 * `name:description`; per property, a constant plus `key:type:description`, and an enum's values
 * with their own constants; once per request, an end constant (a trailing `.` of a description is
 * dropped, as the API renders it). With the messages' framing (`MESSAGE_OVERHEAD.openai`) it
 * reproduces the cookbook's example exactly: 101 prompt tokens on gpt-4o.
 *
 * Beyond the cookbook, which covers flat properties only, a property's other keywords (`items`,
 * nested `properties`, `minimum`, `anyOf`, ...) are counted as their JSON. Framing constants are
 * published for gpt-4o, gpt-4o-mini, gpt-3.5-turbo and gpt-4; later models are assumed to frame
 * like gpt-4o.
 *
 * @param tools - The tool definitions sent with the request, in any shape `toolDeclarationOf`
 *   takes (ctxkit's, OpenAI Chat Completions' or Responses', Anthropic's, the AI SDK's), counted
 *   with their schema; none costs nothing.
 * @param counter - The text counter of the model's encoding (`tiktoken:o200k_base` for gpt-4o and
 *   later, `tiktoken:cl100k_base` for gpt-4 and gpt-3.5).
 * @param model - The model id; `gpt-3.5-turbo…` and `gpt-4`, `gpt-4-…` (not `gpt-4o`, `gpt-4.1`)
 *   use their own framing. Default `gpt-4o`.
 * @returns the estimated tokens of the tool declarations
 * @throws InvalidOptionError (`invalid_option`) when a definition is none of the shapes, has no
 *   name, a description that is not a string or a schema that is not JSON Schema (nor converts
 *   to it), or `model` is empty
 * @see https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken
 */
export function countOpenAIToolTokens(
  tools: readonly ToolDefinition[],
  counter: TokenCounter,
  model = 'gpt-4o',
): number {
  const caller = 'countOpenAIToolTokens';
  const declarations = checkToolDeclarations(tools, caller);
  checkName(caller, 'model', model);
  if (declarations.length === 0) return 0;
  const framing =
    tiktokenEncodingOf(model) === 'cl100k_base' ? OPENAI_LEGACY_TOOL_FRAMING : OPENAI_TOOL_FRAMING;
  let total = framing.end;
  for (const tool of declarations) {
    total += framing.functionStart;
    total += counter.count(`${tool.name}:${withoutFinalPeriod(tool.description)}`);
    const properties = objectOrUndefined(tool.parameters?.properties);
    const keys = properties === undefined ? [] : Object.keys(properties);
    if (keys.length === 0) continue;
    total += framing.propertiesStart;
    for (const key of keys) {
      const property = objectOrUndefined(properties?.[key]) ?? {};
      total += framing.property;
      if (Array.isArray(property.enum)) {
        total += framing.enumStart;
        for (const value of property.enum) {
          total += framing.enumItem + counter.count(jsonText(value));
        }
      }
      const type = property.type === undefined ? '' : jsonText(property.type);
      total += counter.count(`${key}:${type}:${withoutFinalPeriod(property.description)}`);
      const rest = Object.entries(property).filter(([name]) => !COUNTED_KEYS.has(name));
      if (rest.length > 0) total += counter.count(JSON.stringify(Object.fromEntries(rest)));
    }
  }
  return total;
}

// --- internal helpers ---

function withoutFinalPeriod(description: unknown): string {
  const text = typeof description === 'string' ? description : '';
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

/** A string as itself, anything else as its JSON. */
function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

function objectOrUndefined(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}
