import { createContextManager } from '@ctxkit/context-manager';
import { createKyselyProvider } from '@ctxkit/provider-sqlite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ConversationReport, openInspectedDatabase } from '../src/index.js';
import { runCtxkit } from './cli-process.js';

const url = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');

describe.skipIf(url === '')(`on PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  const admin = url === '' ? undefined : new pg.Pool({ connectionString: url, max: 1 });
  const databaseUrl = (name: string) => {
    const parsed = new URL(url);
    parsed.pathname = `/${name}`;
    return parsed.toString();
  };
  const ctxkitDatabase = `inspector_${process.pid}`;
  const emptyDatabase = `inspector_empty_${process.pid}`;
  const target = databaseUrl(ctxkitDatabase);

  /** Every row of the provider's tables, as one text: what must not change. */
  const contents = async () => {
    const pool = new pg.Pool({ connectionString: target, max: 1 });
    const { rows } = await pool.query(
      `select (select coalesce(string_agg(h::text, '|' order by id), '') from history h) ||
              (select coalesce(string_agg(e::text, '|' order by id), '') from events e) ||
              (select coalesce(string_agg(m::text, '|' order by name), '') from ctxkit_migration m) as all`,
    );
    await pool.end();
    return String(rows[0]?.all);
  };

  beforeAll(async () => {
    await admin?.query(`create database ${ctxkitDatabase}`);
    await admin?.query(`create database ${emptyDatabase}`);
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target, max: 2 }) }),
    });
    const provider = createKyselyProvider({ db });
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 400, events: provider });
    for (let turn = 0; turn < 4; turn++) {
      await provider.append('pg-1', [
        { role: 'user', content: `Question ${turn}: ${'why '.repeat(60)}` },
        { role: 'assistant', content: `Answer ${turn}: ${'because '.repeat(60)}` },
      ]);
      await manager.fit(await provider.getHistory('pg-1'), { conversationId: 'pg-1' });
    }
    await provider.close();
    await db.destroy();
  });

  afterAll(async () => {
    await admin?.query(`drop database if exists ${ctxkitDatabase} with (force)`);
    await admin?.query(`drop database if exists ${emptyDatabase} with (force)`);
    await admin?.end();
  });

  it('inspect --json lists every build with its messages, and leaves every row as it was', async () => {
    const before = await contents();
    const { status, stdout, stderr } = runCtxkit(['inspect', target, '--json']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const { conversations } = JSON.parse(stdout) as { conversations: ConversationReport[] };
    const builds = conversations[0]?.builds ?? [];
    expect(builds).toHaveLength(4);
    expect(builds.map((build) => build.messages.length)).toEqual(
      builds.map((build) => build.originalCount),
    );
    expect(builds.some((build) => build.counts.dropped > 0)).toBe(true);
    expect(await contents()).toBe(before);
  });

  it('reads in a session whose transactions cannot write', async () => {
    const database = await openInspectedDatabase(target);
    try {
      await expect(
        sql`insert into events (conversation_id, type, payload, created_at) values ('x', 'y', '{}', 'z')`.execute(
          database.db,
        ),
      ).rejects.toThrow(/read-only transaction/);
    } finally {
      await database.close();
    }
  });

  it('a database without ctxkit tables, and a server that does not answer: one line, exit 2', () => {
    const foreign = runCtxkit(['inspect', databaseUrl(emptyDatabase)]);
    expect(foreign.stderr).toMatch(
      /^ctxkit: .* is not a ctxkit database: it has no history, events/,
    );
    expect(foreign.status).toBe(2);
    const closed = new URL(url);
    closed.port = '1';
    const down = runCtxkit(['inspect', closed.toString()]);
    expect(down.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(down.stderr).toMatch(/^ctxkit: .*Cannot connect to postgres/);
    expect(down.status).toBe(2);
  });
});
