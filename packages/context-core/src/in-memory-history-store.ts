import { assertValidMaxTokens } from './assert-valid-max-tokens.js';
import { boundedHistory } from './bounded-history.js';
import {
  type ArchiveInfo,
  GET_HISTORY_OPTION_KEYS,
  type GetHistoryOptions,
  type HistoryStore,
} from './context-provider.js';
import { assertConversationId } from './conversation-id.js';
import { copyData } from './copy-data.js';
import { withTokenCount } from './count-tokens.js';
import { assertValidLimit, keepNewest } from './keep-newest.js';
import type { Message } from './message.js';
import { type OptionKeys, optionChecker } from './option-checker.js';
import type { Page, PageOptions } from './page.js';
import { type PageRequest, pageOf, readPageOptions } from './page-cursor.js';
import { rememberTokenCount } from './token-count-cache.js';
import type { TokenCounter } from './token-counter.js';
import { validateMessages } from './validate-messages.js';

/** Options of {@link createInMemoryHistoryStore}. */
export interface InMemoryHistoryStoreOptions {
  /**
   * Counter for the counts cached at append: the one the pipeline counts with. Required: core
   * holds no tokenizer (take one from `@ctxkit/token-counters`, or wrap your own).
   */
  counter: TokenCounter;
}

/**
 * A {@link HistoryStore} in process memory: for tests, demos and short-lived agents. It keeps
 * the same promises as the SQLite store (atomic appends, validation against stored calls,
 * archives that delete nothing) and passes the same conformance suite.
 *
 * @param options - the counter the store caches counts with
 * @returns an empty store
 * @throws InvalidOptionError (`invalid_option`) when `counter` is missing or is not a
 *   {@link TokenCounter} (a non-empty `name` and a `count` method).
 */
export function createInMemoryHistoryStore(options: InMemoryHistoryStoreOptions): HistoryStore {
  optionChecker(SOURCE, 'createInMemoryHistoryStore').knownKeys(options, OPTION_KEYS);
  const counter = checkedCounter(options?.counter);
  const conversations = new Map<string, Conversation>();
  let nextId = 1;

  const conversation = (conversationId: string, method: string): Conversation => {
    assertConversationId(conversationId, SOURCE, method);
    let found = conversations.get(conversationId);
    if (!found) {
      found = { active: [], archives: [] };
      conversations.set(conversationId, found);
    }
    return found;
  };

  return Object.freeze({
    async append(conversationId: string, input: Message | readonly Message[]): Promise<Message[]> {
      const target = conversation(conversationId, 'append');
      const batch = Array.isArray(input) ? input : [input as Message];
      const calls: string[] = [];
      const answered: string[] = [];
      const approvals: string[] = [];
      const approved: string[] = [];
      for (const stored of target.active) {
        if (typeof stored.content === 'string') continue;
        for (const part of stored.content) {
          if (part.type === 'tool-call') calls.push(part.toolCallId);
          else if (part.type === 'tool-result') answered.push(part.toolCallId);
          else if (part.type === 'tool-approval-request') approvals.push(part.approvalId);
          else if (part.type === 'tool-approval-response') approved.push(part.approvalId);
        }
      }
      validateMessages(batch, {
        knownToolCallIds: calls,
        answeredToolCallIds: answered,
        knownApprovalIds: approvals,
        answeredApprovalIds: approved,
      });
      const stored = batch.map((message: Message) => {
        const { tokens: _tokens, tokenCounter: _counter, ...rest } = copyData(message);
        return withTokenCount({ ...rest, id: `m${nextId++}` }, counter);
      });
      target.active.push(...stored);
      return copiesWithCounts(stored);
    },
    async getHistory(
      conversationId: string,
      historyOptions: GetHistoryOptions = {},
    ): Promise<Message[]> {
      optionChecker(SOURCE, 'getHistory').knownKeys(historyOptions, GET_HISTORY_OPTION_KEYS);
      const active = conversation(conversationId, 'getHistory').active;
      const { limit, maxTokens } = historyOptions;
      if (limit !== undefined) assertValidLimit(limit);
      if (maxTokens === undefined) return copiesWithCounts(keepNewest(active, limit));
      assertValidMaxTokens(maxTokens);
      return copiesWithCounts(boundedHistory(active, maxTokens, limit));
    },
    async archive(conversationId: string): Promise<{ archiveId: string; count: number }> {
      const target = conversation(conversationId, 'archive');
      const archiveId = crypto.randomUUID();
      const count = target.active.length;
      if (count > 0) {
        target.archives.push({
          archiveId,
          count,
          archivedAt: new Date().toISOString(),
          messages: target.active,
        });
        target.active = [];
      }
      return { archiveId, count };
    },
    async listArchives(conversationId: string): Promise<ArchiveInfo[]> {
      return conversation(conversationId, 'listArchives').archives.map(
        ({ archiveId, count, archivedAt }) => ({
          archiveId,
          count,
          archivedAt,
        }),
      );
    },
    async getArchive(conversationId: string, archiveId: string): Promise<Message[]> {
      const found = conversation(conversationId, 'getArchive').archives.find(
        (archive) => archive.archiveId === archiveId,
      );
      return copiesWithCounts(found?.messages ?? []);
    },
    async listArchivesPage(
      conversationId: string,
      pageOptions?: PageOptions,
    ): Promise<Page<ArchiveInfo>> {
      const listing = { method: 'listArchivesPage', scope: [conversationId] };
      const request = readPageOptions(pageOptions, listing);
      const { archives } = conversation(conversationId, 'listArchivesPage');
      const page = pageOf(keysOfPage(archives.length, request), request, listing, (key) => key);
      return {
        ...page,
        items: page.items.map((key) => {
          const { archiveId, count, archivedAt } = archives[key - 1] as StoredArchive;
          return { archiveId, count, archivedAt };
        }),
      };
    },
    async getArchivePage(
      conversationId: string,
      archiveId: string,
      pageOptions?: PageOptions,
    ): Promise<Page<Message>> {
      const listing = { method: 'getArchivePage', scope: [conversationId, archiveId] };
      const request = readPageOptions(pageOptions, listing);
      const messages =
        conversation(conversationId, 'getArchivePage').archives.find(
          (archive) => archive.archiveId === archiveId,
        )?.messages ?? [];
      const page = pageOf(keysOfPage(messages.length, request), request, listing, (key) => key);
      return {
        ...page,
        items: copiesWithCounts(page.items.map((key) => messages[key - 1] as Message)),
      };
    },
  } satisfies HistoryStore);
}

