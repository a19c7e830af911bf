import type { Message } from './message.js';
import type { OptionKeys } from './option-checker.js';
import type { Page, PageOptions } from './page.js';

/** Options of {@link ContextProvider.getHistory}. */
export interface GetHistoryOptions {
  /**
   * Keep only the newest `limit` messages, reaching further back only as far as needed so that
   * no tool result is returned without its call.
   *
   * @default `undefined`: the whole history
   */
  limit?: number;
  /**
   * Load only what a model window of about this many tokens can use, so that a read costs time
   * in proportion to the window rather than to the stored history. The result is:
   *
   * - the window: the newest messages whose stored counts (`tokens`, as counted at append) add
   *   up to at least `maxTokens` (all of them when the history holds fewer), reaching further
   *   back only as far as the oldest of them needs for its unit (a tool result with its call, an
   *   approval response with its request: the same cut as `limit`);
   * - plus, from before the window, every protected message (`isProtected`: role `system` or
   *   `meta.pinned === true`), every summary (`isSummary`: `meta.kind === 'summary'`), every
   *   message that answers one of these (or a message between its partner and itself that is
   *   one of these: the results of a pinned call), and the first user message, each with the
   *   earlier messages it needs in the same way (a pinned tool result with its call). So a pinned
   *   message comes with its whole unit.
   *
   * All of it oldest first, in stored order. So the stored counts of what is returned add up to
   * fewer than `maxTokens` only when the whole history was returned: a caller can tell from the
   * sum whether more exists (unless `limit` stopped the window first). With `limit` too, the
   * window stops at whichever bound it reaches first, and the messages from before it are
   * still added. Must be a whole number from 1 to `Number.MAX_SAFE_INTEGER`; anything else is
   * an `invalid_option` error.
   *
   * @default `undefined`: no token bound
   */
  maxTokens?: number;
}

/** The keys of {@link GetHistoryOptions}, for stores to refuse any other (`optionChecker().knownKeys`). */
export const GET_HISTORY_OPTION_KEYS = Object.freeze({
  limit: true,
  maxTokens: true,
} satisfies OptionKeys<GetHistoryOptions>);

/** Loads a conversation's history. */
export interface ContextProvider {
  /**
   * The active (not archived) messages of a conversation, oldest first, with ids and cached
   * token counts. An unknown conversation has an empty history. Returned messages are the
   * caller's: changing them changes nothing stored.
   *
   * @param conversationId - the conversation
   * @param options - how much of the history to load
   * @returns the messages, oldest first
   */
  getHistory(conversationId: string, options?: GetHistoryOptions): Promise<Message[]>;
}

/** An archive made by {@link HistoryStore.archive}. */
export interface ArchiveInfo {
  /** Identifier of the archive. */
  archiveId: string;
  /** Number of messages it holds. */
  count: number;
  /** When it was made, as an ISO 8601 string. */
  archivedAt: string;
}

/** A {@link ContextProvider} that also stores messages. */
export interface HistoryStore extends ContextProvider {
  /**
   * Validates and appends messages, all or none: a tool result may answer a call stored
   * earlier. Returns the stored copies with `id`, `tokens` and `tokenCounter` set. Throws a
   * `ContextError` (`invalid_message`) before writing anything when a message is invalid.
   * The input is never mutated.
   *
   * @param conversationId - the conversation to append to
   * @param messages - one message or several, oldest first
   * @returns the stored copies, in order
   * @throws InvalidMessageError (`invalid_message`) before writing anything when a message is
   *   invalid
   */
  append(conversationId: string, messages: Message | readonly Message[]): Promise<Message[]>;
  /**
   * Moves every active message of the conversation into a new archive, so that the conversation
   * starts afresh (an automatic reset of a conversation grown too long uses it). Nothing is
   * deleted: the archive stays readable through {@link getArchive}.
   *
   * @param conversationId - the conversation
   * @returns the new archive's id and how many messages it holds
   */
  archive(conversationId: string): Promise<{ archiveId: string; count: number }>;
  /**
   * The conversation's non-empty archives, oldest first. Reads every one: to show archives, read
   * them a page at a time with {@link HistoryStore.listArchivesPage}.
   *
   * @param conversationId - the conversation
   * @returns the archives
   */
  listArchives(conversationId: string): Promise<ArchiveInfo[]>;
  /**
   * The messages of one archive, oldest first; empty for an unknown archive id. Reads every one:
   * to show an archive, read it a page at a time with {@link HistoryStore.getArchivePage}.
   *
   * @param conversationId - the conversation
   * @param archiveId - the archive, as {@link HistoryStore.archive} returned it
   * @returns the archived messages
   */
  getArchive(conversationId: string, archiveId: string): Promise<Message[]>;
  /**
   * One page of the archives {@link HistoryStore.listArchives} lists (oldest first unless `order`
   * says otherwise). A page costs a few index lookups per archive it holds, however many
   * archives and messages are stored. Pass the page's `next` as `after` for the next page.
   *
   * @param conversationId - the conversation
   * @param options - the page size, the cursor and the order
   * @returns the page of archives
   * @throws InvalidOptionError (`invalid_option`) for a `limit` outside 1 to `MAX_PAGE_LIMIT` or
   *   an unknown `order`; (`invalid_cursor`) for an `after` that is not the `next` of a page of
   *   the same listing
   */
  listArchivesPage(conversationId: string, options?: PageOptions): Promise<Page<ArchiveInfo>>;
  /**
   * One page of the messages {@link HistoryStore.getArchive} returns (oldest first unless
   * `order` says otherwise); an empty page for an unknown archive id. A page may hold a tool
   * result whose call is on another page. Pass the page's `next` as `after` for the next page.
   *
   * @param conversationId - the conversation
   * @param archiveId - the archive, as {@link HistoryStore.archive} returned it
   * @param options - the page size, the cursor and the order
   * @returns the page of archived messages
   * @throws InvalidOptionError (`invalid_option`) for a `limit` outside 1 to `MAX_PAGE_LIMIT` or
   *   an unknown `order`; (`invalid_cursor`) for an `after` that is not the `next` of a page of
   *   the same listing
   */
  getArchivePage(
    conversationId: string,
    archiveId: string,
    options?: PageOptions,
  ): Promise<Page<Message>>;
}
