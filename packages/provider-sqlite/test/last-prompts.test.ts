import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteProvider, type KyselyProvider } from '../src/index.js';
import { copyOfFixture } from './database-fixture.js';
import { tempDatabasePath } from './helpers.js';
import { storedPrompt, testLastPromptStorage } from './last-prompt-suite.js';

const counter = createHeuristicCounter();
const files = new WeakMap<KyselyProvider, string>();
const open = (filename: string): KyselyProvider => {
  const provider = createSqliteProvider({ filename, counter });
  files.set(provider, filename);
  return provider;
};

testLastPromptStorage({
  name: 'createSqliteProvider on a file',
  open: async () => open(tempDatabasePath()),
  reopen: async (provider) => {
    await provider.close();
    return open(files.get(provider) as string);
  },
  close: (provider) => provider.close(),
});

describe('last prompts on SQLite', () => {
  it('names a corrupt row instead of returning it', async () => {
    const filename = tempDatabasePath();
    const provider = open(filename);
    await provider.putLastPrompt('c', storedPrompt());
    await provider.putLastPrompt('d', storedPrompt());
    await provider.close();
    const raw = new Database(filename);
    raw.prepare("update last_prompts set prompt = '{not json' where conversation_id = 'c'").run();
    raw
      .prepare(
        `update last_prompts set prompt = json_set(prompt, '$.origins[1].inputIndex', 9) where conversation_id = 'd'`,
      )
      .run();
    raw.close();
    const reopened = open(filename);
    await expect(reopened.getLastPrompt('c')).rejects.toMatchObject({
      code: 'corrupt_row',
      message: expect.stringContaining('"c"'),
    });
    await expect(reopened.getLastPrompt('d')).rejects.toMatchObject({
      code: 'corrupt_row',
      message: expect.stringContaining('origins[1].inputIndex'),
    });
    await reopened.close();
  });

  it('indexes its lookup', async () => {
    const filename = tempDatabasePath();
    const provider = open(filename);
    await provider.putLastPrompt('c', storedPrompt());
    await provider.close();
    const raw = new Database(filename, { readonly: true });
    const plan = raw
      .prepare('explain query plan select prompt from last_prompts where conversation_id = ?')
      .all('c') as { detail: string }[];
    expect(plan.map((step) => step.detail).join('; ')).not.toMatch(/SCAN last_prompts\b(?! USING)/);
    raw.close();
  });

  it('comes to a database of the first release with its upgrade, and keeps prompts there', async () => {
    const filename = copyOfFixture(new URL('./fixtures/v1-database.sqlite', import.meta.url));
    const provider = open(filename);
    expect(await provider.getLastPrompt('ops')).toBeUndefined();
    await provider.putLastPrompt('ops', storedPrompt());
    await provider.close();
    const reopened = open(filename);
    expect(await reopened.getLastPrompt('ops')).toEqual(storedPrompt());
    await reopened.close();
  });
});
