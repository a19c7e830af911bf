import type { FilePart, ImagePart } from '@ctxkit/context-core';
import { dataUrl, inlineImageType, mediaSource, mediaTypeEssence } from './media-data.js';
import type {
  OpenAIChatAudioPart,
  OpenAIChatFilePart,
  OpenAIChatImagePart,
} from './openai-chat-message.js';
import { imageDetailOf } from './provider-options.js';

/** The content parts of an OpenAI chat user message that carry an image, audio or a file. */
export type OpenAIChatMediaPart = OpenAIChatImagePart | OpenAIChatAudioPart | OpenAIChatFilePart;

/**
 * The OpenAI chat content part for an image or file part of a user message: `image_url` for an
 * image or a file of an `image/` type (its `http(s)` URL, or a `data:` URL of the inline data;
 * `providerOptions.openai.imageDetail` as `detail`), `file` for an inline PDF (`file_data` as a
 * `data:` URL, the file name as `filename`), `input_audio` for inline `audio/wav` or
 * `audio/mpeg`. `undefined` when Chat Completions has no part for it: other file types, files by
 * URL, inline images of an unknown type, addresses that are not `http(s)`. The caller then sends
 * the part's label instead.
 */
export function toOpenAIChatMedia(part: ImagePart | FilePart): OpenAIChatMediaPart | undefined {
  const source = mediaSource(part.type === 'image' ? part.image : part.data);
  if (source.kind === 'other') return undefined;
  const essence = mediaTypeEssence(part.mediaType);
  if (part.type === 'image' || essence?.startsWith('image/')) {
    let url: string;
    if (source.kind === 'url') url = source.url;
    else {
      const mediaType = inlineImageType(part.mediaType, source);
      if (mediaType === undefined) return undefined;
      url = dataUrl(mediaType, source.data);
    }
    const detail = imageDetailOf(part.providerOptions);
    return { type: 'image_url', image_url: detail === undefined ? { url } : { url, detail } };
  }
  if (source.kind === 'url') return undefined;
  if (essence === PDF) {
    const name =
      part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {};
    return { type: 'file', file: { file_data: dataUrl(PDF, source.data), ...name } };
  }
  const format = essence === undefined ? undefined : AUDIO_FORMATS[essence];
  return format === undefined
    ? undefined
    : { type: 'input_audio', input_audio: { data: source.data, format } };
}

/**
 * The ctxkit part for an OpenAI chat `image_url`, `input_audio` or `file` part: a `data:` URL
 * as base64 data with its media type, an `http(s)` URL as its string, `detail` as
 * `providerOptions.openai.imageDetail`, audio as a file of `audio/wav` or `audio/mpeg`, a file as
 * a file of the `data:` URL's media type (`application/pdf` when it names none).
 */
export function fromOpenAIChatMedia(part: OpenAIChatMediaPart): ImagePart | FilePart {
  switch (part.type) {
    case 'image_url': {
      const { url, detail } = part.image_url;
      const source = mediaSource(url);
      const options =
        detail === undefined ? {} : { providerOptions: { openai: { imageDetail: detail } } };
      return source.kind === 'base64'
        ? {
            type: 'image',
            image: source.data,
            ...(source.mediaType === undefined ? {} : { mediaType: source.mediaType }),
            ...options,
          }
        : { type: 'image', image: url, ...options };
    }
    case 'input_audio':
      return {
        type: 'file',
        data: part.input_audio.data,
        mediaType: part.input_audio.format === 'wav' ? 'audio/wav' : 'audio/mpeg',
      };
    case 'file': {
      const source = mediaSource(part.file.file_data);
      const data = source.kind === 'base64' ? source.data : part.file.file_data;
      const mediaType = (source.kind === 'base64' ? source.mediaType : undefined) ?? PDF;
      const name = part.file.filename === undefined ? {} : { filename: part.file.filename };
      return { type: 'file', data, mediaType, ...name };
    }
  }
}

// --- internal helpers ---

const PDF = 'application/pdf';
const AUDIO_FORMATS: Readonly<Record<string, 'wav' | 'mp3'>> = Object.freeze({
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
});
