import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredSummary, SummaryStore } from '../summary-store.js';
import { contextErrorRejectedBy } from './context-error-thrown-by.js';
import { fuzzParameters } from './fuzz-parameters.js';
import { sampleText } from './sample-text.js';

/** Options of {@link testSummaryStore}. */
export interface TestSummaryStoreOptions<Store extends SummaryStore> {
  /** Name of the `describe` block. */
  name: string;
  /** Makes an empty store. */
  create: () => Promise<Store>;
  /**
   * Opens the same data again, to prove persistence.
   *
   * @default `undefined`: persistence is not tested
   */
  reopen?: (store: Store) => Promise<Store>;
  /**
   * Releases a store.
   *
   * @default `undefined`: nothing to release
   */
  destroy?: (store: Store) => Promise<void>;
}

/**
 * The summary store conformance suite: summaries read back exactly (any text, up to hundreds of
 * kilobytes), one per conversation, replaced as a whole by `put`, clear errors for bad
 * conversation ids and malformed summaries (leaving the stored one as it was), and persistence
 * when `reopen` is given.
 *
 * @param options - how to make, reopen and release the store under test
 */
export function testSummaryStore<Store extends SummaryStore>(
  options: TestSummaryStoreOptions<Store>,
): void {
  const open: Store[] = [];
  const create = async () => {
    const store = await options.create();
    open.push(store);
    return store;
  };

  describe(`${options.name} (summary store conformance)`, () => {
    afterEach(async () => {
      for (const store of open.splice(0)) await options.destroy?.(store);
    });

    it('reads any summary back exactly, one per conversation', async () => {
      const store = await create();
      expect(await store.get('nobody')).toBeUndefined();
      await fc.assert(
        fc.asyncProperty(
          fc.string({ unit: 'grapheme', maxLength: 2_000 }),
          fc.option(fc.string({ minLength: 1, maxLength: 40 }), { nil: undefined }),
          fc.nat(),
          async (text, throughId, count) => {
            const summary = storedSummary(text, count, throughId);
            await store.put('c1', summary);
            expect(await store.get('c1')).toEqual(summary);
          },
        ),
        fuzzParameters(100),
      );
      const large = storedSummary(sampleText('chinese', 200_000, 5), 9_000, '42');
      await store.put('c2', large);
      expect(await store.get('c2')).toEqual(large);
      expect(await store.get('c3')).toBeUndefined();
    });

    it('replaces a summary as a whole and keeps conversations apart', async () => {
      const store = await create();
      const first = storedSummary('first', 3, 'm3');
      const second = storedSummary('second', 8);
      await store.put('a', first);
      await store.put('b', storedSummary('other', 1, 'x'));
      await store.put('a', second);
      expect(await store.get('a')).toEqual(second);
      expect(await store.get('b')).toEqual(storedSummary('other', 1, 'x'));
    });

    it('rejects bad conversation ids and malformed summaries, keeping what was stored', async () => {
      const store = await create();
      const kept = storedSummary('kept', 2, 'm2');
      await store.put('c1', kept);
      /** The code of the ContextError `promise` rejects with. */
      const code = async (promise: Promise<unknown>) =>
        (await contextErrorRejectedBy(promise)).code;
      expect(await code(store.get(''))).toBe('invalid_option');
      expect(await code(store.put('', kept))).toBe('invalid_option');
      const malformed: unknown[] = [
        null,
        { ...kept, text: 42 },
        { ...kept, covers: null },
        { ...kept, covers: { ...kept.covers, count: -1 } },
        { ...kept, covers: { ...kept.covers, fingerprint: '' } },
        { ...kept, covers: { ...kept.covers, throughId: 7 } },
        { ...kept, covers: { ...kept.covers, position: 1.5 } },
        { ...kept, updatedAt: 'yesterday' },
      ];
      for (const summary of malformed) {
        expect(await code(store.put('c1', summary as StoredSummary))).toBe('invalid_summary');
      }
      expect(await store.get('c1')).toEqual(kept);
    });

    const reopen = options.reopen;
    if (reopen) {
      it('keeps summaries after being reopened', async () => {
        const store = await create();
        const summary = storedSummary(sampleText('prose', 5_000, 2), 120, 'm120');
        await store.put('c1', summary);
        const reopened = await reopen(store);
        open.push(reopened);
        expect(await reopened.get('c1')).toEqual(summary);
      });
    }
  });
}

// --- internal helpers ---

function storedSummary(text: string, count: number, throughId?: string): StoredSummary {
  return {
    text,
    covers: {
      ...(throughId === undefined ? {} : { throughId, position: count }),
      fingerprint: `fp-${count}`,
      count,
    },
    updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, count % 60)).toISOString(),
  };
}
