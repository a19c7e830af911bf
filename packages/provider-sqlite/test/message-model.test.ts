import { createHeuristicCounter } from '@ctxkit/token-counters';
import { createSqliteProvider, type KyselyProvider } from '../src/index.js';
import { tempDatabasePath } from './helpers.js';
import { testMessageModelStorage } from './message-model-suite.js';

const counter = createHeuristicCounter();
const close = (provider: KyselyProvider) => provider.close();

testMessageModelStorage({
  name: 'createSqliteProvider({ filename: ":memory:" })',
  open: async () => createSqliteProvider({ filename: ':memory:', counter }),
  close,
});

testMessageModelStorage({
  name: 'createSqliteProvider({ filename }) on a file',
  open: async () => createSqliteProvider({ filename: tempDatabasePath(), counter }),
  close,
});
