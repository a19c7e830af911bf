import { createHash } from 'node:crypto';
import {
  assertToolOutput,
  assertToolOutputRef,
  queryToolOutput,
  type ToolOutputMeta,
  type ToolOutputStore,
  unknownToolOutputRef,
} from '@ctxkit/context-core';

/** A store whose refs derive from what is stored, so two runs on the same input give the same refs. */
export interface ContentAddressedStore extends ToolOutputStore {
  /** Calls of `put` so far. */
  readonly puts: number;
  /** Every stored output by ref. */
  readonly outputs: ReadonlyMap<string, string>;
}

/** A {@link ContentAddressedStore} in memory. */
export function createContentAddressedStore(): ContentAddressedStore {
  const entries = new Map<string, { output: string; meta: ToolOutputMeta }>();
  const outputs = new Map<string, string>();
  let puts = 0;
  return {
    get puts() {
      return puts;
    },
    outputs,
    async put(output, meta) {
      assertToolOutput(output, meta);
      puts += 1;
      const ref = `toolout_${createHash('sha256')
        .update(JSON.stringify([output, meta]))
        .digest('hex')
        .slice(0, 16)}`;
      entries.set(ref, { output, meta: structuredClone(meta) });
      outputs.set(ref, output);
      return ref;
    },
    async get(ref, query) {
      assertToolOutputRef(ref);
      const entry = entries.get(ref);
      if (!entry) throw unknownToolOutputRef(ref);
      return queryToolOutput(ref, entry.output, structuredClone(entry.meta), query);
    },
  };
}
