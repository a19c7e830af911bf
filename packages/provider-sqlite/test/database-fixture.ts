import { copyFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArchiveInfo, HistoryStore, Message } from '@ctxkit/context-core';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { MIGRATION_TABLE } from '../src/index.js';
import { tempDatabasePath } from './helpers.js';

/** Every row of a database file's tables, by table, with the columns it was read with. */
export type DatabaseRows = Record<string, { columns: string[]; rows: unknown[][] }>;

/** A copy of a database file kept under test/fixtures, to open with the current code. */
export function copyOfFixture(fixture: URL): string {
  const file = tempDatabasePath(basename(fileURLToPath(fixture)));
  copyFileSync(fixture, file);
  return file;
}

/** `messages` without their token counts: a cache the store may recount at will. */
export function withoutCounts(messages: Message[]): Message[] {
  return messages.map(({ tokens: _tokens, tokenCounter: _counter, ...message }) => message);
}

/** Asserts that `store` lists exactly `archives` of the conversation, each with its messages. */
export async function expectArchives(
  store: HistoryStore,
  conversationId: string,
  archives: readonly { info: ArchiveInfo; messages: Message[] }[],
): Promise<void> {
  expect(await store.listArchives(conversationId)).toEqual(archives.map(({ info }) => info));
  for (const { info, messages } of archives) {
    const read = await store.getArchive(conversationId, info.archiveId);
    expect(withoutCounts(read), info.archiveId).toEqual(messages);
  }
}

/** Every row of every table of `file` (SQLite's own included), in rowid order. */
export function databaseRows(file: string): DatabaseRows {
  const raw = new Database(file, { readonly: true });
  try {
    const tables = raw
      .prepare("select name from sqlite_master where type = 'table' order by name")
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((table) => {
        const columns = (raw.prepare(`select * from "${table}" limit 0`).columns() ?? []).map(
          (column) => column.name,
        );
        return [table, { columns, rows: rowsOf(raw, table, columns) }];
      }),
    );
  } finally {
    raw.close();
  }
}

/**
 * Asserts that `file` still holds every row of `before` unchanged, in every table and column it
 * had (newer migrations may add tables and columns); only the migration table may have gained
 * rows after its old ones.
 */
export function expectRowsKept(file: string, before: DatabaseRows): void {
  const raw = new Database(file, { readonly: true });
  try {
    for (const [table, { columns, rows }] of Object.entries(before)) {
      const after = rowsOf(raw, table, columns);
      if (table === MIGRATION_TABLE) expect(after.slice(0, rows.length), table).toEqual(rows);
      else expect(after, table).toEqual(rows);
    }
  } finally {
    raw.close();
  }
}

// --- internal helpers ---

function rowsOf(raw: Database.Database, table: string, columns: string[]): unknown[][] {
  const list = columns.map((column) => `"${column}"`).join(', ');
  return raw.prepare(`select ${list} from "${table}" order by rowid`).raw().all() as unknown[][];
}
