import { MAX_GREP_PATTERN_CHARS } from './compile-grep.js';
import { GET_TOOL_OUTPUT } from './offload-tool-outputs.js';

/** Characters `get_tool_output` returns when the model does not say. */
export const DEFAULT_GET_TOOL_OUTPUT_CHARS = 4000;
/** Most characters one `get_tool_output` call may return. */
export const MAX_GET_TOOL_OUTPUT_CHARS = 20_000;

/** A tool as the model is told about it: name, description and the JSON Schema of its input. */
export interface ToolDefinition {
  /** The name the model calls it by. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description: string;
  /** JSON Schema of its input object. */
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** A tool in the OpenAI chat-completions and Responses `tools` list (function tools). */
export interface OpenAITool {
  /** Always `function`. */
  type: 'function';
  /** The function the model may call. */
  function: {
    /** The name the model calls it by. */
    name: string;
    /** What it does, for the model. */
    description: string;
    /** JSON Schema of its input object. */
    parameters: Record<string, unknown>;
  };
}

/** A tool in the Anthropic Messages `tools` list. */
export interface AnthropicTool {
  /** The name the model calls it by. */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** JSON Schema of its input object. */
  input_schema: Record<string, unknown>;
}

/**
 * The `get_tool_output` tool: reads back an offloaded output by `ref`, whole or in part
 * (`start_line`/`end_line`, `grep`, `json_path`), at most `max_chars` characters. Run it with
 * `executeGetToolOutput`, which reads only outputs of the conversation the call was made in.
 */
export const GET_TOOL_OUTPUT_TOOL: ToolDefinition = deepFreeze({
  name: GET_TOOL_OUTPUT,
  description:
    'Read back a tool output that was stored out of the conversation: its header says ' +
    '"output stored as ref=toolout_…" above a summary. Give the ref, and narrow what comes back ' +
    'with a line range, a regular expression the lines must match, or a JSON path. Returns at ' +
    `most max_chars characters (default ${DEFAULT_GET_TOOL_OUTPUT_CHARS}).`,
  parameters: {
    type: 'object',
    properties: {
      ref: {
        type: 'string',
        pattern: '^toolout_[0-9a-f]{16}$',
        description: 'The ref from the stored output’s header, e.g. toolout_0123456789abcdef.',
      },
      start_line: {
        type: 'integer',
        minimum: 1,
        description: 'First line to return, 1-based; default 1.',
      },
      end_line: {
        type: 'integer',
        minimum: 1,
        description: 'Last line to return, inclusive; default the last line.',
      },
      grep: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_GREP_PATTERN_CHARS,
        description:
          "Only lines matching this regular expression, in RE2 syntax: like JavaScript's without " +
          'backreferences or lookaround; case-sensitive, (?i) at the start for any case; e.g. "ERROR|FATAL".',
      },
      json_path: {
        type: 'string',
        pattern: '^\\$',
        description:
          'For JSON output: a path such as $.items[0].name, $.items[*].id or $[0].Config.Env; applied before lines and grep.',
      },
      max_chars: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_GET_TOOL_OUTPUT_CHARS,
        description: `Most characters to return; default ${DEFAULT_GET_TOOL_OUTPUT_CHARS}.`,
      },
    },
    required: ['ref'],
    additionalProperties: false,
  },
});

/**
 * `definition` as an OpenAI function tool:
 * `{ type: 'function', function: { name, description, parameters } }`.
 *
 * @param definition - the tool, such as {@link GET_TOOL_OUTPUT_TOOL}
 * @returns a new object, with a copy of the schema
 */
export function toOpenAITool(definition: ToolDefinition): OpenAITool {
  const { name, description, parameters } = definition;
  return {
    type: 'function',
    function: { name, description, parameters: structuredClone(parameters) },
  };
}

/**
 * `definition` as an Anthropic tool: `{ name, description, input_schema }`.
 *
 * @param definition - the tool, such as {@link GET_TOOL_OUTPUT_TOOL}
 * @returns a new object, with a copy of the schema
 */
export function toAnthropicTool(definition: ToolDefinition): AnthropicTool {
  const { name, description, parameters } = definition;
  return { name, description, input_schema: structuredClone(parameters) };
}

// --- internal helpers ---

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
