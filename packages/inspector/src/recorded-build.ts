import { type ContextCompressedEvent, type OptionKeys, optionChecker } from '@ctxkit/context-core';
import { parseBuildPayload } from './build-payload.js';
import { corruptRow, kindOf } from './corrupt-row.js';
import { InspectorError } from './inspector-error.js';
import { SOURCE } from './inspector-source.js';
import type { InspectedDatabase } from './open-inspected-database.js';
import { isRecordedTime } from './recorded-time.js';

/** One build of a conversation as its `context.compressed` event recorded it. */
export interface RecordedBuild {
  /** 1 for the conversation's first build, 2 for the next, … */
  turn: number;
  /** The event's row id. */
  eventId: string;
  /** When it was recorded (ISO 8601). */
  at: string;
  /** The event's payload: counts, tokens, budget, steps, changes, predicted cost. */
  payload: ContextCompressedEvent['payload'];
}

/** Options of {@link readBuilds}. */
export interface ReadBuildsOptions {
  /**
   * Events read per query (the read walks the events by id, one page at a time).
   *
   * @default 500
   */
  pageSize?: number;
  /**
   * Told after every page: how many builds were read so far, of how many.
   *
   * @default `undefined`: no report
   */
  onProgress?: (read: number, total: number) => void;
}

/**
 * Every build of one conversation, oldest first, read page by page through the
 * `events_conversation_type` index.
 *
 * @param database - a database opened with `openInspectedDatabase`
 * @param conversationId - the conversation
 * @param options - the page size and a progress callback
 * @returns the builds, numbered by turn
 * @throws InspectorError `corrupt_event` naming the first event whose payload or time is not
 *   what ctxkit writes; `invalid_argument` for a page size that is not a positive integer
 */
export async function readBuilds(
  database: InspectedDatabase,
  conversationId: string,
  options: ReadBuildsOptions = {},
): Promise<RecordedBuild[]> {
  optionChecker(SOURCE, 'readBuilds').knownKeys(options, OPTION_KEYS);
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new InspectorError({
      code: 'invalid_argument',
      message: `pageSize must be a positive integer, got ${pageSize}.`,
      details: { pageSize },
    });
  }
  const { db } = database;
  const counted = await db
    .selectFrom('events')
    .select(({ fn }) => fn.countAll<number | string>().as('total'))
    .where('conversation_id', '=', conversationId)
    .where('type', '=', 'context.compressed')
    .executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  const builds: RecordedBuild[] = [];
  let after: number | string | undefined;
  for (;;) {
    let query = db
      .selectFrom('events')
      .select(['id', 'payload', 'created_at'])
      .where('conversation_id', '=', conversationId)
      .where('type', '=', 'context.compressed');
    if (after !== undefined) query = query.where('id', '>', after);
    const rows = await query.orderBy('id').limit(pageSize).execute();
    for (const row of rows) {
      const eventId = String(row.id);
      if (!isRecordedTime(row.created_at)) {
        throw corruptRow({
          table: 'events',
          rowId: eventId,
          conversationId,
          problem: `its created_at is ${kindOf(row.created_at)}, not an ISO 8601 time`,
        });
      }
      builds.push({
        turn: builds.length + 1,
        eventId,
        at: row.created_at,
        payload: parseBuildPayload(row.payload, eventId, conversationId),
      });
    }
    options.onProgress?.(builds.length, Math.max(total, builds.length));
    if (rows.length < pageSize) return builds;
    after = rows[rows.length - 1]?.id;
  }
}

// --- internal helpers ---

const DEFAULT_PAGE_SIZE = 500;

const OPTION_KEYS = Object.freeze({
  pageSize: true,
  onProgress: true,
} satisfies OptionKeys<ReadBuildsOptions>);
