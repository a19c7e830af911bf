import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextError } from '../context-error.js';
import type { ArchiveInfo, HistoryStore } from '../context-provider.js';
import { countMessageTokens } from '../count-tokens.js';
import type { Message } from '../message.js';
import { MAX_PAGE_LIMIT, type Page, type PageOptions, type PageOrder } from '../page.js';
import type { TokenCounter } from '../token-counter.js';
import { arbitraryHistory } from './arbitraries.js';
import { boundedHistoryReference } from './bounded-history-reference.js';
import { contextErrorRejectedBy } from './context-error-thrown-by.js';
import { deepFreeze } from './deep-freeze.js';
import { fuzzParameters } from './fuzz-parameters.js';

/** Options of {@link testHistoryStore}. */
export interface TestHistoryStoreOptions<Store extends HistoryStore> {
  /** Name of the `describe` block. */
  name: string;
  /** The counter the store caches counts with. */
  counter: TokenCounter;
  /** Makes an empty store. */
  create: () => Promise<Store>;
  /**
   * Opens the same data again through a new connection, to prove persistence.
   *
   * @default `undefined`: persistence is not tested
   */
  reopen?: (store: Store) => Promise<Store>;
  /**
   * Releases a store (close connections, remove files).
   *
   * @default `undefined`: nothing to release
   */
  destroy?: (store: Store) => Promise<void>;
  /**
   * Random histories in the round-trip property (each is a real append).
   *
   * @default 100
   */
  numRuns?: number;
  /**
   * Random cases of the paging property (each appends and archives for real).
   *
   * @default 15
   */
  pagingRuns?: number;
}

/**
 * The provider conformance suite: registers vitest tests that every {@link HistoryStore} must
 * pass: empty and isolated conversations, order across batches, ids and cached counts, exact
 * round trips, `limit` that never splits a tool call from its results, the `maxTokens` window
 * with the protected, summary and first user messages before it, atomic validated appends
 * (a result may answer a call stored earlier), archives that delete nothing, copies in and out,
 * concurrent appends that never interleave, and persistence when `reopen` is given. It also
 * attacks the store as a hostile caller would: forged token counts, arrays with holes, cyclic,
 * BigInt, Date, NaN and 100,000-level deep data, huge limits, and ids with lone surrogates; each
 * must be refused with a typed error (or, for counts, recounted) and change nothing stored.
 * Archives and archived messages read a page at a time, in either order, must join up to what
 * `listArchives` and `getArchive` return, with nothing twice even while archives are made
 * between pages; a bad `limit`, `order` or cursor is refused with a typed error.
 *
 * @param options - how to make, reopen and release the store under test
 */
