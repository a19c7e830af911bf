import {
  assertConversationId,
  assertToolOutput,
  assertToolOutputRef,
  type ContextError,
  createToolOutputRef,
  InvalidOptionError,
  type OptionKeys,
  optionChecker,
  StorageError,
  type StoredToolOutput,
  sharesAcrossConversations,
  type ToolOutputMeta,
  type ToolOutputScopeOptions,
  type ToolOutputStore,
  unknownToolOutputRef,
} from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import { createMigratedRunner } from './migrated-runner.js';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';

/** Options of {@link createKyselyToolOutputStore}. */
export interface KyselyToolOutputStoreOptions<Database = unknown> extends ToolOutputScopeOptions {
  /** An open Kysely instance on SQLite or PostgreSQL, such as a provider's `db`; never closed here. */
  db: Kysely<Database>;
}

/**
 * A {@link ToolOutputStore} on the `tool_outputs` table (one row per output, never changed),
 * next to the provider's history and events: pass a provider's `db` to share its database file,
 * so a worker's offloaded outputs live beside the history that refers to them. Outputs are kept
 * as JSON strings, so every text reads back byte for byte on SQLite and PostgreSQL alike. It is
 * storage only: `get` returns the whole text, and `@ctxkit/tool-output-store`'s `readToolOutput`
 * selects lines, grep matches or a JSON path from it. The schema is created or upgraded on first
 * use, as the provider does.
 *
 * Each row records its conversation in `conversation_id`, and a conversation reads only its own
 * rows unless the store is created with `shareAcrossConversations: true`. Rows the first release
 * stored without a conversation (its `put` copied `meta.conversationId` into the column, when
 * meta had one) are kept as they are and read only through a shared store: nothing tells whose
 * they are.
 * Errors are ContextErrors from `provider-sqlite`: `invalid_option` for a bad conversation id, an
 * output that is not a string, meta without a tool name, naming another conversation or that is
 * not JSON (before anything is written), `unknown_ref` as the interface says,
 * `corrupt_row` naming a row that cannot be read, and `storage_failed` when the database fails.
 *
 * @example
 * ```ts
 * const provider = createSqliteProvider({ filename: 'agent.db' });
 * const toolOutputs = createKyselyToolOutputStore({ db: provider.db });
 * const ref = await toolOutputs.put('c1', logs, { toolName: 'get_logs' });
 * const { text, meta } = await toolOutputs.get('c1', ref); // the whole output, as stored
 * ```
 *
 * @param options - the Kysely instance, and the scope
 * @returns the store; it never closes `db`
 * @throws InvalidOptionError (`invalid_option`) for a dialect other than SQLite and PostgreSQL,
 *   or a `shareAcrossConversations` that is not a boolean
 */
export function createKyselyToolOutputStore<Database>(
  options: KyselyToolOutputStoreOptions<Database>,
): ToolOutputStore {
  optionChecker(SOURCE, 'createKyselyToolOutputStore').knownKeys(options, OPTION_KEYS);
  const db = options.db as unknown as Kysely<ProviderTables>;
  const shared = sharesAcrossConversations(options, SOURCE);
  const run = createMigratedRunner(db);

  return Object.freeze({
    async put(conversationId: string, output: string, meta: ToolOutputMeta): Promise<string> {
      assertToolOutput(conversationId, output, meta, SOURCE);
      const row = {
        ref: createToolOutputRef(),
        conversation_id: conversationId,
        tool_name: meta.toolName,
        meta: metaJson(meta),
        output: JSON.stringify(output),
        chars: output.length,
        created_at: new Date().toISOString(),
      };
      await run(`store an output of ${meta.toolName}`, () =>
        db.insertInto('tool_outputs').values(row).execute(),
      );
      return row.ref;
    },
    async get(conversationId: string, ref: string): Promise<StoredToolOutput> {
      assertConversationId(conversationId, SOURCE);
      assertToolOutputRef(ref, SOURCE);
      const row = await run(`read tool output ${ref}`, () => {
        const byRef = db
          .selectFrom('tool_outputs')
          .select(['output', 'meta'])
          .where('ref', '=', ref);
        const scoped = shared ? byRef : byRef.where('conversation_id', '=', conversationId);
        return scoped.executeTakeFirst();
      });
      if (row === undefined) throw unknownToolOutputRef(ref, conversationId, SOURCE);
      const { output, meta } = fromRow(ref, row);
      return { ref, text: output, meta };
    },
  } satisfies ToolOutputStore);
}

// --- internal helpers ---

function metaJson(meta: ToolOutputMeta): string {
  try {
    return JSON.stringify(meta);
  } catch (cause) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: SOURCE,
      message: `Tool output meta of ${meta.toolName} cannot be stored as JSON: ${(cause as Error).message}`,
      cause,
    });
  }
}

function fromRow(
  ref: string,
  row: { output: string; meta: string },
): { output: string; meta: ToolOutputMeta } {
  let output: unknown;
  let meta: unknown;
  try {
    output = JSON.parse(row.output);
    meta = JSON.parse(row.meta);
  } catch (cause) {
    throw corruptOutput(ref, 'its output or meta is not valid JSON', cause);
  }
  if (typeof output !== 'string') throw corruptOutput(ref, 'its output is not a JSON string');
  if (
    typeof meta !== 'object' ||
    meta === null ||
    typeof (meta as ToolOutputMeta).toolName !== 'string'
  ) {
    throw corruptOutput(ref, 'its meta is not an object with a toolName');
  }
  return { output, meta: meta as ToolOutputMeta };
}

function corruptOutput(ref: string, problem: string, cause?: unknown): ContextError {
  return new StorageError({
    code: 'corrupt_row',
    source: SOURCE,
    message: `Tool output row ${ref} is corrupt: ${problem}.`,
    details: { table: 'tool_outputs', ref },
    cause,
  });
}

const OPTION_KEYS = Object.freeze({
  db: true,
  shareAcrossConversations: true,
} satisfies OptionKeys<KyselyToolOutputStoreOptions>);
