import type { ToolDeclaration } from './tool-declaration.js';

/**
 * A tool as OpenAI's Chat Completions API takes it: `{ type: 'function', function: {...} }`.
 */
export interface OpenAIChatToolDefinition {
  /** Always `function`. */
  readonly type: 'function';
  /** The function: its name, description and JSON Schema of its arguments. */
  readonly function: {
    /** The name the model calls it by. */
    readonly name: string;
    /** What it does, for the model. */
    readonly description?: string | null;
    /** JSON Schema of its arguments. */
    readonly parameters?: Readonly<Record<string, unknown>> | null;
    /** Structured outputs for its arguments (not counted). */
    readonly strict?: boolean | null;
  };
}

/** A function tool as OpenAI's Responses API takes it: the function's fields beside `type`. */
export interface OpenAIResponsesToolDefinition {
  /** Always `function`. */
  readonly type: 'function';
  /** The name the model calls it by. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description?: string | null;
  /** JSON Schema of its arguments. */
  readonly parameters?: Readonly<Record<string, unknown>> | null;
  /** Structured outputs for its arguments (not counted). */
  readonly strict?: boolean | null;
}

/** A client tool as Anthropic's Messages API takes it, with `input_schema`. */
export interface AnthropicToolDefinition {
  /** `custom`, or left out. */
  readonly type?: 'custom' | null;
  /** The name the model calls it by. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description?: string | null;
  /** JSON Schema of its input. */
  readonly input_schema: Readonly<Record<string, unknown>>;
  /** A prompt-cache breakpoint (not counted). */
  readonly cache_control?: Readonly<Record<string, unknown>> | null;
  /** Strict validation of its input (not counted). */
  readonly strict?: boolean | null;
  /** Whether the tool is loaded on demand (counted all the same: the count errs high). */
  readonly defer_loading?: boolean | null;
  /** Who may call it (not counted). */
  readonly allowed_callers?: readonly string[] | null;
  /** Eager streaming of its input (not counted). */
  readonly eager_input_streaming?: boolean | null;
}

/**
 * A tool in the AI SDK's shape, with `inputSchema` (a language model call's function tool has
 * this shape, with `type: 'function'`): JSON Schema, an AI SDK schema (`jsonSchema()`,
 * `zodSchema()`), or a schema object of a Standard Schema library such as Zod, converted with its
 * own JSON Schema conversion.
 */
export interface AISDKToolDefinition {
  /** `function`, or left out. */
  readonly type?: 'function';
  /** The name the model calls it by. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description?: string | null;
  /** Its input's schema: JSON Schema, an AI SDK schema or a Standard Schema object. */
  readonly inputSchema: object;
  /** Strict mode for its input (not counted). */
  readonly strict?: boolean;
  /** Provider options of the tool (not counted). */
  readonly providerOptions?: Readonly<Record<string, unknown>>;
}

/**
 * A tool definition in any shape ctxkit counts: its own {@link ToolDeclaration} (also Gemini's
 * function declaration), OpenAI's Chat Completions and Responses tools, Anthropic's tool, and the
 * AI SDK's. `toToolDeclarations` turns each into a `ToolDeclaration`.
 */
export type ToolDefinition =
  | ToolDeclaration
  | OpenAIChatToolDefinition
  | OpenAIResponsesToolDefinition
  | AnthropicToolDefinition
  | AISDKToolDefinition;
