import type { Message } from '@ctxkit/context-core';

/** A stored row as the floor reads it: the message's columns, JSON still as text. */
export interface FloorRow {
  id: number | string;
  position: number | string;
  role: string;
  content: string;
  meta: string | null;
  tokens: number | string;
}

/**
 * Reads the newest `limit` active rows of the seeded conversation below `before` (a position;
 * `undefined` for the newest), newest first: one plain keyset query.
 */
export type FloorPageReader = (
  before: number | undefined,
  limit: number,
) => Promise<readonly FloorRow[]>;

/** What the floor read: the messages, newest first, and their stored tokens. */
export interface FloorRead {
  /** The messages read, newest first, with their row ids. */
  messages: Message[];
  /** Stored tokens of those messages. */
  tokens: number;
}

/** Rows per keyset page of the floor. */
export const FLOOR_PAGE = 100;

/**
 * The least a build must read: rows newest first, a page at a time, each row's JSON parsed,
 * until their stored token counts cover `tokens` (or the history ends). No tokenizing, no fitting.
 */
export async function readFloor(
  readPage: FloorPageReader,
  tokens: number,
  page: number = FLOOR_PAGE,
): Promise<FloorRead> {
  const messages: Message[] = [];
  let covered = 0;
  let before: number | undefined;
  for (;;) {
    const rows = await readPage(before, page);
    for (const row of rows) {
      const message = {
        id: String(row.id),
        role: row.role,
        content: JSON.parse(row.content),
        tokens: Number(row.tokens),
      } as Message;
      if (row.meta !== null) message.meta = JSON.parse(row.meta);
      messages.push(message);
      covered += Number(row.tokens);
      if (covered >= tokens) return { messages, tokens: covered };
    }
    if (rows.length < page) return { messages, tokens: covered };
    before = Number(rows[rows.length - 1]?.position);
  }
}
