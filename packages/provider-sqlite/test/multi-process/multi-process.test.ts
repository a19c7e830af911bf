import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { createSqliteProvider } from '../../src/index.js';
import { expectWholeBatches } from '../batch-check.js';
import { tempDatabasePath } from '../helpers.js';

const CHILDREN = 4;
const BATCHES = 25;

it(`${CHILDREN} processes appending to one new file at once lose nothing and never interleave a batch`, async () => {
  const filename = tempDatabasePath();
  const children = Array.from({ length: CHILDREN }, (_, index) =>
    startChild(filename, `p${index}`),
  );
  let codes: (number | null)[];
  try {
    await Promise.all(children.map((child) => child.output('ready')));
    for (const child of children) child.process.stdin?.write('go\n');
    // A child that fails leaves the others waiting for its first batch: stop them at once.
    for (const child of children) {
      child.exit.then((code) => {
        if (code !== 0) for (const other of children) other.process.kill();
      });
    }
    codes = await Promise.all(children.map((child) => child.exit));
  } finally {
    for (const child of children) child.process.kill();
  }
  expect(codes).toEqual(children.map(() => 0));
  expect(children.map((child) => child.lines().at(-1))).toEqual(children.map(() => 'done'));

  const provider = createSqliteProvider({ filename, counter: createHeuristicCounter() });
  const history = await provider.getHistory('shared');
  await provider.close();
  expectWholeBatches(history, CHILDREN * BATCHES);
  // Each child waits after its first batch until every child has stored one.
  const firstBatches = new Set<string>();
  for (const message of history) {
    const [writer, batch] = String(message.content).split(':');
    if (batch === '0') firstBatches.add(writer as string);
    else break;
  }
  expect(firstBatches.size).toBe(CHILDREN);

  const raw = new Database(filename, { readonly: true });
  const positions = raw
    .prepare("select position from history where conversation_id = 'shared' order by position")
    .pluck()
    .all() as number[];
  expect(positions).toEqual(positions.map((_, index) => index));
  expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
  // The racing processes recorded the same migrations as one process alone on a fresh file.
  const alone = tempDatabasePath('alone.db');
  const single = createSqliteProvider({ filename: alone, counter: createHeuristicCounter() });
  await single.getHistory('shared');
  await single.close();
  const expected = new Database(alone, { readonly: true });
  const migrations = 'select name from ctxkit_migration order by name';
  expect(raw.prepare(migrations).pluck().all()).toEqual(expected.prepare(migrations).pluck().all());
  expected.close();
  raw.close();
});

// --- internal helpers ---

interface Child {
  process: ChildProcess;
  exit: Promise<number | null>;
  output(line: string): Promise<void>;
  lines(): string[];
}

function startChild(filename: string, writer: string): Child {
  const script = fileURLToPath(new URL('./append-child.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions=@ctxkit/source',
      script,
      filename,
      writer,
      String(BATCHES),
      String(CHILDREN),
    ],
    { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let text = '';
  const waiting: { line: string; resolve: () => void }[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    for (const waiter of waiting.splice(0)) {
      if (lines().includes(waiter.line)) waiter.resolve();
      else waiting.push(waiter);
    }
  });
  const lines = () => text.split('\n').filter(Boolean);
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return {
    process: child,
    exit,
    lines,
    output: (line) =>
      lines().includes(line)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiting.push({ line, resolve })),
            exit.then((code) => {
              throw new Error(`child ${writer} exited with ${code} before printing ${line}`);
            }),
          ]),
  };
}
