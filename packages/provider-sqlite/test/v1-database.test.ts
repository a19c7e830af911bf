import { readFileSync } from 'node:fs';
import type { ArchiveInfo, Message, StoredToolOutput } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import {
  createKyselySummaryStore,
  createKyselyToolOutputStore,
  createSqliteProvider,
} from '../src/index.js';
import {
  copyOfFixture,
  databaseRows,
  expectArchives,
  expectRowsKept,
  withoutCounts,
} from './database-fixture.js';

// test/fixtures/v1-database.sqlite was written by the first release of this package (commit
// 036c689, schema migrations 0001 to 0003): a script run with tsx in a checkout of that commit
// appended to two conversations ("ops" and "other"), archived the first five messages of "ops",
// recorded a context.compressed and a context.reset event, put a summary of "ops", and put two
// tool outputs, one with meta.conversationId "ops" (so that release also wrote "ops" into the
// row's conversation_id) and one without a conversation (conversation_id null). The messages hold
// thinking signatures, pinned and summary messages, parallel tool calls, string and object tool
// inputs, error results and non-ASCII text. v1-database.json is what that release read back from
// the file, token counts left out (they are a cache, recounted at will); its tool outputs are the
// slices that release's get returned, of which a store now returns the ref, text and meta.
const fixture = new URL('./fixtures/v1-database.sqlite', import.meta.url);
const expected = JSON.parse(
  readFileSync(new URL('./fixtures/v1-database.json', import.meta.url), 'utf8'),
) as {
  history: Record<string, Message[]>;
  archives: { info: ArchiveInfo; messages: Message[] }[];
  events: unknown[];
  summary: unknown;
  toolOutput: StoredToolOutput;
  toolOutputWithoutConversation: StoredToolOutput;
};

/** What a store reads back of an output the first release read back as `slice`. */
function storedPart({ ref, text, meta }: StoredToolOutput): StoredToolOutput {
  return { ref, text, meta };
}

describe('a database written by the first release', () => {
  it('reads back every message, archive, event, summary and tool output unchanged', async () => {
    const file = copyOfFixture(fixture);
    const before = databaseRows(file);
    const provider = createSqliteProvider({ filename: file, counter: createHeuristicCounter() });
    try {
      for (const [conversationId, messages] of Object.entries(expected.history)) {
        expect(withoutCounts(await provider.getHistory(conversationId))).toEqual(messages);
      }
      await expectArchives(provider, 'ops', expected.archives);
      expect(await provider.listEvents('ops')).toEqual(expected.events);
      const summaries = createKyselySummaryStore({ db: provider.db });
      expect(await summaries.get('ops')).toEqual(expected.summary);
      const outputs = createKyselyToolOutputStore({ db: provider.db });
      expect(await outputs.get('ops', expected.toolOutput.ref)).toEqual(
        storedPart(expected.toolOutput),
      );
    } finally {
      await provider.close();
    }
    expectRowsKept(file, before);
  });

  it('keeps each tool output in its conversation, and one stored without any for shared stores', async () => {
    const file = copyOfFixture(fixture);
    const before = databaseRows(file);
    const provider = createSqliteProvider({ filename: file, counter: createHeuristicCounter() });
    try {
      const scoped = createKyselyToolOutputStore({ db: provider.db });
      const unscoped = expected.toolOutputWithoutConversation.ref;
      for (const [conversationId, ref] of [
        ['other', expected.toolOutput.ref],
        ['ops', unscoped],
        ['other', unscoped],
      ] as const) {
        await expect(scoped.get(conversationId, ref)).rejects.toMatchObject({
          code: 'unknown_ref',
        });
      }
      const shared = createKyselyToolOutputStore({
        db: provider.db,
        shareAcrossConversations: true,
      });
      expect(await shared.get('ops', unscoped)).toEqual(
        storedPart(expected.toolOutputWithoutConversation),
      );
      expect(await shared.get('other', expected.toolOutput.ref)).toEqual(
        storedPart(expected.toolOutput),
      );
    } finally {
      await provider.close();
    }
    expectRowsKept(file, before);
  });

  it('keeps taking appends and tool outputs after the upgrade', async () => {
    const file = copyOfFixture(fixture);
    const provider = createSqliteProvider({ filename: file, counter: createHeuristicCounter() });
    try {
      await provider.append('ops', { role: 'user', content: 'And now?' });
      const history = withoutCounts(await provider.getHistory('ops'));
      expect(history.slice(0, -1)).toEqual(expected.history.ops);
      expect(history.at(-1)).toMatchObject({ role: 'user', content: 'And now?' });
      const outputs = createKyselyToolOutputStore({ db: provider.db });
      const ref = await outputs.put('ops', 'new output', { toolName: 'get_logs' });
      expect((await outputs.get('ops', ref)).text).toBe('new output');
      await expect(outputs.get('other', ref)).rejects.toMatchObject({ code: 'unknown_ref' });
    } finally {
      await provider.close();
    }
  });
});
