import type { CacheBreakpoint, CacheRequest } from './cache-request.js';
import { invalidCacheRequest } from './invalid-cache-request.js';

/** Most `cache_control` breakpoints Anthropic accepts in one request. */
export const MAX_BREAKPOINTS = 4;

/**
 * Checks the simulator's requests: an array, each with a finite `at` not before the previous
 * one, a prefix of segments with a string key and a whole number of tokens, and breakpoints on
 * existing segments with a known TTL; under Anthropic's rules, at most 4 breakpoints with the
 * 1-hour ones first (the API refuses the rest).
 *
 * @param requests - what the caller passed as the requests
 * @param anthropic - whether Anthropic's breakpoint limits apply
 * @returns the requests, each with its breakpoints sorted by index
 * @throws ContextError (`invalid_cache_request`) naming the request, the field and the value
 */
export function checkCacheRequests(requests: unknown, anthropic: boolean): CacheRequest[] {
  if (!Array.isArray(requests)) throw invalidCacheRequest('requests', 'an array', requests);
  let previousAt = Number.NEGATIVE_INFINITY;
  return requests.map((request: unknown, index): CacheRequest => {
    const checked = checkCacheRequest(request, index, previousAt, anthropic);
    previousAt = checked.at;
    return checked;
  });
}

/**
 * Checks one request of a sequence, as {@link checkCacheRequests} checks each.
 *
 * @param request - what the caller passed as the request
 * @param index - its place in the sequence, named in errors
 * @param previousAt - when the request before it was sent (`-Infinity` for the first)
 * @param anthropic - whether Anthropic's breakpoint limits apply
 * @returns the request, its breakpoints sorted by index
 * @throws ContextError (`invalid_cache_request`) naming the request, the field and the value
 */
export function checkCacheRequest(
  request: unknown,
  index: number,
  previousAt: number,
  anthropic: boolean,
): CacheRequest {
  const where = `requests[${index}]`;
  if (typeof request !== 'object' || request === null) {
    throw invalidCacheRequest(where, 'an object', request, { index });
  }
  const { at, prefix, breakpoints } = request as Record<string, unknown>;
  if (typeof at !== 'number' || !Number.isFinite(at)) {
    throw invalidCacheRequest(`${where}.at`, 'a finite number of ms', at, { index });
  }
  if (at < previousAt) {
    throw invalidCacheRequest(
      `${where}.at`,
      `at least the previous request's ${previousAt} (requests in the order they were sent)`,
      at,
      { index, previousAt },
    );
  }
  if (!Array.isArray(prefix)) {
    throw invalidCacheRequest(`${where}.prefix`, 'an array of segments', prefix, { index });
  }
  for (const [segment, value] of prefix.entries()) {
    const path = `${where}.prefix[${segment}]`;
    const { key, tokens } = (value ?? {}) as Record<string, unknown>;
    if (typeof key !== 'string') {
      throw invalidCacheRequest(`${path}.key`, 'a string', key, { index, segment });
    }
    if (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens < 0) {
      throw invalidCacheRequest(`${path}.tokens`, 'a whole number of at least 0', tokens, {
        index,
        segment,
      });
    }
  }
  const sorted = checkBreakpoints(breakpoints, prefix.length, anthropic, index);
  return { at, prefix, ...(sorted ? { breakpoints: sorted } : {}) };
}

// --- internal helpers ---

function checkBreakpoints(
  breakpoints: unknown,
  segments: number,
  anthropic: boolean,
  index: number,
): CacheBreakpoint[] | undefined {
  const where = `requests[${index}].breakpoints`;
  if (breakpoints === undefined) return undefined;
  if (!Array.isArray(breakpoints)) {
    throw invalidCacheRequest(where, 'an array', breakpoints, { index });
  }
  if (anthropic && breakpoints.length > MAX_BREAKPOINTS) {
    throw invalidCacheRequest(
      where,
      `at most ${MAX_BREAKPOINTS} breakpoints (Anthropic's limit)`,
      breakpoints.length,
      { index, count: breakpoints.length },
    );
  }
  for (const [position, value] of breakpoints.entries()) {
    const { index: segment, ttl } = (value ?? {}) as Record<string, unknown>;
    if (
      typeof segment !== 'number' ||
      !Number.isInteger(segment) ||
      segment < 0 ||
      segment >= segments
    ) {
      throw invalidCacheRequest(
        `${where}[${position}].index`,
        `the index of one of the prefix's ${segments} segments`,
        segment,
        { index },
      );
    }
    if (ttl !== undefined && ttl !== '5m' && ttl !== '1h') {
      throw invalidCacheRequest(`${where}[${position}].ttl`, "'5m' or '1h'", ttl, { index });
    }
  }
  const sorted = [...(breakpoints as CacheBreakpoint[])].sort((a, b) => a.index - b.index);
  const longAfterShort = sorted.find(
    (breakpoint, position) =>
      breakpoint.ttl === '1h' &&
      sorted.slice(0, position).some((earlier) => (earlier.ttl ?? '5m') === '5m'),
  );
  if (anthropic && longAfterShort !== undefined) {
    throw invalidCacheRequest(
      where,
      "ordered with every '1h' breakpoint before the '5m' ones (Anthropic's rule)",
      longAfterShort.index,
      { index },
    );
  }
  return sorted;
}
