import { setTimeout as sleep } from 'node:timers/promises';
import { ContextError } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { createKyselyProvider } from '../../src/index.js';
import { user } from '../helpers.js';
import { findPostgresBin, startPostgresCluster } from './postgres-cluster.js';

const skipReason = inject('postgresSkipReason');
const WRITERS = 3;
/** Appends each writer must see acknowledged before the kill, and again after the restart. */
const PER_PHASE = 15;

it.skipIf(inject('postgresUrl') === '')(
  `appends survive the server being killed and restarted: every acknowledged one is stored once, and they resume${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  async () => {
    // A server of its own: killing the shared one would break the other test files.
    const cluster = await startPostgresCluster(findPostgresBin() as string);
    const pool = new pg.Pool({ connectionString: cluster.url, max: WRITERS + 1 });
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    const provider = createKyselyProvider({
      db,
      counter: createHeuristicCounter(),
      retry: { attempts: 100, baseDelayMs: 20, maxDelayMs: 250, maxElapsedMs: 60_000 },
    });
    try {
      const acknowledged: string[][] = Array.from({ length: WRITERS }, () => []);
      const refused: { label: string; code: unknown }[] = [];
      let stopping = false;
      const writers = acknowledged.map(async (done, writer) => {
        for (let index = 0; !stopping; index++) {
          const label = `w${writer}:${index}`;
          try {
            await provider.append(`c${writer}`, user(label));
            done.push(label);
          } catch (error) {
            // Allowed only as a typed error; the label is then checked for duplicates all the same.
            refused.push({ label, code: ContextError.isInstance(error) ? error.code : error });
          }
        }
      });
      const everyWriterHas = async (count: (writer: number) => number) => {
        while (acknowledged.some((done, writer) => done.length < count(writer))) {
          if (refused.length > 0) break;
          await sleep(10);
        }
      };

      await everyWriterHas(() => PER_PHASE);
      await cluster.kill();
      const atKill = acknowledged.map((done) => done.length);
      await sleep(200); // the writers meet a server that refuses connections
      await cluster.restart();
      await everyWriterHas((writer) => (atKill[writer] as number) + PER_PHASE);
      stopping = true;
      await Promise.all(writers);

      expect(refused).toEqual([]);
      for (let writer = 0; writer < WRITERS; writer++) {
        const stored = (await provider.getHistory(`c${writer}`)).map((message) =>
          String(message.content),
        );
        expect(new Set(stored).size).toBe(stored.length);
        // Appends run one after another per writer, so the conversation is exactly its
        // acknowledged appends, in order: none lost, none twice, none unacknowledged.
        expect(stored).toEqual(acknowledged[writer]);
        expect(stored.length).toBeGreaterThanOrEqual((atKill[writer] as number) + PER_PHASE);
      }
    } finally {
      await provider.close();
      await db.destroy();
      cluster.stop();
    }
  },
);
