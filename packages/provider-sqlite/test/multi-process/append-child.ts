// A child process for the multi-process test: `append-child.ts <file> <writer> <batches> <writers>`.
// Prints "ready" once loaded, waits for a line on stdin so that every child starts together,
// appends its labelled batches to conversation "shared", then prints "done". After its first
// batch it waits until every writer has stored one, so all of them are writing at the same time.
import { createInterface } from 'node:readline';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { createSqliteProvider } from '../../src/index.js';
import { labelledBatch } from '../batch-check.js';

const [filename, writer, batches, writers] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const lines = createInterface({ input: process.stdin });
const go = new Promise((resolve) => lines.once('line', resolve));
console.log('ready');
await go;
lines.close();
const provider = createSqliteProvider({ filename, counter: createHeuristicCounter() });
for (let batch = 0; batch < Number(batches); batch++) {
  await provider.append(
    'shared',
    labelledBatch(writer, batch, 1 + ((batch * 7 + writer.length) % 20)),
  );
  while (batch === 0 && (await writersSoFar()) < Number(writers)) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
await provider.close();
console.log('done');

async function writersSoFar(): Promise<number> {
  const history = await provider.getHistory('shared');
  return new Set(history.map((message) => String(message.content).split(':')[0])).size;
}
