import { InvalidOptionError } from './error-families.js';
import { optionChecker } from './option-checker.js';
import {
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
  PAGE_OPTION_KEYS,
  type Page,
  type PageOptions,
  type PageOrder,
} from './page.js';

/** Which listing a paged read belongs to; its cursors work for that listing only. */
export interface PageListing {
  /** The method reading the pages, such as `listEventsPage`; named in errors. */
  method: string;
  /** What the listing is restricted to (conversation, type, archive); `undefined` for none. */
  scope: readonly (string | undefined)[];
  /**
   * The package raising the errors.
   *
   * @default 'context-core'
   */
  source?: string;
  /**
   * The option names the read takes; any other is refused.
   *
   * @default `PAGE_OPTION_KEYS`
   */
  optionKeys?: Readonly<Record<string, true>>;
}

/** The options of a paged read, checked, with the cursor turned back into a key. */
export interface PageRequest {
  /** The most items to return. */
  limit: number;
  /** The direction to walk in. */
  order: PageOrder;
  /** The key of the previous page's last item (exclusive bound), or `undefined` from the start. */
  after: number | undefined;
}

/**
 * Checks a paged read's options for a store: `limit` from 1 to {@link MAX_PAGE_LIMIT}, `order`
 * one of the two, and `after` a cursor that this same listing made (same method, scope and
 * order). Stores key their items by a whole number that only grows as items are stored, and walk
 * from `after` rather than counting an offset.
 *
 * @param options - the options as given, possibly `undefined`
 * @param listing - the listing being read
 * @returns the limit, the order and the key to continue after
 * @throws InvalidOptionError (`unknown_option`) for an option the listing does not take;
 *   (`invalid_option`) for a bad `limit` or `order`; (`invalid_cursor`)
 *   for an `after` that is not a cursor of this listing, naming the method and the value
 */
export function readPageOptions(options: unknown, listing: PageListing): PageRequest {
  const checker = optionChecker(listing.source ?? 'context-core', listing.method);
  const given = (options ?? {}) as PageOptions;
  checker.knownKeys(given, listing.optionKeys ?? PAGE_OPTION_KEYS);
  const limit = given.limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw checker.invalid('limit', given.limit, `a whole number from 1 to ${MAX_PAGE_LIMIT}`);
  }
  const order = given.order ?? 'oldest-first';
  if (order !== 'oldest-first' && order !== 'newest-first') {
    throw checker.invalid('order', given.order, '"oldest-first" or "newest-first"');
  }
  const after = given.after === undefined ? undefined : keyOfCursor(given.after, listing, order);
  return { limit, order, after };
}

/**
 * The page of `rows` read for `request`: a store reads `limit + 1` rows, so that the extra one
 * tells whether the listing goes on; the page keeps `limit` and, when there were more, a cursor
 * to the key of its last row.
 *
 * @param rows - the rows read, in the page's order, at most `limit + 1`
 * @param request - the checked options the rows were read for
 * @param listing - the listing being read
 * @param keyOf - the key of a row
 * @returns the page of rows
 */
export function pageOf<Row>(
  rows: readonly Row[],
  request: PageRequest,
  listing: PageListing,
  keyOf: (row: Row) => number,
): Page<Row> {
  if (rows.length <= request.limit) return { items: [...rows] };
  const items = rows.slice(0, request.limit);
  const last = items[items.length - 1] as Row;
  return { items, next: encodeCursor(listing, request.order, keyOf(last)) };
}

// --- internal helpers ---

/** Version of the cursor layout, first in every cursor. */
const CURSOR_VERSION = 1;

function encodeCursor(listing: PageListing, order: PageOrder, key: number): string {
  const text = JSON.stringify([CURSOR_VERSION, listing.method, scopeHash(listing), order, key]);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function keyOfCursor(cursor: unknown, listing: PageListing, order: PageOrder): number {
  const refuse = (problem: string): never => {
    throw new InvalidOptionError({
      code: 'invalid_cursor',
      source: listing.source ?? 'context-core',
      message: `${listing.method}: option after must be the next cursor of a page of this listing, got ${describeCursor(cursor)}: ${problem}.`,
      details: { method: listing.method, option: 'after', value: cursor, problem },
    });
  };
  if (typeof cursor !== 'string') return refuse('it is not a string');
  let fields: unknown;
  try {
    const base64 = cursor.replace(/-/g, '+').replace(/_/g, '/');
    fields = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')));
  } catch {
    return refuse('it is not a page cursor');
  }
  if (!Array.isArray(fields) || fields.length !== 5 || fields[0] !== CURSOR_VERSION) {
    return refuse('it is not a page cursor');
  }
  const [, method, hash, cursorOrder, key] = fields as unknown[];
  if (method !== listing.method) return refuse(`it was made by ${String(method)}`);
  if (hash !== scopeHash(listing)) {
    return refuse('it was made for another conversation, archive or filter');
  }
  if (cursorOrder !== order) return refuse(`it was made for order ${String(cursorOrder)}`);
  if (typeof key !== 'number' || !Number.isSafeInteger(key) || key < 0) {
    return refuse('it is not a page cursor');
  }
  return key;
}

/** FNV-1a of the listing's scope, in hex: keeps cursors short whatever the ids' length. */
function scopeHash(listing: PageListing): string {
  const text = JSON.stringify(listing.scope.map((part) => part ?? null));
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function describeCursor(cursor: unknown): string {
  if (typeof cursor === 'string') {
    return JSON.stringify(cursor.length > 80 ? `${cursor.slice(0, 80)}…` : cursor);
  }
  return cursor === null ? 'null' : `a value of type ${typeof cursor}`;
}
