import type { MediaData } from '@ctxkit/context-core';

/** Where an image's or file's bytes are, as the round-trip rules see them. */
export type MediaForm =
  | { kind: 'inline'; base64: string; mediaType?: string }
  | { kind: 'url'; url: string }
  | { kind: 'other' };

/** Bytes and base64 text as base64, a `data:` URL split, an `http(s)` URL (string or `URL`) as its text. */
export function mediaForm(data: MediaData): MediaForm {
  if (data instanceof Uint8Array)
    return { kind: 'inline', base64: Buffer.from(data).toString('base64') };
  if (data instanceof ArrayBuffer) {
    return { kind: 'inline', base64: Buffer.from(new Uint8Array(data)).toString('base64') };
  }
  const text = data instanceof URL ? data.href : data;
  if (/^https?:\/\//i.test(text)) return { kind: 'url', url: text };
  if (data instanceof URL) return { kind: 'other' };
  const match = /^data:([^;,]*)(;base64)?,(.*)$/is.exec(text);
  if (match === null) return { kind: 'inline', base64: text };
  const [, type, isBase64, payload] = match as unknown as [
    string,
    string,
    string | undefined,
    string,
  ];
  const base64 = isBase64 ? payload : Buffer.from(decodeURIComponent(payload)).toString('base64');
  return type === '' ? { kind: 'inline', base64 } : { kind: 'inline', base64, mediaType: type };
}