export function testHistoryStore<Store extends HistoryStore>(
  options: TestHistoryStoreOptions<Store>,
): void {
  const { counter } = options;
  const open: Store[] = [];
  const create = async () => {
    const store = await options.create();
    open.push(store);
    return store;
  };

  describe(`${options.name} (history store conformance)`, () => {
    afterEach(async () => {
      for (const store of open.splice(0)) await options.destroy?.(store);
    });

    it('returns an empty history for an unknown conversation', async () => {
      const store = await create();
      expect(await store.getHistory('nobody')).toEqual([]);
    });

    it('appends with ids and cached counts, and reads back oldest first across batches', async () => {
      const store = await create();
      const first = await store.append('c1', [user('one'), assistant('two')]);
      const second = await store.append('c1', user('three'));
      const stored = [...first, ...second];
      expect(stored.map((message) => message.content)).toEqual(['one', 'two', 'three']);
      expect(new Set(stored.map((message) => message.id)).size).toBe(3);
      for (const message of stored) {
        expect(typeof message.id).toBe('string');
        expect(message.tokenCounter).toBe(counter.name);
        const { tokens, tokenCounter: _name, ...fresh } = message;
        expect(tokens).toBe(countMessageTokens(fresh, counter));
      }
      expect(await store.getHistory('c1')).toEqual(stored);
    });

    it('keeps conversations apart', async () => {
      const store = await create();
      await store.append('a', user('for a'));
      await store.append('b', user('for b'));
      expect((await store.getHistory('a')).map((message) => message.content)).toEqual(['for a']);
      expect((await store.getHistory('b')).map((message) => message.content)).toEqual(['for b']);
    });

    it('round-trips any valid history exactly', async () => {
      const store = await create();
      let conversation = 0;
      await fc.assert(
        fc.asyncProperty(
          arbitraryHistory({ maxTurns: 4, maxOutputChars: 5_000 }),
          async (history) => {
            const id = `round-trip-${conversation++}`;
            const input = deepFreeze(history.map(({ id: _id, ...message }) => message));
            const stored = await store.append(id, input);
            const loaded = await store.getHistory(id);
            expect(loaded).toEqual(stored);
            expect(loaded.map(withoutStoreFields)).toEqual(input);
          },
        ),
        fuzzParameters(options.numRuns ?? 100),
      );
    });

    it('keeps the newest messages under a limit without splitting a tool call from its results', async () => {
      const store = await create();
      await store.append('c', [
        user('old'),
        call('x1', 'first'),
        result('x1', 'r1'),
        call('x2', 'second', 'x3'),
        result('x2', 'r2'),
        result('x3', 'r3'),
        assistant('answer'),
      ]);
      const contents = async (limit: number) =>
        (await store.getHistory('c', { limit })).map((message) => message.role);
      expect(await contents(1)).toEqual(['assistant']);
      expect(await contents(2)).toEqual(['assistant', 'tool', 'tool', 'assistant']);
      expect(await contents(3)).toEqual(['assistant', 'tool', 'tool', 'assistant']);
      expect(await contents(4)).toEqual(['assistant', 'tool', 'tool', 'assistant']);
      expect(await contents(5)).toEqual([
        'assistant',
        'tool',
        'assistant',
        'tool',
        'tool',
        'assistant',
      ]);
      expect(await contents(0)).toEqual([]);
      expect(await contents(100)).toHaveLength(7);
    });

    it('accepts a tool result that answers a call stored earlier', async () => {
      const store = await create();
      await store.append('c', [user('go'), call('t1', 'read')]);
      await store.append('c', result('t1', 'done'));
      expect(await store.getHistory('c')).toHaveLength(3);
    });

    it('rejects an invalid batch before writing any of it', async () => {
      const store = await create();
      await store.append('c', user('kept'));
      const invalid: unknown[] = [
        [user('fine'), { role: 'robot', content: 'x' }],
        [user('fine'), result('missing', 'orphan')],
        [call('d1', 'a'), call('d1', 'b')],
        [{ role: 'user', content: 42 }],
      ];
      for (const batch of invalid) {
        const error = await store
          .append('c', batch as Message[])
          .catch((caught: unknown) => caught);
        expect(ContextError.isInstance(error, 'invalid_message')).toBe(true);
      }
      expect((await store.getHistory('c')).map((message) => message.content)).toEqual(['kept']);
    });

    it('rejects a second result for a call answered earlier', async () => {
      const store = await create();
      await store.append('c', [call('t1', 'read'), result('t1', 'done')]);
      await expect(store.append('c', result('t1', 'again'))).rejects.toMatchObject({
        code: 'invalid_message',
      });
      expect(await store.getHistory('c')).toHaveLength(2);
    });

    it('archives active messages without deleting them', async () => {
      const store = await create();
      const stored = await store.append('c', [
        user('one'),
        call('t1', 'read'),
        result('t1', 'out'),
      ]);
      const { archiveId, count } = await store.archive('c');
      expect(count).toBe(3);
      expect(await store.getHistory('c')).toEqual([]);
      expect(await store.getArchive('c', archiveId)).toEqual(stored);
      await store.append('c', user('after reset'));
      await expect(store.append('c', result('t1', 'late'))).rejects.toMatchObject({
        code: 'invalid_message',
      });
      const second = await store.archive('c');
      const archives = await store.listArchives('c');
      expect(archives.map((archive) => [archive.archiveId, archive.count])).toEqual([
        [archiveId, 3],
        [second.archiveId, 1],
      ]);
      for (const archive of archives)
        expect(Number.isNaN(Date.parse(archive.archivedAt))).toBe(false);
      expect(await store.archive('c')).toMatchObject({ count: 0 });
      expect(await store.listArchives('c')).toHaveLength(2);
      expect(await store.getArchive('c', 'no-such-archive')).toEqual([]);
    });

    it('reads a token-bounded window plus the system, pinned, summary and first user messages before it', async () => {
      const store = await create();
      const stored = await store.append('c', [
        { role: 'system', content: 'rules' },
        user('first question'),
        assistant('old answer'),
        call('x1', 'look'),
        { ...result('x1', 'pinned output'), meta: { pinned: true } },
        assistant('more'),
        { role: 'assistant', content: 'so far', meta: { kind: 'summary' } },
        user('second question'),
        call('x2', 'look again'),
        result('x2', 'output'),
        assistant('last answer'),
      ]);
      const tokens = (from: number) =>
        stored.slice(from).reduce((sum, message) => sum + (message.tokens ?? 0), 0);
      const read = async (maxTokens: number, limit?: number) =>
        (await store.getHistory('c', { maxTokens, limit })).map((message) => message.content);
      const before = [0, 1, 3, 4, 6].map((index) => stored[index]?.content);
      // The newest message alone covers its own count.
      expect(await read(tokens(10))).toEqual([...before, 'last answer']);
      // Reaching into the result of x2 brings its call.
      expect(await read(tokens(9))).toEqual([
        ...before,
        stored[8]?.content,
        stored[9]?.content,
        'last answer',
      ]);
      expect(await read(tokens(9), 1)).toEqual([...before, 'last answer']);
      // One token more than the history holds: all of it, and the sum tells nothing is missing.
      expect(await store.getHistory('c', { maxTokens: tokens(0) + 1 })).toEqual(stored);
      expect(await store.getHistory('c', { maxTokens: tokens(0) })).toEqual(stored);
      // The same window after an archive: only active messages, the first active user message.
      await store.archive('c');
      const active = await store.append('c', [
        assistant('fresh start'),
        user('new first'),
        assistant('a'),
        user('b'),
      ]);
      expect(await store.getHistory('c', { maxTokens: active[3]?.tokens ?? 1 })).toEqual([
        active[1],
        active[3],
      ]);
    });

    it('reads a pinned call from before the window with its results, appended with it or later', async () => {
      const store = await create();
      const pinnedCall = (...ids: [string, ...string[]]): Message => ({
        ...call(ids[0], 'look', ...ids.slice(1)),
        meta: { pinned: true },
      });
      const stored = [
        ...(await store.append('c', [
          user('question'),
          pinnedCall('p1', 'p1b'),
          result('p1', 'one'),
        ])),
        ...(await store.append('c', result('p1b', 'two'))),
        ...(await store.append('c', [pinnedCall('p2'), assistant('between')])),
        ...(await store.append('c', [result('p2', 'late'), assistant('answer')])),
        ...(await store.append('c', [user('next'), assistant('newest')])),
      ];
      const newest = stored.at(-1) as Message;
      // Everything but the two newest turns comes from before the window: the pinned calls with
      // all their results (and what lies between p2 and its result), the first user message.
      expect(await store.getHistory('c', { maxTokens: newest.tokens ?? 1 })).toEqual([
        ...stored.slice(0, 7),
        newest,
      ]);
    });

    it('returns exactly the token-bounded set for any history, never a result without its call', async () => {
      const store = await create();
      let conversation = 0;
      await fc.assert(
        fc.asyncProperty(
          arbitraryHistory({ maxTurns: 5, maxOutputChars: 400 }),
          fc.array(fc.constantFrom(undefined, { pinned: true }, { kind: 'summary' }), {
            minLength: 1,
            maxLength: 8,
          }),
          fc.array(fc.tuple(fc.double({ min: 0, max: 1.2, noNaN: true }), fc.nat(40)), {
            minLength: 1,
            maxLength: 4,
          }),
          async (generated, marks, reads) => {
            const id = `bounded-${conversation++}`;
            // Pin or mark as a summary any message now and then, tool results included.
            const input = deepFreeze(
              generated.map(({ id: _id, ...message }, index) => {
                const mark = marks[index % marks.length];
                return mark ? { ...message, meta: { ...message.meta, ...mark } } : message;
              }),
            );
            const stored = await store.append(id, input);
            const total = stored.reduce((sum, message) => sum + (message.tokens ?? 0), 0);
            for (const [share, limitSeed] of reads) {
              const maxTokens = Math.max(1, Math.round(total * share));
              const limit = limitSeed >= 30 ? undefined : limitSeed;
              const loaded = await store.getHistory(id, { maxTokens, limit });
              expect(loaded).toEqual(boundedHistoryReference(stored, maxTokens, limit));
              const calls = new Set<string>();
              for (const message of loaded) {
                if (typeof message.content === 'string') continue;
                for (const part of message.content) {
                  if (part.type === 'tool-call') calls.add(part.toolCallId);
                  if (part.type === 'tool-result') expect(calls).toContain(part.toolCallId);
                }
              }
              const sum = loaded.reduce((sum, message) => sum + (message.tokens ?? 0), 0);
              if (limit === undefined && sum < maxTokens) expect(loaded).toEqual(stored);
            }
          },
        ),
        fuzzParameters(options.numRuns ?? 100),
      );
    });

    it('rejects a maxTokens that is not a whole number from 1', async () => {
      const store = await create();
      await store.append('c', user('x'));
      for (const maxTokens of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '5']) {
        await expect(
          store.getHistory('c', { maxTokens: maxTokens as number }),
          `maxTokens ${String(maxTokens)}`,
        ).rejects.toMatchObject({ code: 'invalid_option', details: { maxTokens } });
      }
      await expect(store.getHistory('c', { maxTokens: 1, limit: -1 })).rejects.toMatchObject({
        code: 'invalid_option',
      });
      expect(await store.getHistory('c', { maxTokens: Number.MAX_SAFE_INTEGER })).toHaveLength(1);
    });

    it('reads archives and archived messages a page at a time, in either order', async () => {
      const store = await create();
      const sizes = [3, 1, 6, 2];
      for (const [index, size] of sizes.entries()) {
        const batch =
          index === 2
            ? [
                user('start'),
                call('t1', 'read', 't2'),
                result('t1', 'one'),
                approvalRequest('t2', 'ok-2'),
                approvalResponse('ok-2'),
                result('t2', 'two'),
              ]
            : Array.from({ length: size }, (_, at) => user(`archive ${index} message ${at}`));
        await store.append('c', batch);
        await store.archive('c');
      }
      await store.append('c', user('active'));
      await store.append('other', user('elsewhere'));
      await store.archive('other');
      const archives = await store.listArchives('c');
      expect(archives.map((archive) => archive.count)).toEqual(sizes);
      for (const limit of [1, 2, 4, MAX_PAGE_LIMIT]) {
        expect(await pagesOf((after) => store.listArchivesPage('c', { limit, after }))).toEqual(
          archives,
        );
        expect(
          await pagesOf((after) =>
            store.listArchivesPage('c', { limit, after, order: 'newest-first' }),
          ),
        ).toEqual([...archives].reverse());
      }
      const [, , withTools] = archives;
      const messages = await store.getArchive('c', withTools?.archiveId as string);
      for (const limit of [1, 2, 3, 5, 6]) {
        const archiveId = withTools?.archiveId as string;
        expect(
          await pagesOf((after) => store.getArchivePage('c', archiveId, { limit, after })),
        ).toEqual(messages);
        expect(
          await pagesOf((after) =>
            store.getArchivePage('c', archiveId, { limit, after, order: 'newest-first' }),
          ),
        ).toEqual([...messages].reverse());
      }
      expect(await store.listArchivesPage('nobody')).toEqual({ items: [] });
      expect(await store.getArchivePage('c', 'no-such-archive')).toEqual({ items: [] });
      expect(await store.listArchivesPage('c')).toEqual({ items: archives });
      const [first] = (await store.getArchivePage('c', withTools?.archiveId as string)).items;
      (first as { content: string }).content = 'changed';
      expect(await store.getArchive('c', withTools?.archiveId as string)).toEqual(messages);
    });

    it('refuses a bad limit, order or cursor for archive pages with a typed error', async () => {
      const store = await create();
      const archiveIds: string[] = [];
      for (const text of ['one', 'two', 'three']) {
        await store.append('c', [user(text), assistant(text)]);
        archiveIds.push((await store.archive('c')).archiveId);
      }
      const [firstId, secondId] = archiveIds as [string, string];
      for (const limit of [0, -1, 2.5, MAX_PAGE_LIMIT + 1, Number.POSITIVE_INFINITY, '1']) {
        const options = { limit } as unknown as PageOptions;
        const archives = await contextErrorRejectedBy(store.listArchivesPage('c', options));
        expect(archives.code).toBe('invalid_option');
        expect(archives.message).toContain('listArchivesPage: option limit');
        const messages = await contextErrorRejectedBy(store.getArchivePage('c', firstId, options));
        expect(messages.code).toBe('invalid_option');
        expect(messages.message).toContain('getArchivePage: option limit');
      }
      await expect(
        store.listArchivesPage('c', { order: 'backwards' as PageOrder }),
      ).rejects.toMatchObject({ code: 'invalid_option', details: { option: 'order' } });
      const archivesNext = (await store.listArchivesPage('c', { limit: 1 })).next;
      const messagesNext = (await store.getArchivePage('c', firstId, { limit: 1 })).next;
      const refused: [string, Promise<unknown>][] = [
        ['listArchivesPage', store.listArchivesPage('d', { after: archivesNext })],
        ['listArchivesPage', store.listArchivesPage('c', { after: messagesNext })],
        [
          'listArchivesPage',
          store.listArchivesPage('c', { after: archivesNext, order: 'newest-first' }),
        ],
        ['listArchivesPage', store.listArchivesPage('c', { after: 'garbage' })],
        ['getArchivePage', store.getArchivePage('c', secondId, { after: messagesNext })],
        ['getArchivePage', store.getArchivePage('c', firstId, { after: archivesNext })],
        ['getArchivePage', store.getArchivePage('c', firstId, { after: '=' })],
      ];
      for (const [method, promise] of refused) {
        const error = await contextErrorRejectedBy(promise);
        expect(error.code).toBe('invalid_cursor');
        expect(error.message).toContain(`${method}: option after`);
      }
      expect(await pagesOf((after) => store.listArchivesPage('c', { limit: 1, after }))).toEqual(
        await store.listArchives('c'),
      );
    });

    it('pages through every archive exactly once while archives are made between pages', async () => {
      const store = await create();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 6 }),
          fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.nat(2)), {
            minLength: 1,
            maxLength: 8,
          }),
          fc.constantFrom<PageOrder>('oldest-first', 'newest-first'),
          async (initial, steps, order) => {
            run += 1;
            const conversationId = `paged-${run}`;
            const archiveOf = async (size: number) => {
              await store.append(
                conversationId,
                Array.from({ length: size }, (_, at) => user(`message ${at}`)),
              );
              await store.archive(conversationId);
            };
            for (const size of initial) await archiveOf(size);
            const before = await store.listArchives(conversationId);
            const read: ArchiveInfo[] = [];
            let after: string | undefined;
            for (let step = 0; ; step++) {
              const [limit, between] = steps[step % steps.length] as [number, number];
              const page = await store.listArchivesPage(conversationId, { limit, after, order });
              expect(page.items.length).toBeLessThanOrEqual(limit);
              read.push(...page.items);
              after = page.next;
              if (after === undefined) break;
              expect(page.items).toHaveLength(limit);
              // Archives are made between the pages of one pass through the steps, then no more:
              // made faster than read, oldest first, they would keep the listing going.
              if (step >= steps.length) continue;
              for (let made = 0; made < between; made++) await archiveOf(made + 1);
            }
            expect(read).toEqual(
              order === 'oldest-first'
                ? await store.listArchives(conversationId)
                : [...before].reverse(),
            );
            for (const archive of read.slice(0, 2)) {
              const [limit] = steps[0] as [number, number];
              expect(
                await pagesOf((cursor) =>
                  store.getArchivePage(conversationId, archive.archiveId, {
                    limit,
                    after: cursor,
                    order,
                  }),
                ),
              ).toEqual(
                order === 'oldest-first'
                  ? await store.getArchive(conversationId, archive.archiveId)
                  : (await store.getArchive(conversationId, archive.archiveId)).reverse(),
              );
            }
          },
        ),
        fuzzParameters(options.pagingRuns ?? 15),
      );
    });

    it('hands out copies: changing what it returned or was given changes nothing stored', async () => {
      const store = await create();
      const input: Message = {
        role: 'user',
        content: [{ type: 'text', text: 'original' }],
        meta: { pinned: true },
      };
      const [stored] = await store.append('c', input);
      (input.content as { text: string }[])[0]!.text = 'changed input';
      (stored!.content as { text: string }[])[0]!.text = 'changed output';
      const [loaded] = await store.getHistory('c');
      (loaded!.meta as Record<string, unknown>).pinned = false;
      const [again] = await store.getHistory('c');
      expect(again!.content).toEqual([{ type: 'text', text: 'original' }]);
      expect(again!.meta).toEqual({ pinned: true });
    });

    it('never interleaves concurrent batches', async () => {
      const store = await create();
      const batches = Array.from({ length: 8 }, (_, batch) =>
        Array.from({ length: 5 }, (_, index) => user(`${batch}:${index}`)),
      );
      await Promise.all(batches.map((batch) => store.append('c', batch)));
      const contents = (await store.getHistory('c')).map((message) => message.content as string);
      expect(contents).toHaveLength(40);
      for (let start = 0; start < 40; start += 5) {
        const batch = contents[start]!.split(':')[0];
        expect(contents.slice(start, start + 5)).toEqual(
          [0, 1, 2, 3, 4].map((index) => `${batch}:${index}`),
        );
      }
    });

    it('rejects an empty conversation id and a malformed or huge limit', async () => {
      const store = await create();
      await store.append('c', user('x'));
      await expect(store.append('', user('x'))).rejects.toMatchObject({ code: 'invalid_option' });
      // One rule for conversation ids everywhere: a non-empty string, bounded, no control
      // characters, nothing a column cannot hold as written.
      for (const id of [
        '',
        'a\u0000b',
        'line\nbreak',
        'tab\t',
        '\u007f',
        'x'.repeat(1025),
        '\uD800',
        42,
        null,
        {},
      ]) {
        for (const [name, run] of [
          ['append', () => store.append(id as string, user('x'))],
          ['getHistory', () => store.getHistory(id as string)],
          ['archive', () => store.archive(id as string)],
        ] as const) {
          const error = await contextErrorRejectedBy(run());
          expect(error.code, `${name}(${JSON.stringify(id)})`).toBe('invalid_option');
          expect(error.message).toContain('conversation id');
        }
      }
      const misspelt = await contextErrorRejectedBy(store.getHistory('c', { limt: 1 } as never));
      expect(misspelt.code).toBe('unknown_option');
      expect(misspelt.message).toContain('did you mean limit?');
      expect(await store.getHistory('x'.repeat(1024))).toEqual([]);
      for (const limit of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 1e20, 2 ** 53]) {
        await expect(store.getHistory('c', { limit }), `limit ${limit}`).rejects.toMatchObject({
          code: 'invalid_option',
        });
      }
      expect(await store.getHistory('c', { limit: Number.MAX_SAFE_INTEGER })).toHaveLength(1);
    });

    it('counts what it stores itself: a forged or stale tokens field is never kept', async () => {
      const store = await create();
      const honest = user('a message long enough to count for more than one token');
      const [stored] = await store.append('c', {
        ...honest,
        tokens: 1,
        tokenCounter: counter.name,
      });
      const [loaded] = await store.getHistory('c');
      for (const message of [stored!, loaded!]) {
        expect(message.tokens).toBe(countMessageTokens(honest, counter));
        expect(countMessageTokens(message, counter)).toBe(countMessageTokens(honest, counter));
      }
    });

    it('refuses, storing nothing, a batch with a hole or data that does not read back as written', async () => {
      const store = await create();
      await store.append('c', user('kept'));
      const cyclic: Record<string, unknown> = { name: 'loop' };
      cyclic.self = cyclic;
      const deep: Record<string, unknown> = {};
      let cursor = deep;
      for (let level = 0; level < 100_000; level += 1) {
        const next: Record<string, unknown> = {};
        cursor.next = next;
        cursor = next;
      }
      const toolCall = (input: unknown): Message => ({
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'k1', toolName: 'tool', input }],
      });
      const bad: unknown[] = [
        withHole([undefined, user('after a hole')], 0),
        withHole([user('ok'), undefined, user('after a hole')], 1),
        [
          {
            role: 'user',
            content: withHole(
              [{ type: 'text', text: 'x' }, undefined, { type: 'text', text: 'y' }],
              1,
            ),
          },
        ],
        [{ ...user('meta'), meta: cyclic }],
        [{ ...user('meta'), meta: { size: 10n } }],
        [{ ...user('meta'), meta: { at: new Date(0) } }],
        [{ ...user('meta'), meta: { ratio: Number.NaN } }],
        [toolCall(cyclic)],
        [toolCall({ size: 10n })],
        [toolCall(deep)],
        [toolCall(['a', undefined])],
      ];
      for (const [index, batch] of bad.entries()) {
        const error = await store.append('c', batch as Message[]).catch((caught) => caught);
        expect(ContextError.isInstance(error, 'invalid_message'), `batch ${index}: ${error}`).toBe(
          true,
        );
      }
      expect((await store.getHistory('c')).map(withoutStoreFields)).toEqual([user('kept')]);
    });

    it('gives back ids as written, and refuses one that cannot be (lone surrogate, U+0000)', async () => {
      const store = await create();
      const ids = ['call_1', 'ид-😀-\u{1F600}', 'a'.repeat(300), ' spaced id ', 'tab\there'];
      const calls: Message = {
        role: 'assistant',
        content: ids.map((toolCallId) => ({
          type: 'tool-call' as const,
          toolCallId,
          toolName: 'tool',
          input: {},
        })),
      };
      await store.append('c', calls);
      for (const id of ids) await store.append('c', result(id, `output of ${id}`));
      const loaded = await store.getHistory('c');
      expect(loaded.map(withoutStoreFields)).toEqual([
        calls,
        ...ids.map((id) => result(id, `output of ${id}`)),
      ]);
      for (const lone of ['\uD800', 'a\uDC00b', 'end\uD83D', 'x\u0000y']) {
        await expect(
          store.append('c', {
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: lone, toolName: 'tool', input: {} }],
          }),
        ).rejects.toMatchObject({ code: 'invalid_message' });
      }
      expect(await store.getHistory('c')).toEqual(loaded);
      for (const conversationId of ['\uDC00', 'a\u0000']) {
        await expect(store.append(conversationId, user('x'))).rejects.toMatchObject({
          code: 'invalid_option',
        });
      }
    });

    const reopen = options.reopen;
    if (reopen) {
      it('keeps everything after being reopened', async () => {
        const store = await create();
        const stored = await store.append('c', [
          user('persist'),
          call('t1', 'read'),
          result('t1', 'out'),
        ]);
        const { archiveId } = await store.archive('c');
        const active = await store.append('c', user('active'));
        const reopened = await reopen(store);
        open.push(reopened);
        expect(await reopened.getHistory('c')).toEqual(active);
        expect(await reopened.getArchive('c', archiveId)).toEqual(stored);
        await reopened.append('c', user('more'));
        expect(await reopened.getHistory('c')).toHaveLength(2);
      });
    }
  });
}

