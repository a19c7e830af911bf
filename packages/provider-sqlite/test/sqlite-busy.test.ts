import { setTimeout as sleep } from 'node:timers/promises';
import { ContextError } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createKyselyProvider, createSqliteProvider, type KyselyProvider } from '../src/index.js';
import { tempDatabasePath, user } from './helpers.js';

const counter = createHeuristicCounter();

/** Another connection to `filename` holding SQLite's write lock until `release()`. */
function holdWriteLock(filename: string): { release(): void } {
  const holder = new Database(filename);
  holder.exec('begin immediate');
  return {
    release() {
      holder.exec('commit');
      holder.close();
    },
  };
}

const contents = async (provider: KyselyProvider, conversationId: string) =>
  (await provider.getHistory(conversationId)).map((message) => message.content);

describe('createSqliteProvider: another connection holding the write lock', () => {
  it('runs an append again after SQLITE_BUSY until the lock is released, and stores it once', async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({
      filename,
      counter,
      busyTimeoutMs: 20,
      retry: { attempts: 1_000, baseDelayMs: 5, maxDelayMs: 20, maxElapsedMs: 60_000 },
    });
    await provider.append('c', user('before'));
    const lock = holdWriteLock(filename);
    let settled = false;
    const appended = provider.append('c', user('during')).finally(() => {
      settled = true;
    });
    // Fifteen busy timeouts: with one attempt the append would have failed long before.
    await sleep(300);
    expect(settled).toBe(false);
    lock.release();
    const [stored] = await appended;
    expect(stored?.content).toBe('during');
    expect(await contents(provider, 'c')).toEqual(['before', 'during']);
    await provider.close();
  });

  it('fails with storage_unavailable, storing nothing, when the lock outlasts the retries', async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({
      filename,
      counter,
      busyTimeoutMs: 10,
      retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 5 },
    });
    await provider.append('c', user('before'));
    const lock = holdWriteLock(filename);
    const failed = await provider.append('c', user('during')).catch((error: unknown) => error);
    lock.release();
    expect(ContextError.isInstance(failed, 'storage_unavailable')).toBe(true);
    expect((failed as ContextError).details).toMatchObject({
      operation: 'append to conversation "c"',
      failure: 'busy',
      attempts: 3,
    });
    expect((failed as ContextError).message).toContain('after 3 attempts');
    expect(((failed as Error).cause as { code?: string }).code).toBe('SQLITE_BUSY');
    expect(await contents(provider, 'c')).toEqual(['before']);
    await provider.close();
  });

  it('tries the BEGIN IMMEDIATE of a transaction again until the lock is released', async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({
      filename,
      counter,
      busyTimeoutMs: 10,
      retry: { attempts: 1_000, baseDelayMs: 5, maxDelayMs: 20, maxElapsedMs: 60_000 },
    });
    await provider.append('c', user('before'));
    const lock = holdWriteLock(filename);
    let runs = 0;
    let settled = false;
    const done = provider
      .transaction(async ({ append }) => {
        runs++;
        await append('c', user('in a transaction'));
      })
      .finally(() => {
        settled = true;
      });
    await sleep(300);
    expect(settled).toBe(false);
    lock.release();
    await done;
    expect(runs).toBe(1);
    expect(await contents(provider, 'c')).toEqual(['before', 'in a transaction']);
    await provider.close();
  });
});

describe('createKyselyProvider: fault options', () => {
  const sqliteDb = () =>
    new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

  it('refuses statementTimeoutMs on SQLite, which has no statement timeout', async () => {
    const db = sqliteDb();
    expect(() => createKyselyProvider({ db, counter, statementTimeoutMs: 1_000 })).toThrowError(
      expect.objectContaining({
        code: 'invalid_option',
        details: { option: 'statementTimeoutMs' },
      }),
    );
    await db.destroy();
  });

  it.each([0, -5, 1.5, Number.NaN])('refuses a statementTimeoutMs of %s', async (value) => {
    // A pool connects on first use only: nothing here reaches a server.
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
    let caught: unknown;
    try {
      createKyselyProvider({ db, counter, statementTimeoutMs: value });
    } catch (error) {
      caught = error;
    }
    expect(ContextError.isInstance(caught, 'invalid_option')).toBe(true);
    expect((caught as ContextError).details).toEqual({ option: 'statementTimeoutMs' });
    await db.destroy();
  });
});
