import { ContextError } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteProvider } from '../src/index.js';
import { call, result, tempDatabasePath, user } from './helpers.js';

const counter = createHeuristicCounter();

/** A file with two conversations, then one history row of "c" overwritten with SQL. */
async function withCorruptRow(column: string, value: unknown, index = 1) {
  const filename = tempDatabasePath();
  const provider = createSqliteProvider({ filename, counter });
  const stored = await provider.append('c', [
    user('first'),
    call('t1'),
    result('t1'),
    user('last'),
  ]);
  await provider.append('other', user('untouched'));
  const rowId = stored[index]?.id as string;
  const raw = new Database(filename);
  raw.prepare(`update history set ${column} = ? where id = ?`).run(value, Number(rowId));
  raw.close();
  return { provider, stored, rowId };
}

async function corruptError(promise: Promise<unknown>): Promise<ContextError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ContextError.isInstance(error, 'corrupt_row')).toBe(true);
  return error as ContextError;
}

describe('corrupt rows', () => {
  it.each([
    ['content that is not JSON', 'content', '{"type": "text", '],
    ['an unknown role', 'role', 'robot'],
    ['content JSON of the wrong shape', 'content', '{"text": "not parts"}'],
    ['an unknown part type', 'content', '[{"type": "picture", "url": "x"}]'],
    ['meta that is not JSON', 'meta', 'pinned'],
    ['meta that is not an object', 'meta', '[1, 2]'],
    ['a negative token count', 'tokens', -3],
    ['image bytes that are not base64', 'content', '[{"type":"image","image":{"bytes":"a b"}}]'],
    ['media data in no stored form', 'content', '[{"type":"image","image":{"pixels":[1]}}]'],
    [
      'a stored URL that does not parse',
      'content',
      '[{"type":"file","mediaType":"text/plain","data":{"url":"no url"}}]',
    ],
    ['provider options that are not JSON', 'provider_options', '{"openai": '],
    ['provider options that are not objects of options', 'provider_options', '{"openai": 1}'],
  ])(
    'names the row id for %s, and leaves everything else readable',
    async (_name, column, value) => {
      const { provider, stored, rowId } = await withCorruptRow(column, value);
      const error = await corruptError(provider.getHistory('c'));
      expect(error.message).toContain(`History row ${rowId} `);
      expect(error.message).toContain('conversation "c"');
      expect(error.source).toBe('provider-sqlite');
      expect(error.details).toMatchObject({ table: 'history', rowId });
      expect(await provider.getHistory('other')).toHaveLength(1);
      expect(await provider.getHistory('c', { limit: 1 })).toEqual(stored.slice(3));
      await provider.append('c', user('still appendable'));
      expect(await provider.getHistory('c', { limit: 1 })).toHaveLength(1);
      await provider.close();
    },
  );

  it('says what is wrong with the row', async () => {
    const { provider } = await withCorruptRow('role', 'robot');
    await expect(provider.getHistory('c')).rejects.toThrow(/unknown role "robot"/);
    await provider.close();
    const second = await withCorruptRow('content', '[{"type": "picture"}]');
    await expect(second.provider.getHistory('c')).rejects.toThrow(
      /part 0: unknown part type "picture"/,
    );
    await second.provider.close();
    const third = await withCorruptRow(
      'content',
      JSON.stringify([
        {
          type: 'tool-result',
          toolCallId: 'x',
          toolName: 'shot',
          output: { type: 'content', value: [{ type: 'image', image: { bytes: '%%%%' } }] },
        },
      ]),
      2,
    );
    await expect(third.provider.getHistory('c')).rejects.toThrow(
      /part 0: output\.value\[0\]: image\.image holds bytes that are not base64/,
    );
    await third.provider.close();
  });

  it('reports a corrupt row inside an archive the same way', async () => {
    const { provider, rowId } = await withCorruptRow('content', 'not json', 2);
    const { archiveId } = await provider.archive('c');
    const error = await corruptError(provider.getArchive('c', archiveId));
    expect(error.message).toContain(
      `History row ${rowId} (archive "${archiveId}" of conversation "c")`,
    );
    expect(await provider.listArchives('c')).toMatchObject([{ archiveId, count: 4 }]);
    expect(await provider.getHistory('c')).toEqual([]);
    await provider.close();
  });

  it('names the event row whose payload is corrupt, and lists the others', async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({ filename, counter });
    const at = '2026-01-01T00:00:00.000Z';
    await provider.record({
      type: 'context.reset',
      conversationId: 'a',
      at,
      payload: { archiveId: 'x', archived: 1, tokens: 9, threshold: 8 },
    });
    await provider.record({
      type: 'context.reset',
      conversationId: 'b',
      at,
      payload: { archiveId: 'x', archived: 2, tokens: 9, threshold: 8 },
    });
    const raw = new Database(filename);
    const id = raw.prepare("select id from events where conversation_id = 'a'").pluck().get();
    raw.prepare('update events set payload = ? where id = ?').run('{"n": ', id);
    raw.close();
    const error = await corruptError(provider.listEvents());
    expect(error.message).toContain(`Event row ${String(id)} is corrupt`);
    expect(await provider.listEvents('b')).toEqual([
      {
        type: 'context.reset',
        conversationId: 'b',
        at,
        payload: { archiveId: 'x', archived: 2, tokens: 9, threshold: 8 },
      },
    ]);
    await provider.close();
  });
});