// --- internal helpers ---

function user(content: string): Message {
  return { role: 'user', content };
}

function assistant(content: string): Message {
  return { role: 'assistant', content };
}

function call(id: string, text: string, ...more: string[]): Message {
  return {
    role: 'assistant',
    content: [
      { type: 'text', text },
      ...[id, ...more].map((toolCallId) => ({
        type: 'tool-call' as const,
        toolCallId,
        toolName: 'read_file',
        input: { path: toolCallId },
      })),
    ],
  };
}

function result(id: string, output: string): Message {
  return {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output }],
  };
}

function approvalRequest(toolCallId: string, approvalId: string): Message {
  return {
    role: 'assistant',
    content: [{ type: 'tool-approval-request', approvalId, toolCallId }],
  };
}

function approvalResponse(approvalId: string): Message {
  return {
    role: 'tool',
    content: [{ type: 'tool-approval-response', approvalId, approved: true }],
  };
}

/** Every item of a listing, reading it page by page from the start. */
async function pagesOf<Item>(
  read: (after: string | undefined) => Promise<Page<Item>>,
): Promise<Item[]> {
  const items: Item[] = [];
  let after: string | undefined;
  do {
    const page = await read(after);
    items.push(...page.items);
    after = page.next;
  } while (after !== undefined);
  return items;
}

/** `items` with a hole at `at` (as `[a, , b]` writes it), not an `undefined` item. */
function withHole(items: unknown[], at: number): unknown[] {
  const sparse: unknown[] = new Array(items.length);
  for (const [index, item] of items.entries()) if (index !== at) sparse[index] = item;
  return sparse;
}

function withoutStoreFields(message: Message): Message {
  const { id: _id, tokens: _tokens, tokenCounter: _counter, ...rest } = message;
  return rest;
}
