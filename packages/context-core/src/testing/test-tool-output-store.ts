import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextError } from '../context-error.js';
import { conversationIdProblem } from '../conversation-id.js';
import type { ToolOutputStore } from '../tool-output-store.js';
import { contextErrorRejectedBy } from './context-error-thrown-by.js';
import { fuzzParameters } from './fuzz-parameters.js';
import { sampleText } from './sample-text.js';

/** Options of {@link testToolOutputStore}. */
export interface TestToolOutputStoreOptions<Store extends ToolOutputStore> {
  /** Name of the `describe` block. */
  name: string;
  /** Makes an empty store, scoped to conversations (the default of every store). */
  create: () => Promise<Store>;
  /**
   * Makes an empty store created with `shareAcrossConversations: true`, when the store offers it.
   *
   * @default `undefined`: sharing is not tested
   */
  createShared?: () => Promise<Store>;
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
 * The tool output store conformance suite: outputs read back whole, byte for byte (any text, up
 * to megabytes), with their metadata, as `{ ref, text, meta }`; unique references; clear errors
 * for unknown references and invalid input; every output read only by the conversation it was
 * stored for (another conversation's reference refused exactly like one never stored); reading
 * across conversations when `createShared` is given; persistence when `reopen` is given. A store
 * is storage only: querying a part of an output is `@ctxkit/tool-output-store`'s, and tested there.
 *
 * @param options - how to make, reopen and release the store under test
 */
export function testToolOutputStore<Store extends ToolOutputStore>(
  options: TestToolOutputStoreOptions<Store>,
): void {
  const open: Store[] = [];
  const create = async () => {
    const store = await options.create();
    open.push(store);
    return store;
  };
  const meta = { toolName: 'get_logs', toolCallId: 'call_1', service: 'api' };
  /** The code of the ContextError `promise` rejects with. */
  const code = async (promise: Promise<unknown>) => (await contextErrorRejectedBy(promise)).code;
  /** What a refusal of `ref` says, with the ref itself left out, to compare two refusals. */
  const refusal = async (promise: Promise<unknown>, ref: string) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ContextError.isInstance(error, 'unknown_ref')).toBe(true);
    const { message, details } = error as ContextError;
    return { message: message.replaceAll(ref, '<ref>'), details: { ...details, ref: '<ref>' } };
  };

