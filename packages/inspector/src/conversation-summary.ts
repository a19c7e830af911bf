import { sql } from 'kysely';
import type { InspectedDatabase } from './open-inspected-database.js';

/** One conversation of a database, in figures. */
export interface ConversationSummary {
  /** The conversation's id. */
  id: string;
  /** Builds recorded (`context.compressed` events): one per model call. */
  builds: number;
  /** Messages of its active history. */
  activeMessages: number;
  /** Messages archived (by a reset). */
  archivedMessages: number;
  /** When its first build was recorded (ISO 8601), or `null` without builds. */
  firstBuildAt: string | null;
  /** When its last build was recorded (ISO 8601), or `null` without builds. */
  lastBuildAt: string | null;
}

/**
 * Every conversation of the database that has messages or builds, sorted by id.
 *
 * @param database - a database opened with `openInspectedDatabase`
 * @returns one summary per conversation
 */
export async function listConversations(
  database: InspectedDatabase,
): Promise<ConversationSummary[]> {
  const { db } = database;
  const [builds, messages] = await Promise.all([
    db
      .selectFrom('events')
      .select(({ fn }) => [
        'conversation_id',
        fn.countAll<number | string>().as('builds'),
        fn.min('created_at').as('first'),
        fn.max('created_at').as('last'),
      ])
      .where('type', '=', 'context.compressed')
      .groupBy('conversation_id')
      .execute(),
    db
      .selectFrom('history')
      .select(({ fn }) => [
        'conversation_id',
        fn
          .sum<number | string>(sql<number>`case when archive_id is null then 1 else 0 end`)
          .as('active'),
        fn.countAll<number | string>().as('total'),
      ])
      .groupBy('conversation_id')
      .execute(),
  ]);
  const byId = new Map<string, ConversationSummary>();
  const summaryOf = (id: string): ConversationSummary => {
    let summary = byId.get(id);
    if (summary === undefined) {
      summary = {
        id,
        builds: 0,
        activeMessages: 0,
        archivedMessages: 0,
        firstBuildAt: null,
        lastBuildAt: null,
      };
      byId.set(id, summary);
    }
    return summary;
  };
  for (const row of builds) {
    const summary = summaryOf(row.conversation_id);
    summary.builds = Number(row.builds);
    summary.firstBuildAt = row.first;
    summary.lastBuildAt = row.last;
  }
  for (const row of messages) {
    const summary = summaryOf(row.conversation_id);
    summary.activeMessages = Number(row.active);
    summary.archivedMessages = Number(row.total) - Number(row.active);
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
