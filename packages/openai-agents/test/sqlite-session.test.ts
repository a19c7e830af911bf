import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteProvider } from '@ctxkit/provider-sqlite';
import type { AgentInputItem } from '@openai/agents-core';
import { afterAll, expect, it } from 'vitest';
import { createProviderSession } from '../src/index.js';
import { sessionCounter, testProviderSession } from './session-suite.js';

const folder = mkdtempSync(join(tmpdir(), 'ctxkit-openai-agents-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const filename = join(folder, 'sessions.db');

testProviderSession('a SQLite file', {
  open: async () => createSqliteProvider({ filename, counter: sessionCounter }),
  close: (provider) => provider.close(),
});

it('a session reads its items back from the file after the process reopens it', async () => {
  const file = join(folder, 'reopen.db');
  const items: AgentInputItem[] = [
    { role: 'user', content: 'Hello' },
    {
      type: 'reasoning',
      id: 'rs_1',
      content: [],
      providerData: { encryptedContent: 'gAAAAB-sealed' },
    },
    {
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Hi.' }],
    },
  ];
  const first = createSqliteProvider({ filename: file, counter: sessionCounter });
  await createProviderSession({ provider: first, sessionId: 'chat' }).addItems(items);
  await first.close();
  const second = createSqliteProvider({ filename: file, counter: sessionCounter });
  expect(
    await createProviderSession({ provider: second, sessionId: 'chat' }).getItems(),
  ).toStrictEqual(items);
  await second.close();
});
