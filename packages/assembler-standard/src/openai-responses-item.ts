import type { JsonValue } from '@ctxkit/context-core';

/** Text in a user, system or developer message of the Responses API. */
export interface OpenAIResponsesInputText {
  /** Always `input_text`. */
  type: 'input_text';
  /** The text. */
  text: string;
}

/** An image in a message or a function call's output: by URL (`data:` or `http(s)`) or by file id. */
export interface OpenAIResponsesInputImage {
  /** Always `input_image`. */
  type: 'input_image';
  /** A `data:` URL of the image's bytes, or an `http(s)` URL. */
  image_url?: string;
  /** The id of a file uploaded to OpenAI. */
  file_id?: string;
  /** How closely the model looks at the image. */
  detail?: 'auto' | 'low' | 'high';
}

/** A file in a message or a function call's output: inline, by URL or by file id. */
export interface OpenAIResponsesInputFile {
  /** Always `input_file`. */
  type: 'input_file';
  /** The file's bytes as a `data:` URL. */
  file_data?: string;
  /** The id of a file uploaded to OpenAI. */
  file_id?: string;
  /** An `http(s)` URL the API fetches the file from. */
  file_url?: string;
  /** The file's name. */
  filename?: string;
}

/** Text the model wrote, in an assistant message. */
export interface OpenAIResponsesOutputText {
  /** Always `output_text`. */
  type: 'output_text';
  /** The text. */
  text: string;
  /** Citations the model attached to the text, as it returned them. */
  annotations?: JsonValue[];
  /** Token log probabilities, as the model returned them. */
  logprobs?: JsonValue[];
}

/** A content part of a message that ctxkit carries as an opaque part: written back as it came. */
export interface OpenAIResponsesOtherContent {
  /** The part's type, such as `refusal`. */
  type: string;
  /** The rest of the part. */
  [field: string]: JsonValue;
}

/** What a user, system or developer message holds. */
export type OpenAIResponsesInputContent =
  | OpenAIResponsesInputText
  | OpenAIResponsesInputImage
  | OpenAIResponsesInputFile;

/** A message item: instructions, a user turn, or text the model wrote. */
export interface OpenAIResponsesMessage {
  /** Always `message` (the API also takes messages without it). */
  type: 'message';
  /** Who speaks. */
  role: 'system' | 'developer' | 'user' | 'assistant';
  /** Text, or content parts: input parts for the user, system and developer, `output_text` for the assistant. */
  content:
    | string
    | (OpenAIResponsesInputContent | OpenAIResponsesOutputText | OpenAIResponsesOtherContent)[];
  /** The item's id (`msg_…`), when the model returned it. */
  id?: string;
}

/** A function call the model made. */
export interface OpenAIResponsesFunctionCall {
  /** Always `function_call`. */
  type: 'function_call';
  /** The id its output names. */
  call_id: string;
  /** The function's name. */
  name: string;
  /** The arguments as JSON text. */
  arguments: string;
  /** The item's id (`fc_…`), when the model returned it. */
  id?: string;
}

/** The output of a function call. */
export interface OpenAIResponsesFunctionCallOutput {
  /** Always `function_call_output`. */
  type: 'function_call_output';
  /** The `call_id` of the call answered. */
  call_id: string;
  /** The output: text, or text, image and file parts. */
  output: string | OpenAIResponsesInputContent[];
  /** The item's id, when it has one. */
  id?: string;
}

/** One paragraph of a reasoning summary. */
export interface OpenAIResponsesSummaryText {
  /** Always `summary_text`. */
  type: 'summary_text';
  /** The summary's text. */
  text: string;
}

/** The model's reasoning: a readable summary and, when asked for, its encrypted content. */
export interface OpenAIResponsesReasoning {
  /** Always `reasoning`. */
  type: 'reasoning';
  /** The item's id (`rs_…`). */
  id?: string;
  /** The readable summary, paragraph by paragraph. */
  summary: OpenAIResponsesSummaryText[];
  /** The reasoning, encrypted, to be sent back as is (with `include: ['reasoning.encrypted_content']`). */
  encrypted_content?: string;
  /** The raw reasoning text, as the model returned it (open-weight models). */
  content?: JsonValue[];
}

/** An item ctxkit carries as an opaque part (a web search call, an item reference, ...): written back as it came. */
export interface OpenAIResponsesOtherItem {
  /** The item's type. */
  type: string;
  /** The rest of the item. */
  [field: string]: JsonValue;
}

/** One item of the `input` of a Responses API request (or of a response's `output`). */
export type OpenAIResponsesItem =
  | OpenAIResponsesMessage
  | OpenAIResponsesFunctionCall
  | OpenAIResponsesFunctionCallOutput
  | OpenAIResponsesReasoning
  | OpenAIResponsesOtherItem;
