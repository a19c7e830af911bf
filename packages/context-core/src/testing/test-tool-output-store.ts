import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextError } from '../context-error.js';
import type { ToolOutputStore } from '../tool-output-store.js';
import { fuzzParameters } from './fuzz-parameters.js';
import { sampleText } from './sample-text.js';

/** Options of {@link testToolOutputStore}. */
export interface TestToolOutputStoreOptions<Store extends ToolOutputStore> {
  /** Name of the `describe` block. */
  name: string;
  /** Makes an empty store. */
  create: () => Promise<Store>;
  /** Opens the same data again, to prove persistence. */
  reopen?: (store: Store) => Promise<Store>;
  /** Releases a store. */
  destroy?: (store: Store) => Promise<void>;
}

/**
 * The tool output store conformance suite: outputs read back byte for byte (any text, up to
 * megabytes), metadata kept, unique references, line ranges, grep, JSON paths and character caps,
 * clear errors for unknown references and malformed queries, and persistence when `reopen` is given.
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
  const meta = { toolName: 'get_logs', toolCallId: 'call_1', conversationId: 'c1', service: 'api' };

  describe(`${options.name} (tool output store conformance)`, () => {
    afterEach(async () => {
      for (const store of open.splice(0)) await options.destroy?.(store);
    });

    it('reads any output back byte for byte, with its metadata and size', async () => {
      const store = await create();
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 2_000 }), async (output) => {
          const ref = await store.put(output, meta);
          const slice = await store.get(ref);
          expect(slice.text).toBe(output);
          expect(slice).toMatchObject({ ref, meta, totalChars: output.length, truncated: false });
        }),
        fuzzParameters(100),
      );
      const large = sampleText('log', 1_000_000, 7);
      const ref = await store.put(large, meta);
      expect((await store.get(ref)).text).toBe(large);
      expect((await store.get(await store.put('', meta))).text).toBe('');
    });

    it('gives every output its own reference', async () => {
      const store = await create();
      const refs = await Promise.all(
        Array.from({ length: 50 }, (_, index) => store.put(`output ${index}`, meta)),
      );
      expect(new Set(refs).size).toBe(50);
      for (const ref of refs) expect(ref).toMatch(/^toolout_[0-9a-f]{16}$/);
      expect((await store.get(refs[17] as string)).text).toBe('output 17');
    });

    it('selects line ranges, grep matches and character caps', async () => {
      const store = await create();
      const output = Array.from(
        { length: 100 },
        (_, index) => `${index % 10 === 0 ? 'ERROR' : 'INFO'} line ${index + 1}`,
      ).join('\n');
      const ref = await store.put(`${output}\n`, meta);
      expect(await store.get(ref, { startLine: 2, endLine: 4 })).toMatchObject({
        text: 'INFO line 2\nINFO line 3\nINFO line 4',
        totalLines: 100,
        matchedLines: 3,
      });
      expect((await store.get(ref, { startLine: 99 })).text).toBe('INFO line 99\nINFO line 100');
      const errors = await store.get(ref, { grep: '^ERROR' });
      expect(errors.matchedLines).toBe(10);
      expect(errors.text.split('\n')[1]).toBe('ERROR line 11');
      expect(await store.get(ref, { grep: 'ERROR', startLine: 15, endLine: 35 })).toMatchObject({
        text: 'ERROR line 21\nERROR line 31',
      });
      expect(await store.get(ref, { maxChars: 10 })).toMatchObject({
        text: 'ERROR line',
        truncated: true,
      });
    });

    it('selects JSON paths', async () => {
      const store = await create();
      const inventory = {
        containers: [
          { id: 'a1', name: 'api', ports: [80] },
          { id: 'b2', name: 'db', 'odd key': true },
        ],
      };
      const ref = await store.put(JSON.stringify(inventory), { toolName: 'list_containers' });
      expect(JSON.parse((await store.get(ref, { jsonPath: '$.containers[1].name' })).text)).toBe(
        'db',
      );
      expect(JSON.parse((await store.get(ref, { jsonPath: '$.containers[*].id' })).text)).toEqual([
        'a1',
        'b2',
      ]);
      expect(
        JSON.parse((await store.get(ref, { jsonPath: "$.containers[1]['odd key']" })).text),
      ).toBe(true);
      expect((await store.get(ref, { jsonPath: '$.nothing.here' })).text).toBe('');
    });

    it('fails clearly for unknown references and malformed queries', async () => {
      const store = await create();
      const ref = await store.put('{"a":1}\nnot json', meta);
      const code = async (promise: Promise<unknown>) => {
        const error = await promise.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(ContextError.isInstance(error)).toBe(true);
        return (error as ContextError).code;
      };
      expect(await code(store.get('toolout_0000000000000000'))).toBe('unknown_ref');
      expect(await code(store.get('not-a-ref'))).toBe('unknown_ref');
      expect(await code(store.get(ref, { startLine: 0 }))).toBe('invalid_query');
      expect(await code(store.get(ref, { startLine: 5, endLine: 2 }))).toBe('invalid_query');
      expect(await code(store.get(ref, { grep: '(' }))).toBe('invalid_query');
      expect(await code(store.get(ref, { grep: '' }))).toBe('invalid_query');
      expect(await code(store.get(ref, { grep: 'x'.repeat(300) }))).toBe('invalid_query');
      expect(await code(store.get(ref, { jsonPath: '$.a' }))).toBe('invalid_query');
      expect(await code(store.get(ref, { jsonPath: 'a.b' }))).toBe('invalid_query');
      expect(await code(store.get(ref, { maxChars: -1 }))).toBe('invalid_query');
      expect(await code(store.put(42 as unknown as string, meta))).toBe('invalid_option');
      expect(await code(store.put('x', { toolName: '' }))).toBe('invalid_option');
    });

    const reopen = options.reopen;
    if (reopen) {
      it('keeps outputs after being reopened', async () => {
        const store = await create();
        const output = sampleText('json', 50_000, 3);
        const ref = await store.put(output, meta);
        const reopened = await reopen(store);
        open.push(reopened);
        expect(await reopened.get(ref)).toMatchObject({ text: output, meta });
      });
    }
  });
}
