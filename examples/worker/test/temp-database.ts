import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A path for a fresh SQLite file in a new temporary directory, and a function that removes it. */
export function tempDatabase(): { file: string; remove: () => void } {
  const directory = mkdtempSync(join(tmpdir(), 'ctxkit-worker-test-'));
  return {
    file: join(directory, 'worker.sqlite'),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
