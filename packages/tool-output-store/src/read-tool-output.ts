import type { ToolOutputStore } from '@ctxkit/context-core';
import { prepareToolOutputQuery } from './query-tool-output.js';
import type { ToolOutputQuery, ToolOutputSlice } from './tool-output-query.js';

/**
 * Reads the part of a stored output that `query` selects, as conversation `conversationId`:
 * checks the query first (so a malformed one fails alike whether the output exists or not, and
 * reads nothing), then reads the whole output through `store.get` and applies the query with
 * `queryToolOutput`. Throws what `store.get` throws (`unknown_ref` for a reference the store does
 * not hold for this conversation, another conversation's among them) and `invalid_query` as
 * `queryToolOutput` does. Never changes the store.
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
