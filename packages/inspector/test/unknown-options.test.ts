import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { afterAll, describe, it } from 'vitest';
import { openInspectedDatabase, readBuilds, startViewer } from '../src/index.js';
import { CONVERSATION, recordConversation } from './recorded-conversation.js';

const { file } = await recordConversation();
const database = await openInspectedDatabase(file);
afterAll(() => database.close());

describe('options objects of the inspector library', () => {
  it('readBuilds refuses a misspelt key, naming the closest known one', async () => {
    await unknownOptionRefused(
      () => readBuilds(database, CONVERSATION, { pageSiz: 10 } as never),
      'pageSiz',
      'pageSize',
    );
  });

  it('startViewer refuses a misspelt key before it listens', async () => {
    await unknownOptionRefused(() => startViewer(database, { prot: 0 } as never), 'prot', 'port');
  });
});
