import {
  ContextError,
  countMessageTokens,
  type Message,
  ROLES,
  type Role,
  rememberTokenCount,
  StorageError,
  type TokenCounter,
  validateMessages,
} from '@ctxkit/context-core';
import { SOURCE } from './provider-source.js';

/** A message ready to be written: its JSON columns, its count, and the copy append returns. */
export interface StoredMessage {
  /** The message's role. */
  role: Role;
  /** `content` as JSON. */
  content: string;
  /** `meta` as JSON, or null when absent. */
  meta: string | null;
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
  /** Cached count. */
  tokens: number;
  /** Name of the counter that made `tokens`. */
  token_counter: string;
}

/**
 * Serializes `messages`, validated by `validateMessages` (which refuses content and meta JSON
 * cannot represent), for storage and counts each once with `counter`. The count is made on the
 * JSON round trip of the message, which is exactly what reads back.
 */
export function toStoredMessages(
  messages: readonly Message[],
  counter: TokenCounter,
): StoredMessage[] {
  return messages.map((message) => {
    // Validation has made sure that content and meta are JSON data that reads back as written.
    const content = JSON.stringify(message.content);
    const meta = message.meta === undefined ? null : JSON.stringify(message.meta);
    const copy: Message = { role: message.role, content: JSON.parse(content) };
    if (meta !== null) copy.meta = JSON.parse(meta);
    const tokens = countMessageTokens(copy, counter);
    return { role: message.role, content, meta, tokens, message: copy };
  });
}

/**
 * The messages of `rows` (oldest first), checked: each row's role must be known, its content
 * and meta must be JSON of the right shape, and together they must pass `validateMessages`.
 * Throws a ContextError (`corrupt_row`) naming the first bad row's id and what is wrong with it;
 * never returns a partial list. `where` names the rows' origin in the message.
 */
export function fromHistoryRows(rows: readonly HistoryRowColumns[], where: string): Message[] {
  const messages: Message[] = new Array(rows.length);
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as HistoryRowColumns;
    if (!ROLES.includes(row.role as Role)) {
      corruptRow(String(row.id), where, `unknown role ${JSON.stringify(row.role)}`);
    }
    const message: Message = {
      id: String(row.id),
      role: row.role as Role,
      content: parseColumn(row, 'content', where) as Message['content'],
      tokens: row.tokens,
      tokenCounter: row.token_counter,
    };
    if (row.meta !== null) message.meta = parseColumn(row, 'meta', where) as Message['meta'];
    // The count was made by this store at append, from this same JSON: the library may reuse it.
    rememberTokenCount(message, row.token_counter, row.tokens);
    messages[index] = message;
  }
  try {
    validateMessages(messages, { source: SOURCE });
  } catch (error) {
    if (!ContextError.isInstance(error, 'invalid_message')) throw error;
    const index = error.details.index as number;
    const part = error.details.part;
    const problem = error.message.slice(error.message.indexOf(': ') + 2);
    corruptRow(
      String(rows[index]?.id),
      where,
      `${part === undefined ? '' : `part ${String(part)}: `}${problem}`,
      error,
    );
  }
  return messages;
}

// --- internal helpers ---

function parseColumn(row: HistoryRowColumns, column: 'content' | 'meta', where: string): unknown {
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
