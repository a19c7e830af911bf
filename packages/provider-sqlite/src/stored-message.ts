import {
  ContextError,
  countMessageTokens,
  type Message,
  ROLES,
  type Role,
  rememberTokenCount,
  StorageError,
  type TokenCounter,
  type ValidateMessagesOptions,
  validateMessages,
} from '@ctxkit/context-core';
import { SOURCE } from './provider-source.js';
import { fromStoredContent, toStoredContent } from './stored-content.js';

/** A message ready to be written: its JSON columns, its count, and the copy append returns. */
export interface StoredMessage {
  /** The message's role. */
  role: Role;
  /** `content` as JSON, media data in stored form (see `toStoredContent`). */
  content: string;
  /** `meta` as JSON, or null when absent. */
  meta: string | null;
  /** `providerOptions` as JSON, or null when absent. */
  providerOptions: string | null;
  /** Token count for the provider's counter. */
  tokens: number;
  /** The message as it will read back, without its id. */
  message: Message;
}

/** The columns of a `history` row that make a message. */
export interface HistoryRowColumns {
  /** Row id (a string from PostgreSQL's bigserial). */
  id: number | string;
  /** Stored role, checked on read. */
  role: string;
  /** Content JSON. */
  content: string;
  /** Meta JSON, or null. */
  meta: string | null;
  /** Provider options JSON, or null (always null in rows written before migration 0004). */
  provider_options: string | null;
  /** Cached count. */
  tokens: number;
  /** Name of the counter that made `tokens`. */
  token_counter: string;
}

/**
 * Serializes `messages`, validated by `validateMessages` (which refuses content, meta and
 * providerOptions JSON cannot represent, apart from media data, which `toStoredContent` puts in
 * a form JSON holds), for storage and counts each once with `counter`. The count is made on the
 * message as it reads back from those columns, which is also the copy append returns.
 */
export function toStoredMessages(
  messages: readonly Message[],
  counter: TokenCounter,
): StoredMessage[] {
  return messages.map((message) => {
    const content = JSON.stringify(toStoredContent(message.content));
    const meta = jsonOrNull(message.meta);
    const providerOptions = jsonOrNull(message.providerOptions);
    const copy = messageOf(
      message.role,
      JSON.parse(content),
      parsedOrUndefined(meta),
      parsedOrUndefined(providerOptions),
      (part, problem) => {
        throw new Error(`Stored content of part ${part} does not read back: ${problem}`);
      },
    );
    const tokens = countMessageTokens(copy, counter);
    return { role: message.role, content, meta, providerOptions, tokens, message: copy };
  });
}

/**
 * The messages of `rows` (oldest first), checked: each row's role must be known, its content,
 * meta and provider options must be JSON of the right shape (media data in stored form), and
 * together they must pass `validateMessages`. Throws a ContextError (`corrupt_row`) naming the
 * first bad row's id and what is wrong with it; never returns a partial list. `where` names the
 * rows' origin in the message; `pairsBefore` gives the tool calls and approvals stored before the
 * rows (none unless given), for rows that do not start where their conversation or archive
 * starts.
 */
export function fromHistoryRows(
  rows: readonly HistoryRowColumns[],
  where: string,
  pairsBefore: (messages: readonly Message[]) => ValidateMessagesOptions = () => ({}),
): Message[] {
  const messages = rows.map((row) => messageFromRow(row, where));
  checkHistory(messages, (index) => String(rows[index]?.id), where, pairsBefore);
  return messages;
}

/**
 * The message of one row, its columns parsed, with the count the store made of it at append
 * remembered for the library. Throws a ContextError (`corrupt_row`) naming the row for an
 * unknown role, a column that is not JSON, or media that cannot be read back; the message is not
 * checked against the others yet (see {@link checkHistory}).
 */
export function messageFromRow(row: HistoryRowColumns, where: string): Message {
  if (!ROLES.includes(row.role as Role)) {
    corruptRow(String(row.id), where, `unknown role ${JSON.stringify(row.role)}`);
  }
  const message: Message = {
    id: String(row.id),
    ...messageOf(
      row.role as Role,
      parseColumn(row, 'content', where),
      row.meta === null ? undefined : parseColumn(row, 'meta', where),
      row.provider_options === null ? undefined : parseColumn(row, 'provider_options', where),
      (part, problem) => corruptRow(String(row.id), where, `part ${part}: ${problem}`),
    ),
    tokens: row.tokens,
    tokenCounter: row.token_counter,
  };
  // The count was made by this store at append, from this same JSON: the library may reuse it.
  rememberTokenCount(message, row.token_counter, row.tokens);
  return message;
}

/**
 * Checks messages read from rows, oldest first, with `validateMessages`; a failure becomes a
 * ContextError (`corrupt_row`) naming the row (`rowIdAt(index)`) and what is wrong with it.
 */
export function checkHistory(
  messages: readonly Message[],
  rowIdAt: (index: number) => string,
  where: string,
  pairsBefore: (messages: readonly Message[]) => ValidateMessagesOptions = () => ({}),
): void {
  try {
    validateMessages(messages, { ...pairsBefore(messages), source: SOURCE });
  } catch (error) {
    if (!ContextError.isInstance(error, 'invalid_message')) throw error;
    const index = error.details.index as number;
    const part = error.details.part;
    const problem = error.message.slice(error.message.indexOf(': ') + 2);
    corruptRow(
      rowIdAt(index),
      where,
      `${part === undefined ? '' : `part ${String(part)}: `}${problem}`,
      error,
    );
  }
}

// --- internal helpers ---

/**
 * The message of a role and its parsed columns (`undefined` when absent), with media data turned
 * back from stored form; `fail` names a part whose media cannot be.
 */
function messageOf(
  role: Role,
  content: unknown,
  meta: unknown,
  providerOptions: unknown,
  fail: (part: number, problem: string) => never,
): Message {
  const message: Message = {
    role,
    content: fromStoredContent(content, fail) as Message['content'],
  };
  if (meta !== undefined) message.meta = meta as Message['meta'];
  if (providerOptions !== undefined) {
    message.providerOptions = providerOptions as Message['providerOptions'];
  }
  return message;
}

function jsonOrNull(value: object | undefined): string | null {
  // Validation has made sure that the value is JSON data that reads back as written.
  return value === undefined ? null : JSON.stringify(value);
}

function parsedOrUndefined(json: string | null): unknown {
  return json === null ? undefined : JSON.parse(json);
}

type JsonColumn = 'content' | 'meta' | 'provider_options';

function parseColumn(row: HistoryRowColumns, column: JsonColumn, where: string): unknown {
  try {
    return JSON.parse(row[column] as string);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return corruptRow(String(row.id), where, `${column} is not valid JSON (${detail})`, cause);
  }
}

function corruptRow(rowId: string, where: string, problem: string, cause?: unknown): never {
  throw new StorageError({
    code: 'corrupt_row',
    source: SOURCE,
    message: `History row ${rowId} (${where}) is corrupt: ${problem.replace(/\.$/, '')}.`,
    details: { table: 'history', rowId },
    cause,
  });
}
