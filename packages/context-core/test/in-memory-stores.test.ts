import {
  createHeuristicCounter,
  createInMemoryEventStore,
  createInMemoryHistoryStore,
} from '../src/index.js';
import { testEventStore, testHistoryStore } from '../src/testing/index.js';

const counter = createHeuristicCounter();

testHistoryStore({
  name: 'in-memory history store',
  counter,
  create: async () => createInMemoryHistoryStore({ counter }),
});
testEventStore({ name: 'in-memory event store', create: async () => createInMemoryEventStore() });
