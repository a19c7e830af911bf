import { createInMemoryHistoryStore, type HistoryStore, type Message } from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteProvider } from '../src/index.js';

const counter = createHeuristicCounter();
const provider = createSqliteProvider({ filename: ':memory:', counter });
afterAll(() => provider.close());

/** What happens after a message: the batch goes on, ends, or ends and the conversation is archived. */
const AFTER = ['continue', 'append', 'append+archive'] as const;

describe('the SQLite store behaves like the in-memory reference store', () => {
  it('for any history appended in random batches with archives between, read with any limit or token bound', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory({ maxTurns: 4, maxOutputChars: 300 }),
        fc.array(fc.constantFrom(...AFTER), { minLength: 40, maxLength: 40 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(undefined, { pinned: true }, { kind: 'summary' }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.array(fc.tuple(fc.nat(), fc.option(fc.nat(), { nil: undefined })), {
          minLength: 1,
          maxLength: 4,
        }),
        async (generated, afterEach, limitSeeds, marks, boundSeeds) => {
          const conversationId = `run-${run++}`;
          const reference = createInMemoryHistoryStore({ counter });
          // Some messages pinned or marked as summaries, tool results among them.
          const history = generated.map(({ id: _id, ...message }, index) => {
            const mark = marks[index % marks.length];
            return mark ? { ...message, meta: { ...message.meta, ...mark } } : message;
          });
          let batch: Message[] = [];
          for (const [index, message] of history.entries()) {
            batch.push(message);
            const after = afterEach[index % afterEach.length];
            if (after === 'continue' && index < history.length - 1) continue;
            const [ours, theirs] = await Promise.all(
              [provider, reference].map((store) => outcome(store.append(conversationId, batch))),
            );
            expect(ours).toEqual(theirs);
            batch = [];
            if (after === 'append+archive') {
              const [archived, referenceArchived] = await Promise.all([
                provider.archive(conversationId),
                reference.archive(conversationId),
              ]);
              expect(archived.count).toBe(referenceArchived.count);
            }
          }
          const all = await provider.getHistory(conversationId);
          expect(withoutIds(all)).toEqual(withoutIds(await reference.getHistory(conversationId)));
          for (const seed of limitSeeds) {
            const limit = seed % (all.length + 2);
            expect(withoutIds(await provider.getHistory(conversationId, { limit }))).toEqual(
              withoutIds(await reference.getHistory(conversationId, { limit })),
            );
          }
          const total = all.reduce((sum, message) => sum + (message.tokens ?? 0), 0);
          for (const [tokenSeed, limitSeed] of boundSeeds) {
            const options = {
              maxTokens: 1 + (tokenSeed % (total + 2)),
              limit: limitSeed === undefined ? undefined : limitSeed % (all.length + 2),
            };
            expect(withoutIds(await provider.getHistory(conversationId, options))).toEqual(
              withoutIds(await reference.getHistory(conversationId, options)),
            );
          }
          const archives = await provider.listArchives(conversationId);
          const referenceArchives = await reference.listArchives(conversationId);
          expect(archives.map((archive) => archive.count)).toEqual(
            referenceArchives.map((archive) => archive.count),
          );
          for (const [index, archive] of archives.entries()) {
            const theirs = referenceArchives[index]?.archiveId as string;
            expect(
              withoutIds(await provider.getArchive(conversationId, archive.archiveId)),
            ).toEqual(withoutIds(await reference.getArchive(conversationId, theirs)));
          }
        },
      ),
      fuzzParameters(100),
    );
  });
});

// --- internal helpers ---

/** The messages an append returned (without ids), or the code of the error it threw. */
async function outcome(append: ReturnType<HistoryStore['append']>): Promise<unknown> {
  return append.then(withoutIds, (error: { code?: string }) => ({ rejected: error.code }));
}

function withoutIds(messages: readonly Message[]): Message[] {
  return messages.map(({ id: _id, ...message }) => message);
}
