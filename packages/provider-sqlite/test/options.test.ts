import { join } from 'node:path';
import { ContextError, type TokenCounter } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteProvider, type SqliteProviderOptions } from '../src/index.js';
import { tempDatabasePath, user } from './helpers.js';

const counter = createHeuristicCounter();

describe('createSqliteProvider options', () => {
  it.each<[string, SqliteProviderOptions]>([
    ['neither filename nor database', { counter }],
    ['both filename and database', { filename: ':memory:', database: new Database(':memory:') }],
    ['an empty filename', { filename: '' }],
    ['a negative busy timeout', { filename: ':memory:', busyTimeoutMs: -1 }],
    ['a fractional busy timeout', { filename: ':memory:', busyTimeoutMs: 1.5 }],
    [
      'a counter without a name',
      { filename: ':memory:', counter: { count: () => 1 } as unknown as TokenCounter },
    ],
    ['retry true', { filename: ':memory:', retry: true as unknown as false }],
    ['zero retry attempts', { filename: ':memory:', retry: { attempts: 0 } }],
    ['a negative retry delay', { filename: ':memory:', retry: { baseDelayMs: -1 } }],
    ['a fractional longest retry wait', { filename: ':memory:', retry: { maxDelayMs: 2.5 } }],
    [
      'a retry time that is not a number',
      { filename: ':memory:', retry: { maxElapsedMs: '10' as unknown as number } },
    ],
    ['a negative message cache size', { filename: ':memory:', messageCacheSize: -1 }],
    ['a fractional message cache size', { filename: ':memory:', messageCacheSize: 2.5 }],
  ])('rejects %s with invalid_option', (_name, options) => {
    let caught: unknown;
    try {
      createSqliteProvider(options);
    } catch (error) {
      caught = error;
    }
    expect(ContextError.isInstance(caught, 'invalid_option')).toBe(true);
    expect((caught as ContextError).source).toBe('provider-sqlite');
  });

  it('names the retry field it rejects, before opening the file', () => {
    const filename = join(tempDatabasePath(), 'no-such-folder', 'history.db');
    expect(() => createSqliteProvider({ filename, retry: { attempts: 0 } })).toThrowError(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('retry.attempts must be a whole number of at least 1'),
        details: { option: 'retry.attempts' },
      }),
    );
  });

  it('names the file it cannot open', () => {
    const filename = join(tempDatabasePath(), 'no-such-folder', 'history.db');
    expect(() => createSqliteProvider({ filename })).toThrowError(
      expect.objectContaining({
        code: 'storage_failed',
        message: expect.stringContaining(filename),
      }),
    );
  });

  it('copies its options: changing them afterwards changes nothing', async () => {
    const options: SqliteProviderOptions = { filename: ':memory:', counter };
    const provider = createSqliteProvider(options);
    options.counter = { name: 'other', count: () => 0 };
    const [stored] = await provider.append('c', user('hello'));
    expect(stored?.tokenCounter).toBe(counter.name);
    await provider.close();
  });

  it('sets WAL mode, full sync and the busy timeout on a file', async () => {
    const database = new Database(tempDatabasePath());
    const provider = createSqliteProvider({ database, counter, busyTimeoutMs: 1234 });
    await provider.append('c', user('hello'));
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('synchronous', { simple: true })).toBe(2);
    expect(database.pragma('busy_timeout', { simple: true })).toBe(1234);
    await provider.close();
    database.close();
  });

  it('leaves a database it was given open, and closes one it opened', async () => {
    const database = new Database(tempDatabasePath());
    const given = createSqliteProvider({ database, counter });
    await given.append('c', user('hello'));
    await given.close();
    expect(database.open).toBe(true);
    expect(database.prepare('select count(*) from history').pluck().get()).toBe(1);
    database.close();
  });

  it('rejects every call after close with code closed, and waits for pending work first', async () => {
    const provider = createSqliteProvider({ filename: tempDatabasePath(), counter });
    const pending = provider.append('c', [user('one'), user('two')]);
    await provider.close();
    await expect(pending).resolves.toHaveLength(2);
    await expect(provider.getHistory('c')).rejects.toMatchObject({ code: 'closed' });
    await expect(provider.append('c', user('late'))).rejects.toMatchObject({ code: 'closed' });
    await expect(provider.listEvents()).rejects.toMatchObject({ code: 'closed' });
  });

  it('closes cleanly when it was never used', async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({ filename, counter });
    await provider.close();
    const reopened = createSqliteProvider({ filename, counter });
    expect(await reopened.getHistory('c')).toEqual([]);
    await reopened.close();
  });

  it('shares its database: other tables can live beside the history', async () => {
    const provider = createSqliteProvider({ filename: ':memory:', counter });
    await provider.append('c', user('hello'));
    const db = provider.db.withTables<{ tasks: { id: number; conversation_id: string } }>();
    await db.schema
      .createTable('tasks')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('conversation_id', 'text')
      .execute();
    await db.insertInto('tasks').values({ id: 1, conversation_id: 'c' }).execute();
    const joined = await db
      .selectFrom('tasks')
      .innerJoin('history', 'history.conversation_id', 'tasks.conversation_id')
      .select(['tasks.id', 'history.role'])
      .execute();
    expect(joined).toEqual([{ id: 1, role: 'user' }]);
    await provider.close();
  });
});
