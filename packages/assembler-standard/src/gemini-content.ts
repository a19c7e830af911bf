import type { JsonValue } from '@ctxkit/context-core';

/** Fields every Gemini part may carry beside its data. */
interface GeminiPartBase {
  /** The model's opaque signature of its thinking up to this part, to be sent back on the same part. */
  thoughtSignature?: string;
}

/** Text, or (with `thought: true`) the model's thinking. */
export interface GeminiTextPart extends GeminiPartBase {
  /** The text. */
  text: string;
  /** Whether the text is the model's thinking. */
  thought?: boolean;
}

/** Inline bytes: an image, a PDF, audio, ... */
export interface GeminiInlineDataPart extends GeminiPartBase {
  /** The bytes as base64, with their media type. */
  inlineData: { mimeType: string; data: string };
}

/** Bytes by URI: a file uploaded to the Files API, a Cloud Storage object, an `http(s)` URL. */
export interface GeminiFileDataPart extends GeminiPartBase {
  /** The URI, with the media type when known. */
  fileData: { mimeType?: string; fileUri: string };
}

/** A function call the model made. */
export interface GeminiFunctionCallPart extends GeminiPartBase {
  /** The function's name, its arguments as an object, and the call's id when the API gave one. */
  functionCall: { name: string; args?: Record<string, JsonValue>; id?: string };
}

/** The result of a function call, in a user turn. */
export interface GeminiFunctionResponsePart extends GeminiPartBase {
  /** The function's name, its result as an object, and the id of the call answered. */
  functionResponse: { name: string; response: Record<string, JsonValue>; id?: string };
}

/** A part ctxkit carries as an opaque part (executable code, a code execution result, ...): written back as it came. */
export interface GeminiOtherPart {
  /** The part's fields. */
  [field: string]: JsonValue;
}

/** One part of a Gemini content. */
export type GeminiPart =
  | GeminiTextPart
  | GeminiInlineDataPart
  | GeminiFileDataPart
  | GeminiFunctionCallPart
  | GeminiFunctionResponsePart
  | GeminiOtherPart;

/** One turn of a Gemini conversation. */
export interface GeminiContent {
  /** `user` (the user and function results) or `model`. */
  role: 'user' | 'model';
  /** The turn's parts. */
  parts: GeminiPart[];
}

/**
 * The conversation part of a Gemini `generateContent` request: `systemInstruction` and
 * `contents`. Spread it into the body beside `generationConfig`, `tools` and the rest.
 */
export interface GeminiRequest {
  /** The system prompt as text parts; absent when there is none. */
  systemInstruction?: { parts: GeminiTextPart[] };
  /** The turns, in order. */
  contents: GeminiContent[];
}