// --- internal helpers ---

const SOURCE = 'context-core';

const OPTION_KEYS = Object.freeze({
  counter: true,
} satisfies OptionKeys<InMemoryHistoryStoreOptions>);

interface Conversation {
  active: Message[];
  archives: StoredArchive[];
}

type StoredArchive = ArchiveInfo & { messages: Message[] };

/**
 * The keys (index plus one) of the items of a page of a list that only grows at its end: up to
 * `limit + 1` of them, from the request's cursor on, in its order.
 */
function keysOfPage(length: number, request: PageRequest): number[] {
  const keys: number[] = [];
  if (request.order === 'oldest-first') {
    for (let key = (request.after ?? 0) + 1; key <= length && keys.length <= request.limit; key++) {
      keys.push(key);
    }
  } else {
    const first = Math.min(request.after ?? length + 1, length + 1) - 1;
    for (let key = first; key >= 1 && keys.length <= request.limit; key--) keys.push(key);
  }
  return keys;
}

/**
 * Deep copies of stored messages for the caller, with the counts this store made at append known
 * to the library's count cache, as a persistent store does when it reads its rows back.
 */
function copiesWithCounts(messages: readonly Message[]): Message[] {
  const copies = copyData(messages) as Message[];
  for (const copy of copies) {
    if (copy.tokenCounter !== undefined && copy.tokens !== undefined) {
      rememberTokenCount(copy, copy.tokenCounter, copy.tokens);
    }
  }
  return copies;
}

/** `value` when it is a {@link TokenCounter}; otherwise the `invalid_option` error naming it. */
function checkedCounter(value: unknown): TokenCounter {
  const candidate = value as Partial<TokenCounter> | null | undefined;
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.name === 'string' &&
    candidate.name.trim() !== '' &&
    typeof candidate.count === 'function'
  ) {
    return candidate as TokenCounter;
  }
  throw optionChecker(SOURCE, 'createInMemoryHistoryStore').invalid(
    'counter',
    value,
    'a TokenCounter (a non-empty name and a count method)',
  );
}
