/**
 * A tool as it is declared to a model: the shape of OpenAI's `function`, Anthropic's tool (with
 * `input_schema` as `parameters`) and Gemini's function declaration.
 */
export interface ToolDeclaration {
  /** The name the model calls it by. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description?: string;
  /** JSON Schema of its input (an object schema). */
  readonly parameters?: Readonly<Record<string, unknown>>;
}
