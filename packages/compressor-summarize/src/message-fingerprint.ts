import { createHash, type Hash } from 'node:crypto';
import type { Message } from '@ctxkit/context-core';

/**
 * A short digest of the roles, contents and `providerOptions` of the message at `index` and the
 * one before it: the same two messages always give the same fingerprint, whatever their ids,
 * counts or `meta`, and a change anywhere else in either (a character, a byte of an image, a
 * provider option) gives another. Two messages rather than one, so a repeated short reply ("ok")
 * does not match by accident. Bytes are hashed as they are, not through JSON (a `Buffer` counts
 * as the `Uint8Array` it is, an `ArrayBuffer` as another kind of data); a message of the
 * first model (no bytes, `URL`s or message `providerOptions`) keeps the fingerprint it had then,
 * so summaries stored before still find their messages.
 */
export function messageFingerprint(messages: readonly Message[], index: number): string {
  const hash = createHash('sha256');
  for (const message of messages.slice(Math.max(0, index - 1), index + 1)) {
    hash.update(message.role);
    hash.update('\u0000');
    hashContent(hash, message.content);
    if (message.providerOptions !== undefined) {
      hash.update('\u0003');
      hash.update(JSON.stringify(message.providerOptions));
    }
    hash.update('\u0001');
  }
  return hash.digest('hex').slice(0, 32);
}

// --- internal helpers ---

/** Marks where bytes or a `URL` stood in the JSON text; what they held follows the text. */
const DATA_MARK = '\u0000ctxkit:data';

/**
 * Hashes the JSON of `content` with each `Uint8Array`, `ArrayBuffer` and `URL` replaced by a
 * mark, then each of those in order: its kind and length, then its bytes (or address).
 */
function hashContent(hash: Hash, content: Message['content']): void {
  const data: (Uint8Array | ArrayBuffer | URL)[] = [];
  const json = JSON.stringify(content, function (this: Record<string, unknown>, key, value) {
    const original = this[key];
    if (
      original instanceof Uint8Array ||
      original instanceof ArrayBuffer ||
      original instanceof URL
    ) {
      data.push(original);
      return { [DATA_MARK]: data.length - 1 };
    }
    return value;
  });
  hash.update(json ?? '');
  for (const item of data) {
    if (item instanceof URL) {
      hash.update(`\u0002url ${item.href.length}\u0002`);
      hash.update(item.href);
    } else {
      const kind = item instanceof ArrayBuffer ? 'ArrayBuffer' : 'Uint8Array';
      hash.update(`\u0002${kind} ${item.byteLength}\u0002`);
      hash.update(item instanceof ArrayBuffer ? new Uint8Array(item) : item);
    }
  }
}