  describe(`${options.name} (tool output store conformance)`, () => {
    afterEach(async () => {
      for (const store of open.splice(0)) await options.destroy?.(store);
    });

    it('reads any output back whole, byte for byte, with its metadata', async () => {
      const store = await create();
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 2_000 }), async (output) => {
          const ref = await store.put('c1', output, meta);
          const stored = await store.get('c1', ref);
          expect(stored.text).toBe(output);
          expect(stored).toMatchObject({ ref, meta });
        }),
        fuzzParameters(100),
      );
      const large = sampleText('log', 1_000_000, 7);
      const ref = await store.put('c1', large, meta);
      expect((await store.get('c1', ref)).text).toBe(large);
      expect((await store.get('c1', await store.put('c1', '', meta))).text).toBe('');
    });

    it('gives every output its own reference', async () => {
      const store = await create();
      const refs = await Promise.all(
        Array.from({ length: 50 }, (_, index) => store.put('c1', `output ${index}`, meta)),
      );
      expect(new Set(refs).size).toBe(50);
      for (const ref of refs) expect(ref).toMatch(/^toolout_[0-9a-f]{16}$/);
      expect((await store.get('c1', refs[17] as string)).text).toBe('output 17');
    });

    it('gives back a copy: changing what get returned changes nothing stored', async () => {
      const store = await create();
      const ref = await store.put('c1', 'output', { ...meta, tags: ['a'] });
      const first = await store.get('c1', ref);
      first.meta.toolName = 'changed';
      (first.meta.tags as string[]).push('b');
      expect(await store.get('c1', ref)).toEqual({
        ref,
        text: 'output',
        meta: { ...meta, tags: ['a'] },
      });
    });

    it('fails clearly for unknown references and invalid input', async () => {
      const store = await create();
      const ref = await store.put('c1', '{"a":1}\nnot json', meta);
      expect(await code(store.get('c1', 'toolout_0000000000000000'))).toBe('unknown_ref');
      expect(await code(store.get('c1', 'not-a-ref'))).toBe('unknown_ref');
      expect(await code(store.get('c1', 42 as unknown as string))).toBe('unknown_ref');
      expect(await code(store.put('c1', 42 as unknown as string, meta))).toBe('invalid_option');
      expect(await code(store.put('c1', 'x', { toolName: '' }))).toBe('invalid_option');
      for (const bad of [
        { size: 1n },
        { run: () => 1 },
        { at: new Date(0) },
        { ratio: Number.NaN },
      ]) {
        expect(await code(store.put('c1', 'x', { ...meta, ...bad }))).toBe('invalid_option');
      }
      expect(await code(store.put('', 'x', meta))).toBe('invalid_option');
      expect(await code(store.put(7 as unknown as string, 'x', meta))).toBe('invalid_option');
      expect(await code(store.put('c1', 'x', { ...meta, conversationId: 'c2' }))).toBe(
        'invalid_option',
      );
      expect(await code(store.get('', ref))).toBe('invalid_option');
      expect(await code(store.get(undefined as unknown as string, ref))).toBe('invalid_option');
      expect((await store.get('c1', ref)).text).toBe('{"a":1}\nnot json');
      const named = { ...meta, conversationId: 'c1' };
      expect(await store.get('c1', await store.put('c1', 'x', named))).toMatchObject({
        text: 'x',
        meta: named,
      });
    });

    it('reads an output only in the conversation it was stored for', async () => {
      const store = await create();
      const ids = fc.oneof(
        fc.constantFrom(
          'c1',
          'C1',
          'c1 ',
          ' c1',
          'c10',
          'c',
          'é',
          'e\u0301',
          '日本',
          '🚀',
          '%',
          '_',
        ),
        // Any id a store takes (not white space alone, no control characters).
        fc
          .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
          .filter((id) => conversationIdProblem(id) === undefined),
      );
      await fc.assert(
        fc.asyncProperty(
          ids,
          ids,
          fc.string({ unit: 'grapheme', maxLength: 200 }),
          async (owner, other, output) => {
            fc.pre(owner !== other);
            const ref = await store.put(owner, output, meta);
            const never = ref.endsWith('0') ? `${ref.slice(0, -1)}1` : `${ref.slice(0, -1)}0`;
            // Refused exactly like a ref never stored.
            expect(await refusal(store.get(other, ref), ref)).toEqual(
              await refusal(store.get(other, never), never),
            );
            expect(await store.get(owner, ref)).toEqual({ ref, text: output, meta });
          },
        ),
        fuzzParameters(100),
      );
    });

    const createShared = options.createShared;
    if (createShared) {
      it('reads outputs across conversations only when created shared', async () => {
        const shared = await createShared();
        open.push(shared);
        const ref = await shared.put('c1', 'shared output', meta);
        expect(await shared.get('c2', ref)).toMatchObject({ text: 'shared output', meta });
        expect(await shared.get('c1', ref)).toMatchObject({ text: 'shared output', meta });
        expect(await code(shared.get('c2', 'toolout_0000000000000000'))).toBe('unknown_ref');
        expect(await code(shared.get('', ref))).toBe('invalid_option');
        expect(await code(shared.put('', 'x', meta))).toBe('invalid_option');
      });
    }

    const reopen = options.reopen;
    if (reopen) {
      it('keeps outputs after being reopened', async () => {
        const store = await create();
        const output = sampleText('json', 50_000, 3);
        const ref = await store.put('c1', output, meta);
        const reopened = await reopen(store);
        open.push(reopened);
        expect(await reopened.get('c1', ref)).toMatchObject({ text: output, meta });
      });
    }
  });
}
