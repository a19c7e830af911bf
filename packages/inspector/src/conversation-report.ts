import { type BuildReport, describeBuilds } from './build-report.js';
import { type ConversationSummary, listConversations } from './conversation-summary.js';
import { InspectorError } from './inspector-error.js';
import { readMessageRecords } from './message-records.js';
import type { InspectedDatabase } from './open-inspected-database.js';
import { type ReadBuildsOptions, readBuilds } from './recorded-build.js';

/** One conversation: its figures and every build, message by message. */
export interface ConversationReport {
  /** The conversation's figures. */
  conversation: ConversationSummary;
  /** Its builds, oldest first. */
  builds: BuildReport[];
}

/**
 * Reads one conversation's builds and describes each (see `describeBuilds`), with the role and
 * a preview of every message the builds name.
 *
 * @param database - a database opened with `openInspectedDatabase`
 * @param conversationId - the conversation
 * @param options - the page size and a progress callback of the read
 * @returns the report
 * @throws InspectorError `not_found` when the database holds no such conversation;
 *   `corrupt_event` for a build event that is not what ctxkit writes
 */
export async function readConversationReport(
  database: InspectedDatabase,
  conversationId: string,
  options: ReadBuildsOptions = {},
): Promise<ConversationReport> {
  const conversation = (await listConversations(database)).find(
    (summary) => summary.id === conversationId,
  );
  if (conversation === undefined) {
    throw new InspectorError({
      code: 'not_found',
      message: `${database.target} holds no conversation ${JSON.stringify(conversationId)}.`,
      details: { target: database.target, conversationId },
    });
  }
  const builds = await readBuilds(database, conversationId, options);
  const ids = builds.flatMap((build) =>
    (build.payload.changes ?? []).flatMap((change) => (change.id === undefined ? [] : [change.id])),
  );
  return { conversation, builds: describeBuilds(builds, await readMessageRecords(database, ids)) };
}
