import { createHash } from 'node:crypto';
import {
  assertConversationId,
  assertToolOutput,
  assertToolOutputRef,
  type ContextCompressor,
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

/** A {@link ContentAddressedStore} in memory, each output read only by its conversation. */
export function createContentAddressedStore(): ContentAddressedStore {
  const entries = new Map<
    string,
    { conversationId: string; output: string; meta: ToolOutputMeta }
  >();
  const outputs = new Map<string, string>();
  let puts = 0;
  return {
    get puts() {
      return puts;
    },
    outputs,
    async put(conversationId, output, meta) {
      assertToolOutput(conversationId, output, meta);
      puts += 1;
      const ref = `toolout_${createHash('sha256')
        .update(JSON.stringify([conversationId, output, meta]))
        .digest('hex')
        .slice(0, 16)}`;
      entries.set(ref, { conversationId, output, meta: structuredClone(meta) });
      outputs.set(ref, output);
      return ref;
    },
    async get(conversationId, ref) {
      assertConversationId(conversationId);
      assertToolOutputRef(ref);
      const entry = entries.get(ref);
      if (entry?.conversationId !== conversationId) throw unknownToolOutputRef(ref, conversationId);
      return { ref, text: entry.output, meta: structuredClone(entry.meta) };
    },
  };
}

/** `compressor`, always run in conversation `conversationId`, as a pipeline runs it. */
export function inConversation(
  compressor: ContextCompressor,
  conversationId: string,
): ContextCompressor {
  return {
    ...compressor,
    compress: (messages, budget, context) =>
      compressor.compress(messages, budget, { ...context, conversationId }),
  };
}
