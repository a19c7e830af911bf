import { createInMemoryHistoryStore, type Message } from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSqliteProvider } from '../src/index.js';
import { tempDatabasePath } from './helpers.js';

const counter = createHeuristicCounter();

/** What happens after a message: the batch goes on, is appended, read, or archived. */
const STEPS = ['continue', 'append', 'read', 'archive', 'append-elsewhere'] as const;

describe('bounded reads through the read caches', () => {
  it('return what the reference store returns, whatever was appended or archived between them, here or by another process', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        // Up to about a hundred messages: windows of more than one page of rows.
        arbitraryHistory({ maxTurns: 30, maxOutputChars: 200 }),
        fc.array(fc.constantFrom(...STEPS), { minLength: 30, maxLength: 30 }),
        fc.array(fc.constantFrom(undefined, { pinned: true }, { kind: 'summary' }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.array(fc.tuple(fc.nat(), fc.option(fc.nat(), { nil: undefined })), {
          minLength: 30,
          maxLength: 30,
        }),
        async (generated, steps, marks, bounds) => {
          const conversationId = `run-${run++}`;
          const filename = tempDatabasePath(`caches-${run}.db`);
          // The reader keeps its caches; the writer stands for another process on the file.
          const reader = createSqliteProvider({ filename, counter });
          const writer = createSqliteProvider({ filename, counter });
          const reference = createInMemoryHistoryStore({ counter });
          try {
            const history = generated.map(({ id: _id, ...message }, index) => {
              const mark = marks[index % marks.length];
              return mark ? { ...message, meta: { ...message.meta, ...mark } } : message;
            });
            let batch: Message[] = [];
            let reads = 0;
            for (const [index, message] of history.entries()) {
              batch.push(message);
              const step = steps[index % steps.length];
              if (step === 'continue' && index < history.length - 1) continue;
              const store = step === 'append-elsewhere' ? writer : reader;
              const appended = await store.append(conversationId, batch).then(
                () => true,
                () => false,
              );
              const expected = await reference.append(conversationId, batch).then(
                () => true,
                () => false,
              );
              expect(appended).toBe(expected);
              batch = [];
              if (step === 'archive') {
                await writer.archive(conversationId);
                await reference.archive(conversationId);
              }
              // Read after every batch, the reading provider remembering what it read.
              const all = await reference.getHistory(conversationId);
              const total = all.reduce((sum, item) => sum + (item.tokens ?? 0), 0);
              const [tokenSeed, limitSeed] = bounds[reads++ % bounds.length] as [
                number,
                number | undefined,
              ];
              const options = {
                maxTokens: 1 + (tokenSeed % (total + 2)),
                limit: limitSeed === undefined ? undefined : limitSeed % (all.length + 2),
              };
              expect(
                withoutIds(await reader.getHistory(conversationId, options)),
                JSON.stringify(options),
              ).toEqual(withoutIds(await reference.getHistory(conversationId, options)));
            }
          } finally {
            await reader.close();
            await writer.close();
          }
        },
      ),
      fuzzParameters(25),
    );
  });
});

// --- internal helpers ---

function withoutIds(messages: readonly Message[]): Message[] {
  return messages.map(({ id: _id, ...message }) => message);
}
