import type { MediaData, Message, Part } from '@ctxkit/context-core';

/**
 * A message's content as the `content` column holds it: JSON data, in which the image and file
 * data JSON cannot hold take an object form. At the two places media data goes (`image` of an
 * image part, `data` of a file part, in the content and in the content of a tool-result output)
 * only a string, bytes or a `URL` is valid, so an object there cannot be mistaken for anything
 * else: `{ "bytes": base64 }` stands for a `Uint8Array`, `{ "arrayBuffer": base64 }` for an
 * `ArrayBuffer` and `{ "url": href }` for a `URL`. Strings stay strings, and nothing anywhere
 * else is touched (meta, providerOptions, tool inputs, JSON outputs and opaque values are JSON
 * data already). Expects content that `validateMessages` accepted; never changes `content`.
 */
export function toStoredContent(content: Message['content']): unknown {
  if (typeof content === 'string') return content;
  return content.map(storedPart);
}

/**
 * The content that `stored` (the parsed JSON of a `content` column) stands for: every media
 * object form at the places {@link toStoredContent} writes it turned back into a plain
 * `Uint8Array`, an `ArrayBuffer` or a `URL`, in place. Anything else is left for validation to
 * judge. Calls `fail` with the part's index and the problem for a media object that is not one
 * of those forms.
 */
export function fromStoredContent(
  stored: unknown,
  fail: (part: number, problem: string) => never,
): unknown {
  if (!Array.isArray(stored)) return stored;
  stored.forEach((part: unknown, index) => {
    const where = (problem: string) => fail(index, problem);
    restoreMedia(part, where);
    if (!isRecord(part) || part.type !== 'tool-result' || !isRecord(part.output)) return;
    const { type, value } = part.output;
    if (type !== 'content' || !Array.isArray(value)) return;
    value.forEach((item: unknown, at) => {
      restoreMedia(item, (problem) => where(`output.value[${at}]: ${problem}`));
    });
  });
  return stored;
}

// --- internal helpers ---

/** The field that holds an image's or a file's data. */
const MEDIA_FIELD = { image: 'image', file: 'data' } as const;

function storedPart(part: Part): unknown {
  if (part.type === 'image' || part.type === 'file') return storedMediaPart(part);
  if (part.type !== 'tool-result' || typeof part.output === 'string') return part;
  if (part.output.type !== 'content') return part;
  return {
    ...part,
    output: { ...part.output, value: part.output.value.map(storedMediaPart) },
  };
}

/** `part` with its media data in stored form; text parts (of tool output content) as they are. */
function storedMediaPart(part: Part): unknown {
  if (part.type === 'image') return { ...part, image: storedMedia(part.image) };
  if (part.type === 'file') return { ...part, data: storedMedia(part.data) };
  return part;
}

function storedMedia(data: MediaData): string | Record<string, string> {
  if (typeof data === 'string') return data;
  if (data instanceof URL) return { url: data.href };
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
  const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return data instanceof ArrayBuffer ? { arrayBuffer: base64 } : { bytes: base64 };
}

/** Turns the stored form at the media field of `part`, if it has one, back into data. */
function restoreMedia(part: unknown, fail: (problem: string) => never): void {
  if (!isRecord(part) || (part.type !== 'image' && part.type !== 'file')) return;
  const field = MEDIA_FIELD[part.type];
  const stored = part[field];
  if (typeof stored !== 'object' || stored === null) return;
  part[field] = mediaOf(stored, (problem) => fail(`${part.type}.${field} ${problem}`));
}

function mediaOf(stored: object, fail: (problem: string) => never): MediaData {
  const entries = Array.isArray(stored) ? [] : Object.entries(stored);
  const [form, value] = entries.length === 1 ? (entries[0] as [string, unknown]) : [];
  if (
    typeof value !== 'string' ||
    !(form === 'bytes' || form === 'arrayBuffer' || form === 'url')
  ) {
    return fail(
      `is ${JSON.stringify(stored).slice(0, 80)}, not { bytes }, { arrayBuffer } or { url } with a string`,
    );
  }
  if (form === 'url') {
    if (!URL.canParse(value)) return fail(`holds ${JSON.stringify(value)}, which is not a URL`);
    return new URL(value);
  }
  // A copy into a Uint8Array of its own: Buffer.from may hand out a slice of a shared pool, and
  // the caller must get a plain Uint8Array, not a Buffer.
  const bytes = new Uint8Array(Buffer.from(value, 'base64'));
  // Node skips what is not base64 and stops at padding, so anything else leaves fewer bytes
  // than the length promises (a check in constant time, where a pattern would scan the text).
  let padding = 0;
  if (value.endsWith('==')) padding = 2;
  else if (value.endsWith('=')) padding = 1;
  if (value.length % 4 !== 0 || bytes.byteLength !== (value.length / 4) * 3 - padding) {
    return fail(`holds ${form} that are not base64`);
  }
  return form === 'bytes' ? bytes : bytes.buffer;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
