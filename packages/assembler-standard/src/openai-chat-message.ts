/** A text content part of an OpenAI chat message. */
export interface OpenAIChatTextPart {
  /** Always `text`. */
  type: 'text';
  /** The text. */
  text: string;
}

/** An image, by `http(s)` URL or as a `data:` URL, in a user message. */
export interface OpenAIChatImagePart {
  /** Always `image_url`. */
  type: 'image_url';
  /** The image. */
  image_url: {
    /** An `http(s)` URL, or a `data:` URL holding the image as base64. */
    url: string;
    /** How closely the model looks: ctxkit writes `providerOptions.openai.imageDetail` here. */
    detail?: 'auto' | 'low' | 'high';
  };
}

/** Audio as base64, in a user message. */
export interface OpenAIChatAudioPart {
  /** Always `input_audio`. */
  type: 'input_audio';
  /** The audio. */
  input_audio: {
    /** The bytes, base64-encoded. */
    data: string;
    /** `wav` or `mp3`. */
    format: 'wav' | 'mp3';
  };
}

/** A file (a PDF) sent inline, in a user message. */
export interface OpenAIChatFilePart {
  /** Always `file`. */
  type: 'file';
  /** The file. */
  file: {
    /** A `data:` URL holding the file as base64. */
    file_data: string;
    /** The file's name. */
    filename?: string;
  };
}

/** A content part of a user message. */
export type OpenAIChatUserPart =
  | OpenAIChatTextPart
  | OpenAIChatImagePart
  | OpenAIChatAudioPart
  | OpenAIChatFilePart;

/** One function call in an assistant message's `tool_calls`. */
export interface OpenAIChatToolCall {
  /** The call's id, echoed by the `tool` message that answers it. */
  id: string;
  /** Always `function`. */
  type: 'function';
  /** The function called. */
  function: {
    /** The tool's name. */
    name: string;
    /** The input as JSON text. */
    arguments: string;
  };
}

/** Instructions: role `system`, or `developer` (the newer name OpenAI gives the same thing). */
export interface OpenAIChatSystemMessage {
  /** `system` or `developer`. */
  role: 'system' | 'developer';
  /** Text, or text parts. */
  content: string | OpenAIChatTextPart[];
}

/** What the user says. */
export interface OpenAIChatUserMessage {
  /** Always `user`. */
  role: 'user';
  /** Text, or parts: text, images, audio and files. */
  content: string | OpenAIChatUserPart[];
}

/** What the model said: text, tool calls, or both (`content` is `null` when it only calls tools). */
export interface OpenAIChatAssistantMessage {
  /** Always `assistant`. */
  role: 'assistant';
  /** Text, text parts, or `null` beside `tool_calls`. */
  content?: string | OpenAIChatTextPart[] | null;
  /** The calls the model makes; each is answered by a `tool` message right after. */
  tool_calls?: OpenAIChatToolCall[];
}

/** The output of one tool call; it follows the assistant message that made the call. */
export interface OpenAIChatToolMessage {
  /** Always `tool`. */
  role: 'tool';
  /** The id of the call answered. */
  tool_call_id: string;
  /** The output: text, or text parts. */
  content: string | OpenAIChatTextPart[];
}

/** One message of an OpenAI Chat Completions request, as far as ctxkit reads and writes it. */
export type OpenAIChatMessage =
  | OpenAIChatSystemMessage
  | OpenAIChatUserMessage
  | OpenAIChatAssistantMessage
  | OpenAIChatToolMessage;
