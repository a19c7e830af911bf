import type { ToolOutputStore } from '@ctxkit/context-core';
import { prepareToolOutputQuery } from './query-tool-output.js';
import type { ToolOutputQuery, ToolOutputSlice } from './tool-output-query.js';

/**
 * Reads the part of a stored output that `query` selects, as conversation `conversationId`: checks
 * the query first (so a malformed one fails alike whether the output exists or not, and reads
 * nothing), then reads the whole output through `store.get` and applies the query with
 * `queryToolOutput`. Never changes the store.
 *
 * @param store - the store holding the output
 * @param conversationId - the conversation reading it
 * @param ref - the output's ref (`toolout_…`)
 * @param query - what to select; the whole output when empty or absent
 * @returns the selected text, with the output's ref, meta and size and how it was selected
 * @throws InvalidOptionError (`invalid_query`) as `queryToolOutput` does, before anything
 *   is read
 * @throws StorageError (`unknown_ref`) for a reference the store does not hold for this
 *   conversation (another conversation's among them), and whatever else `store.get` throws
 * @throws InvalidOptionError (`invalid_option`) from `store.get` for an invalid conversation id
 */
export async function readToolOutput(
  store: ToolOutputStore,
  conversationId: string,
  ref: string,
  query: ToolOutputQuery = {},
): Promise<ToolOutputSlice> {
  const apply = prepareToolOutputQuery(ref, query);
  return apply(await store.get(conversationId, ref));
}
