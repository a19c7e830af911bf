/**
 * A worker process that dies (SIGKILL) the moment a task's turn is stored, for
 * worker-lease.test.ts: it runs the real worker on `CTX_DB` with settings from the environment,
 * like `cli run`, and kills itself as soon as the store's write (`append` or `transaction`) that
 * stored the turn returns.
 */
import type { KyselyProvider } from '@ctxkit/provider-sqlite';
import { loadConfig } from '../src/config.js';
import { createComponents } from '../src/create-components.js';
import { runWorker } from '../src/worker.js';

const config = loadConfig(process.env);
const components = createComponents(config);
const store = components.store;
const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: the process was killed');
};
const dying = Object.freeze({
  ...store,
  append: async (...args: Parameters<KyselyProvider['append']>) => {
    await store.append(...args);
    return die();
  },
  transaction: async (...args: Parameters<KyselyProvider['transaction']>) => {
    await store.transaction(...args);
    return die();
  },
}) as KyselyProvider;
await runWorker({
  queue: components.queue,
  components: { ...components, store: dying },
  settings: config,
});
