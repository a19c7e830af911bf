import { createKyselyToolOutputStore, createSqliteProvider } from '@ctxkit/provider-sqlite';
import type { OffloadRecord } from './demo-session.js';

/** What {@link verifyOffloadedOutputs} found. */
export interface OffloadVerification {
  /** Outputs checked. */
  checked: number;
  /** Outputs read back identical to what the tool returned. */
  identical: number;
  /** Refs whose stored text differed or could not be read. */
  failed: string[];
}

/**
 * Reads every offloaded output back from the database file through a fresh connection (so what is
 * checked is what was committed), in the conversation it was stored for, and compares it, byte
 * for byte, with what the tool returned.
 */
export async function verifyOffloadedOutputs(
  databaseFile: string,
  records: readonly OffloadRecord[],
): Promise<OffloadVerification> {
  const provider = createSqliteProvider({ filename: databaseFile });
  try {
    const store = createKyselyToolOutputStore({ db: provider.db });
    const failed: string[] = [];
    for (const record of records) {
      const text = await store.get(record.conversationId, record.ref).then(
        (stored) => stored.text,
        () => undefined,
      );
      if (text !== record.output) failed.push(record.ref);
    }
    return { checked: records.length, identical: records.length - failed.length, failed };
  } finally {
    await provider.close();
  }
}
