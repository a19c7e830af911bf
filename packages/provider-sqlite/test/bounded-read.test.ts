import type { Message } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createKyselyProvider, createSqliteProvider } from '../src/index.js';
import { call, result, tempDatabasePath, user } from './helpers.js';

const counter = createHeuristicCounter();

/**
 * A file holding an archived conversation and then a long active one: a system prompt, the first
 * user message, turns with tool calls, a summary far back, a pinned tool result, and a tool call
 * answered across the newest messages. The provider logs every query it sends.
 */
async function longConversation() {
  const filename = tempDatabasePath();
  const queries: CompiledQuery[] = [];
  const db = new Kysely<unknown>({
    dialect: new SqliteDialect({ database: new Database(filename) }),
    log: (event) => {
      if (event.level === 'query') queries.push(event.query);
    },
  });
  const provider = createKyselyProvider({ db, counter });
  await provider.append('c', [user('archived'), call('old'), result('old')]);
  await provider.archive('c');
  const turns: Message[] = [{ role: 'system', content: 'rules' }, user('first')];
  for (let turn = 0; turn < 200; turn += 1) {
    turns.push(user(`question ${turn}`), call(`t${turn}`), result(`t${turn}`));
    if (turn === 50) turns.push(summary);
    if (turn === 150) turns.push(call('late'), { ...result('late'), meta: { pinned: true } });
  }
  turns.push(call('x', 'y'), result('x'), user('between'), result('y'));
  await provider.append('c', turns);
  return { filename, queries, db, provider };
}

const summary: Message = { role: 'assistant', content: 'so far', meta: { kind: 'summary' } };

