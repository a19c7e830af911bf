import { InspectorError } from './inspector-error.js';

/** A stored row that is not what ctxkit writes: its table, its id, and what is wrong with it. */
export interface CorruptRow {
  /** `events` (a build) or `history` (a message). */
  table: 'events' | 'history';
  /** The row's id. */
  rowId: string;
  /** Its conversation, when it can be read. */
  conversationId?: string;
  /** What is wrong, such as `changes[0].tokensAfter is null, not a number`. */
  problem: string;
}

/**
 * The error for a row that is not what ctxkit writes (a hand edit, another program's row): one
 * line naming the table and the row, what is wrong and the fix; the `ctxkit` command prints it
 * and exits with code 2.
 *
 * @param row - the row and its problem
 * @returns `corrupt_event` for a row of `events`, `corrupt_message` for one of `history`
 */
export function corruptRow(row: CorruptRow): InspectorError {
  const conversation =
    row.conversationId === undefined ? '' : ` (conversation ${JSON.stringify(row.conversationId)})`;
  const what = row.table === 'events' ? 'a build ctxkit recorded' : 'a message ctxkit stored';
  return new InspectorError({
    code: row.table === 'events' ? 'corrupt_event' : 'corrupt_message',
    message: `Row ${row.rowId} of table ${row.table}${conversation} is not ${what}: ${row.problem}; repair or delete that row.`,
    details: { ...row },
  });
}

/**
 * A value named for an error message: `null`, `a blob`, `a string ("abc")`, `a number (-5)`.
 *
 * @param value - a value read from a row or parsed from its JSON
 * @returns its kind, and the value itself when it is short
 */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return 'a blob';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length <= 24 ? `a string (${JSON.stringify(value)})` : 'a string';
    case 'number':
    case 'bigint':
      return `a number (${String(value)})`;
    case 'boolean':
      return `${String(value)}`;
    default:
      return `an ${typeof value}`;
  }
}
