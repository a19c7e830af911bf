import type { JsonValue, ProviderOptions } from '@ctxkit/context-core';

/**
 * The key under `providerOptions` where the adapter notes what ctxkit's part cannot say about the
 * AI SDK part it came from. Removed on the way back; never counted (ctxkit does not count
 * `providerOptions`).
 */
export const MARKER_KEY = 'ctxkit-ai-sdk';

/** What the adapter notes on a converted part. */
export interface PartMarker {
  /** The AI SDK part had no `providerOptions` of its own. */
  bare?: true;
  /** The file's data was tagged `{ type: 'data', data }` or `{ type: 'url', url }`. */
  fileData?: 'data' | 'url';
  /** The `originalUrl` of a file given by URL. */
  originalUrl?: string;
  /** The tool result's output is the AI SDK output as JSON data (a form ctxkit has no output for). */
  rawOutput?: true;
}

/**
 * `providerOptions` with a marker added.
 *
 * @param providerOptions - the AI SDK part's own, if any
 * @param marker - what to note
 * @returns the options to give the ctxkit part
 */
export function withMarker(
  providerOptions: ProviderOptions | undefined,
  marker: PartMarker,
): ProviderOptions {
  const noted: PartMarker = providerOptions === undefined ? { ...marker, bare: true } : marker;
  return { ...providerOptions, [MARKER_KEY]: noted as Record<string, JsonValue> };
}

/**
 * Splits a ctxkit part's `providerOptions` into the AI SDK part's own and the marker.
 *
 * @param providerOptions - the ctxkit part's
 * @returns the AI SDK part's own (`undefined` when it had none) and the marker (`{}` without one)
 */
export function readMarker(providerOptions: ProviderOptions | undefined): {
  providerOptions: ProviderOptions | undefined;
  marker: PartMarker;
} {
  if (providerOptions === undefined || !(MARKER_KEY in providerOptions)) {
    return { providerOptions, marker: {} };
  }
  const { [MARKER_KEY]: marker, ...own } = providerOptions;
  const noted = (marker ?? {}) as PartMarker;
  return { providerOptions: noted.bare ? undefined : own, marker: noted };
}
