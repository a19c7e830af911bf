import type { OptionKeys } from './option-checker.js';

/** The direction a paged read walks a list in. */
export type PageOrder = 'oldest-first' | 'newest-first';

/** Items a page holds when its options give no `limit`. */
export const DEFAULT_PAGE_LIMIT = 100;

/** The largest `limit` a page may ask for, so that no read loads more than this many items. */
export const MAX_PAGE_LIMIT = 1000;

/** Options of a paged read: how many items, where to continue, and in which order. */
export interface PageOptions {
  /**
   * The most items the page holds: a whole number from 1 to {@link MAX_PAGE_LIMIT}.
   *
   * @default {@link DEFAULT_PAGE_LIMIT}
   */
  limit?: number;
  /**
   * Where to continue: the `next` of the previous page of the same listing (same method,
   * conversation, filter and order).
   *
   * @default `undefined`: from the start
   */
  after?: string;
  /**
   * Which end the listing starts from.
   *
   * @default 'oldest-first'
   */
  order?: PageOrder;
}

/** The keys of {@link PageOptions}: `readPageOptions` refuses any other. */
export const PAGE_OPTION_KEYS = Object.freeze({
  limit: true,
  after: true,
  order: true,
} satisfies OptionKeys<PageOptions>);

/**
 * One page of a listing. Pages continue from a key, not an offset: what is stored after a page
 * was read shows up in later pages of an oldest-first listing, and nothing is returned twice.
 */
export interface Page<Item> {
  /** The page's items, in the order asked for; at most `limit`. */
  items: Item[];
  /**
   * An opaque cursor to pass as `after` for the next page; `undefined` when this page reached the
   * end of the listing as it was when read.
   */
  next?: string;
}
