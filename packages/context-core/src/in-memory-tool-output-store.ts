import { assertToolOutput } from './assert-tool-output.js';
import { assertConversationId } from './conversation-id.js';
import { InvalidOptionError } from './error-families.js';
import { type OptionKeys, optionChecker } from './option-checker.js';
import {
  assertToolOutputRef,
  createToolOutputRef,
  unknownToolOutputRef,
} from './tool-output-ref.js';
import { sharesAcrossConversations, type ToolOutputScopeOptions } from './tool-output-scope.js';
import type { StoredToolOutput, ToolOutputMeta, ToolOutputStore } from './tool-output-store.js';
import { utf8ByteLength } from './utf8-byte-length.js';

/** Options of {@link createInMemoryToolOutputStore}. */
export interface InMemoryToolOutputStoreOptions extends ToolOutputScopeOptions {
  /**
   * Most UTF-8 bytes of output kept; the least recently used are evicted first.
   *
   * @default `67108864` (64 MiB)
   */
  maxBytes?: number;
}

/**
 * A {@link ToolOutputStore} in process memory (plain storage, on any JavaScript runtime), bounded
 * by bytes: when a new output would exceed `maxBytes`, the least recently used outputs (by `put`
 * or `get`) are evicted, and reading an evicted reference fails with `unknown_ref`. An output
 * larger than `maxBytes` is rejected. A conversation reads only its own outputs unless
 * `shareAcrossConversations` is true; a refused read changes nothing, not even which outputs are
 * evicted first.
 *
 * @param options - the byte bound and the scope
 * @returns an empty store
 * @throws InvalidOptionError (`invalid_option`) for a `maxBytes` that is not a positive whole
 *   number, or a `shareAcrossConversations` that is not a boolean
 */
export function createInMemoryToolOutputStore(
  options: InMemoryToolOutputStoreOptions = {},
): ToolOutputStore {
  optionChecker('context-core', 'createInMemoryToolOutputStore').knownKeys(options, OPTION_KEYS);
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      message: `In-memory tool output store maxBytes must be a positive whole number, got ${String(maxBytes)}.`,
    });
  }
  const shared = sharesAcrossConversations(options);
  const entries = new Map<
    string,
    { conversationId: string; output: string; meta: ToolOutputMeta; bytes: number }
  >();
  let usedBytes = 0;

  return Object.freeze({
    async put(conversationId: string, output: string, meta: ToolOutputMeta): Promise<string> {
      assertToolOutput(conversationId, output, meta);
      const bytes = utf8ByteLength(output);
      if (bytes > maxBytes) {
        throw new InvalidOptionError({
          code: 'invalid_option',
          message: `A ${bytes}-byte output of ${meta.toolName} is larger than the store's maxBytes (${maxBytes}).`,
          details: { bytes, maxBytes },
        });
      }
      for (const [ref, entry] of entries) {
        if (usedBytes + bytes <= maxBytes) break;
        entries.delete(ref);
        usedBytes -= entry.bytes;
      }
      const ref = createToolOutputRef();
      entries.set(ref, { conversationId, output, meta: structuredClone(meta), bytes });
      usedBytes += bytes;
      return ref;
    },
    async get(conversationId: string, ref: string): Promise<StoredToolOutput> {
      assertConversationId(conversationId, 'context-core', 'get');
      assertToolOutputRef(ref);
      const entry = entries.get(ref);
      if (!entry || (!shared && entry.conversationId !== conversationId)) {
        throw unknownToolOutputRef(ref, conversationId);
      }
      entries.delete(ref);
      entries.set(ref, entry);
      return { ref, text: entry.output, meta: structuredClone(entry.meta) };
    },
  } satisfies ToolOutputStore);
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  maxBytes: true,
  shareAcrossConversations: true,
} satisfies OptionKeys<InMemoryToolOutputStoreOptions>);
