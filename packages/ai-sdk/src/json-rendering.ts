import type { JsonValue } from '@ctxkit/context-core';

/**
 * `value` as JSON data, for parts and outputs ctxkit carries as JSON: bytes become base64, a `URL`
 * its address, a `Date` its ISO text; `undefined` properties are left out (as `JSON.stringify`
 * does). Only what ctxkit counts and shows; the original goes back to the AI SDK (see
 * `originals`).
 *
 * @param value - any value of an AI SDK part
 * @returns its JSON rendering
 */
export function jsonRendering(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Uint8Array) return base64(value);
  if (value instanceof ArrayBuffer) return base64(new Uint8Array(value));
  if (value instanceof URL) return value.href;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => jsonRendering(item ?? null));
  if (typeof value === 'object') {
    const object: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined && typeof item !== 'function') object[key] = jsonRendering(item);
    }
    return object;
  }
  return String(value);
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}
