import { testEventStore, testHistoryStore } from '@ctxkit/context-core/testing';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createKyselyProvider, type KyselyProvider } from '../../src/index.js';
import { expectWholeBatches, labelledBatch } from '../batch-check.js';
import { testBoundedReadMigration } from '../bounded-read-migration-suite.js';
import { testLastPromptStorage } from '../last-prompt-suite.js';
import { testMessageModelStorage } from '../message-model-suite.js';
import { testTransactions, transactionCounter } from '../transaction-suite.js';

const url = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');
const counter = transactionCounter;

describe.skipIf(url === '')(`PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  const admin = url === '' ? undefined : new pg.Pool({ connectionString: url, max: 2 });
  const schemas = new WeakMap<KyselyProvider, string>();
  const databases = new WeakMap<KyselyProvider, Kysely<unknown>>();
  let created = 0;

  /** A provider on its own new schema, through its own pool: an empty store. */
  const open = async (schema?: string): Promise<KyselyProvider> => {
    const name = schema ?? `conformance_${process.pid}_${created++}`;
    if (schema === undefined) await admin?.query(`create schema ${name}`);
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: url, options: `-c search_path=${name}`, max: 4 }),
      }),
    });
    const provider = createKyselyProvider({ db, counter });
    schemas.set(provider, name);
    databases.set(provider, db);
    return provider;
  };
  const close = async (provider: KyselyProvider) => {
    await provider.close();
    await databases.get(provider)?.destroy();
  };

  afterAll(async () => {
    await admin?.end();
  });

  testHistoryStore({
    name: 'createKyselyProvider({ db }) on PostgreSQL',
    counter,
    create: () => open(),
    reopen: async (provider) => {
      await close(provider);
      return open(schemas.get(provider));
    },
    destroy: close,
  });

  testEventStore({
    name: 'createKyselyProvider({ db }) on PostgreSQL',
    create: () => open(),
    destroy: close,
  });

  testTransactions({
    name: 'createKyselyProvider({ db }) on PostgreSQL',
    open: () => open(),
    close,
  });

  testMessageModelStorage({
    name: 'createKyselyProvider({ db }) on PostgreSQL',
    open: () => open(),
    close,
  });

  testBoundedReadMigration({
    name: 'createKyselyProvider({ db }) on PostgreSQL',
    open: () => open(),
    reopen: async (provider) => {
      await close(provider);
      return open(schemas.get(provider));
    },
    close,
  });

  testLastPromptStorage({
    name: 'createKyselyProvider({ db }) on PostgreSQL',
    open: () => open(),
    reopen: async (provider) => {
      await close(provider);
      return open(schemas.get(provider));
    },
    close,
  });

  it('never loses or interleaves batches appended through several pools at once', async () => {
    const first = await open();
    const schema = schemas.get(first) as string;
    const writers = [first, ...(await Promise.all([1, 2, 3].map(() => open(schema))))];
    await Promise.all(
      writers.map(async (writer, index) => {
        for (let batch = 0; batch < 15; batch++) {
          await writer.append(
            'shared',
            labelledBatch(`w${index}`, batch, 1 + ((batch * 7 + index) % 9)),
          );
        }
      }),
    );
    const history = await first.getHistory('shared');
    expectWholeBatches(history, writers.length * 15);
    const positions = await first.db
      .selectFrom('history')
      .select('position')
      .where('conversation_id', '=', 'shared')
      .orderBy('position')
      .execute();
    expect(positions.map((row) => row.position)).toEqual(positions.map((_, index) => index));
    for (const writer of writers) await close(writer);
  });

  it('migrates once: a second provider on the same schema finds it up to date', async () => {
    const provider = await open();
    await provider.append('c', { role: 'user', content: 'kept' });
    const again = await open(schemas.get(provider));
    expect((await again.getHistory('c')).map((message) => message.content)).toEqual(['kept']);
    const migrations = await again.db
      .withTables<{ ctxkit_migration: { name: string } }>()
      .selectFrom('ctxkit_migration')
      .select('name')
      .execute();
    expect(migrations.map((row) => row.name)).toEqual([
      '0001_history_and_events',
      '0002_tool_outputs',
      '0003_summaries',
      '0004_message_provider_options',
      '0005_last_prompts',
      '0006_bounded_reads',
      '0007_events_conversation_type',
      '0008_history_active_tokens',
    ]);
    await close(provider);
    await close(again);
  });
});
