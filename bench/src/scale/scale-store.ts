import {
  createKyselyProvider,
  createSqliteProvider,
  type KyselyProvider,
} from '@ctxkit/provider-sqlite';
import { createTiktokenCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { FloorPageReader, FloorRow } from './floor.js';
import { SCALE_CONVERSATION } from './scale-cache.js';
import type { ScaleTarget } from './scale-target.js';

/** The counter of every store and pipeline of the scale bench, as the README's quick start. */
export const SCALE_COUNTER = createTiktokenCounter('o200k_base');

/** A seeded (or to be seeded) database, open through the provider and through its driver. */
export interface ScaleStore {
  /** The provider, as an application opens it. */
  provider: KyselyProvider;
  /** The floor's plain keyset query on the same database, through the driver alone. */
  readPage: FloorPageReader;
  /** Closes both. */
  close(): Promise<void>;
}

/**
 * Opens `target` with the provider (`createSqliteProvider`, or `createKyselyProvider` on a
 * `PostgresDialect`, as docs/provider-sqlite.md wires them) and a second, plain connection for
 * the floor.
 */
export function openScaleStore(target: ScaleTarget): ScaleStore {
  if (target.backend === 'sqlite') {
    const provider = createSqliteProvider({ filename: target.filename, counter: SCALE_COUNTER });
    // Opened at the first read: the provider creates the tables on its first use.
    let reader: Database.Database | undefined;
    let pages: { newest: Database.Statement; before: Database.Statement } | undefined;
    return {
      provider,
      async readPage(before, limit) {
        if (pages === undefined) {
          reader = new Database(target.filename, { readonly: true });
          pages = {
            newest: reader.prepare(`${FLOOR_SELECT} order by position desc limit ?`),
            before: reader.prepare(
              `${FLOOR_SELECT} and position < ? order by position desc limit ?`,
            ),
          };
        }
        return (
          before === undefined
            ? pages.newest.all(SCALE_CONVERSATION, limit)
            : pages.before.all(SCALE_CONVERSATION, before, limit)
        ) as FloorRow[];
      },
      async close() {
        reader?.close();
        await provider.close();
      },
    };
  }
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target.url }) }),
  });
  const provider = createKyselyProvider({ db, counter: SCALE_COUNTER });
  const reader = new pg.Client({ connectionString: target.url });
  const connected = reader.connect();
  return {
    provider,
    async readPage(before, limit) {
      await connected;
      const query =
        before === undefined
          ? {
              name: 'floor_newest',
              text: `${FLOOR_SELECT_PG} order by position desc limit $2`,
              values: [SCALE_CONVERSATION, limit],
            }
          : {
              name: 'floor_before',
              text: `${FLOOR_SELECT_PG} and position < $2 order by position desc limit $3`,
              values: [SCALE_CONVERSATION, before, limit],
            };
      return (await reader.query<FloorRow>(query)).rows;
    },
    async close() {
      await connected;
      await reader.end();
      await provider.close();
      await db.destroy();
    },
  };
}

// --- internal helpers ---

const FLOOR_COLUMNS = 'select id, position, role, content, meta, tokens from history';
const FLOOR_SELECT = `${FLOOR_COLUMNS} where conversation_id = ? and archive_id is null`;
const FLOOR_SELECT_PG = `${FLOOR_COLUMNS} where conversation_id = $1 and archive_id is null`;
