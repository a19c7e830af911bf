import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countMessageTokens, type Message, type TokenCounter } from '@ctxkit/context-core';
import { createSqliteProvider } from '@ctxkit/provider-sqlite';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { agentHistory } from './history-counting.js';
import { printTable } from './measure.js';

const MESSAGES = 100_000;
const BATCH = 100;
const WINDOW = 10_000;

/**
 * The SQLite provider against raw better-sqlite3 prepared statements doing the same work in the
 * same run: appending 100,000 agent messages (about 0.7 KB each) to one conversation in batches
 * of 100, one transaction per batch, and loading its newest 10,000-message window. Both sides
 * count tokens with the same heuristic counter (the tokenizer's own speed is the counters
 * bench's subject) and use the same pragmas (WAL, synchronous = FULL). The two sides alternate,
 * batch by batch and read by read, so machine load weighs on both alike.
 */
export async function benchProviderSqlite(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'ctxkit-bench-provider-sqlite-'));
  try {
    const counter = createHeuristicCounter();
    const filename = join(folder, 'provider.db');
    const provider = createSqliteProvider({ filename, counter });
    await provider.getHistory('warm-up');
    const { providerWrite, rawWrite } = await benchWrites(folder, provider, counter);

    const reader = new Database(filename, { readonly: true });
    const newest = reader.prepare(
      'select id, role, content, meta, tokens, token_counter from history ' +
        'where conversation_id = ? and archive_id is null order by position desc limit ?',
    );
    const rawRead = () => rawWindow(newest, 'bench', WINDOW);
    const providerRead = () => provider.getHistory('bench', { limit: WINDOW });
    const loaded = await providerRead();
    if (loaded.length !== WINDOW || rawRead().length !== WINDOW) {
      throw new Error(`expected ${WINDOW} messages, got ${loaded.length} and ${rawRead().length}`);
    }
    const reads = await alternate(rawRead, providerRead, 21);
    reader.close();
    await provider.close();

    printTable(
      `SQLite provider vs raw better-sqlite3: ${MESSAGES.toLocaleString('en')} messages appended in batches of ${BATCH}, newest ${WINDOW.toLocaleString('en')}-message window read`,
      [
        {
          operation: `append ${MESSAGES.toLocaleString('en')} (total)`,
          'provider (ms)': providerWrite.toFixed(0),
          'raw (ms)': rawWrite.toFixed(0),
          'provider / raw': (providerWrite / rawWrite).toFixed(2),
        },
        {
          operation: `read newest ${WINDOW.toLocaleString('en')} (median)`,
          'provider (ms)': reads.second.toFixed(1),
          'raw (ms)': reads.first.toFixed(1),
          'provider / raw': (reads.second / reads.first).toFixed(2),
        },
      ],
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// --- internal helpers ---

/**
 * Appends the same batches through the provider and by hand into another file, alternating batch
 * by batch so that both see the same machine load; total milliseconds of each side.
 */
async function benchWrites(
  folder: string,
  provider: ReturnType<typeof createSqliteProvider>,
  counter: TokenCounter,
): Promise<{ providerWrite: number; rawWrite: number }> {
  const messages = agentHistory(MESSAGES, { user: 200, reply: 120, output: 1_800, answer: 500 });
  const raw = rawAppender(join(folder, 'raw.db'), counter);
  let providerWrite = 0;
  let rawWrite = 0;
  for (let start = 0; start < messages.length; start += BATCH) {
    const batch = messages.slice(start, start + BATCH);
    providerWrite += await timed(() => provider.append('bench', batch));
    rawWrite += await timed(() => raw.append(batch));
  }
  raw.close();
  return { providerWrite, rawWrite };
}

async function timed(task: () => unknown): Promise<number> {
  const start = performance.now();
  await task();
  return performance.now() - start;
}

/**
 * Median times of two tasks run in alternation (after one warm-up run each), so that both see
 * the same machine load and garbage-collector state.
 */
async function alternate(
  first: () => unknown,
  second: () => unknown,
  rounds: number,
): Promise<{ first: number; second: number }> {
  await first();
  await second();
  const times: [number[], number[]] = [[], []];
  for (let round = 0; round < rounds; round++) {
    times[0].push(await timed(first));
    times[1].push(await timed(second));
  }
  const median = (values: number[]) =>
    values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  return { first: median(times[0]), second: median(times[1]) };
}

/** The same writes by hand: one prepared INSERT, one transaction per batch, same columns. */
function rawAppender(
  filename: string,
  counter: TokenCounter,
): { append(batch: readonly Message[]): void; close(): void } {
  const db = new Database(filename);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = wal');
  db.pragma('synchronous = full');
  db.exec(`
    create table history (
      id integer primary key autoincrement, conversation_id text not null, position integer not null,
      role text not null, content text not null, meta text, tokens integer not null,
      token_counter text not null, archive_id text, created_at text not null,
      unique (conversation_id, position));
    create index history_active on history (conversation_id, archive_id, position);`);
  const insert = db.prepare(
    'insert into history (conversation_id, position, role, content, meta, tokens, token_counter, created_at) ' +
      'values (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  let position = 0;
  const append = db.transaction((batch: readonly Message[]) => {
    const createdAt = new Date().toISOString();
    for (const message of batch) {
      insert.run(
        'bench',
        position++,
        message.role,
        JSON.stringify(message.content),
        message.meta === undefined ? null : JSON.stringify(message.meta),
        countMessageTokens(message, counter),
        counter.name,
        createdAt,
      );
    }
  });
  return { append: (batch) => append(batch), close: () => db.close() };
}

interface RawRow {
  id: number;
  role: Message['role'];
  content: string;
  meta: string | null;
  tokens: number;
  token_counter: string;
}

/** The same read by hand: newest rows by prepared statement, JSON parsed, oldest first. */
function rawWindow(
  statement: Database.Statement,
  conversationId: string,
  limit: number,
): Message[] {
  const rows = statement.all(conversationId, limit) as RawRow[];
  const messages: Message[] = [];
  for (let index = rows.length - 1; index >= 0; index--) {
    const row = rows[index] as RawRow;
    const message: Message = {
      id: String(row.id),
      role: row.role,
      content: JSON.parse(row.content),
      tokens: row.tokens,
      tokenCounter: row.token_counter,
    };
    if (row.meta !== null) message.meta = JSON.parse(row.meta);
    messages.push(message);
  }
  return messages;
}