describe('a read bounded by maxTokens', () => {
  it('issues only index searches, on active rows, and no sort (EXPLAIN QUERY PLAN)', async () => {
    const { filename, queries, db, provider } = await longConversation();
    const all = await provider.getHistory('c');
    // The newest 101 messages' tokens: a window of more than one page, starting at a tool result.
    const maxTokens = all.slice(-101).reduce((sum, message) => sum + (message.tokens ?? 0), 0);
    queries.length = 0;
    const read = await provider.getHistory('c', { maxTokens });
    await provider.getHistory('c', { maxTokens: 1, limit: 0 });
    const content = (text: string) => all.find((message) => message.content === text);
    const lateResult = all.findIndex((message) => message.meta?.pinned === true);
    expect(read).toEqual([
      content('rules'),
      content('first'),
      content('so far'),
      all[lateResult - 1],
      all[lateResult],
      ...all.slice(-102),
    ]);
    await provider.close();
    await db.destroy();

    const raw = new Database(filename, { readonly: true });
    const plans = queries.map((query) => {
      const plan = raw
        .prepare(`explain query plan ${query.sql}`)
        .all(...(query.parameters as unknown[])) as { detail: string }[];
      return { sql: query.sql, plan: plan.map((step) => step.detail).join('; ') };
    });
    raw.close();
    // The window is placed from the index alone, never from the rows; messages are read by id.
    const windowPages = plans.filter(
      ({ sql }) =>
        sql.startsWith('select "id", "position", "tokens", "unit_start" from "history"') &&
        sql.includes('"archive_id" is null') &&
        !sql.includes('"role" = ?') &&
        sql.includes('limit ?'),
    );
    expect(windowPages.length).toBeGreaterThan(1);
    for (const { sql, plan } of windowPages) {
      expect(plan, sql).toMatch(/^SEARCH history USING COVERING INDEX history_active \(/);
    }
    const byId = plans.filter(({ sql }) => sql.includes('where "id" in ('));
    expect(byId.length).toBeGreaterThan(0);
    for (const { sql, plan } of byId) {
      expect(plan, sql).toBe('SEARCH history USING INTEGER PRIMARY KEY (rowid=?)');
    }
    for (const { sql, plan } of plans.filter((query) => !byId.includes(query))) {
      expect(plan, sql).toMatch(/^SEARCH history USING (INDEX|COVERING INDEX) \w+ \(/);
      expect(plan, sql).not.toMatch(/\bSCAN\b/);
      expect(plan, sql).not.toContain('TEMP B-TREE');
    }
    const usedIndexes = plans.map(({ plan }) =>
      /USING (?:COVERING )?INDEX (\w+) \(([^)]*)\)/.exec(plan)?.slice(1).join(' '),
    );
    expect(usedIndexes).toEqual(
      expect.arrayContaining([
        'history_active conversation_id=? AND archive_id=?',
        'history_active conversation_id=? AND archive_id=? AND position<?',
        // The second read: only the rows from the newest one the first read placed.
        'history_active conversation_id=? AND archive_id=? AND position>?',
        'history_always_kept conversation_id=? AND archive_id=? AND always_kept=? AND position<?',
        'history_always_kept conversation_id=? AND archive_id=? AND always_kept=?',
        'history_active_role conversation_id=? AND archive_id=? AND role=?',
        'sqlite_autoindex_history_1 conversation_id=? AND position>? AND position<?',
      ]),
    );
  });
});

it('parses only the rows it returns: a corrupt row before the window does not fail it', async () => {
  const filename = tempDatabasePath();
  const provider = createSqliteProvider({ filename, counter });
  const stored = await provider.append('c', [
    user('first'),
    user('unreadable'),
    { ...user('pinned'), meta: { pinned: true } },
    user('newest'),
  ]);
  const raw = new Database(filename);
  raw.prepare('update history set content = ? where id = ?').run('{"broken', Number(stored[1]?.id));
  raw.close();
  expect(await provider.getHistory('c', { maxTokens: 1 })).toEqual([
    stored[0],
    stored[2],
    stored[3],
  ]);
  await expect(provider.getHistory('c')).rejects.toMatchObject({ code: 'corrupt_row' });
  await provider.close();
});

describe('the read caches', () => {
  it('give back a kept message as it was stored, even after the caller changed the one it was given', async () => {
    const provider = createSqliteProvider({ filename: tempDatabasePath(), counter });
    await provider.append('c', [user('first'), call('t1'), result('t1')]);
    const read = await provider.getHistory('c', { maxTokens: 1_000 });
    const again = await provider.getHistory('c', { maxTokens: 1_000 });
    // Kept: the same objects come back while nobody changed them.
    expect(again[1]).toBe(read[1]);
    const part = ((read[1] as Message).content as { input?: unknown }[])[0] as { input?: unknown };
    part.input = { path: 'changed by the caller' };
    (read[0] as { meta?: unknown }).meta = { note: 'added' };
    const fresh = createSqliteProvider({ filename: ':memory:', counter });
    await fresh.append('c', [user('first'), call('t1'), result('t1')]);
    const expected = await fresh.getHistory('c', { maxTokens: 1_000 });
    const third = await provider.getHistory('c', { maxTokens: 1_000 });
    expect(third.map(({ id: _id, ...message }) => message)).toEqual(
      expected.map(({ id: _id, ...message }) => message),
    );
    expect(third[2]).toBe(read[2]);
    await provider.close();
    await fresh.close();
  });

  it('keep no message holding bytes: bytes overwritten in place by the caller are read from the row again', async () => {
    const provider = createSqliteProvider({ filename: tempDatabasePath(), counter });
    const image: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image', image: new Uint8Array([1, 2, 3]), mediaType: 'image/png' },
      ],
    };
    await provider.append('c', [image, user('plain')]);
    const read = await provider.getHistory('c', { maxTokens: 1_000 });
    const bytes = ((read[0] as Message).content as { image?: Uint8Array }[])[1]
      ?.image as Uint8Array;
    bytes.fill(0);
    const again = await provider.getHistory('c', { maxTokens: 1_000 });
    expect(again[0]).not.toBe(read[0]);
    const stored = ((again[0] as Message).content as { image?: Uint8Array }[])[1]?.image;
    expect([...(stored ?? [])]).toEqual([1, 2, 3]);
    expect(again[1]).toBe(read[1]);
    await provider.close();
  });

  it('ask, on a read after appends, only for the rows appended since, and keep nothing with messageCacheSize 0', async () => {
    const run = async (messageCacheSize?: number) => {
      const queries: string[] = [];
      const db = new Kysely<unknown>({
        dialect: new SqliteDialect({ database: new Database(tempDatabasePath()) }),
        log: (event) => {
          if (event.level === 'query') queries.push(event.query.sql);
        },
      });
      const provider = createKyselyProvider({
        db,
        counter,
        ...(messageCacheSize === undefined ? {} : { messageCacheSize }),
      });
      for (let turn = 0; turn < 100; turn += 1) {
        await provider.append('c', [
          user(`question ${turn}`),
          call(`t${turn}`),
          result(`t${turn}`),
        ]);
      }
      // Half the history: more than one page of rows.
      const all = await provider.getHistory('c');
      const maxTokens = all.slice(-150).reduce((sum, message) => sum + (message.tokens ?? 0), 0);
      await provider.getHistory('c', { maxTokens });
      await provider.append('c', [user('new'), call('n'), result('n')]);
      queries.length = 0;
      const read = await provider.getHistory('c', { maxTokens });
      await provider.close();
      await db.destroy();
      return { queries, read: read.map(({ id: _id, ...message }) => message) };
    };
    const kept = await run();
    const none = await run(0);
    expect(kept.read).toEqual(none.read);
    const pages = (queries: string[]) =>
      queries.filter((sql) => sql.includes('"position" < ?') && sql.includes('limit ?'));
    expect(pages(kept.queries)).toEqual([]);
    expect(pages(none.queries).length).toBeGreaterThan(0);
    // The messages read: only the three new rows with the cache, every row without.
    const byId = (queries: string[]) => queries.find((sql) => sql.includes('where "id" in ('));
    expect(byId(kept.queries)?.match(/\?/g)).toHaveLength(3);
    expect(byId(none.queries)?.match(/\?/g)?.length).toBe(none.read.length);
  });
});
