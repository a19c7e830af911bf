import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContextManager } from '@ctxkit/context-manager';
import { createSqliteProvider } from '@ctxkit/provider-sqlite';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ConversationReport } from '../src/index.js';
import {
  checksum,
  runCtxkit,
  runCtxkitHere,
  runCtxkitUnprivileged,
  startCtxkitView,
} from './cli-process.js';
import { CONVERSATION, recordConversation } from './recorded-conversation.js';

const { file: recorded, builds } = await recordConversation(2);

/** A directory of its own holding a copy of the recorded WAL-mode database, as the provider left it. */
function walDatabase(name: string): { directory: string; file: string } {
  const directory = mkdtempSync(join(tmpdir(), `ctxkit-inspector-${name}-`));
  const file = join(directory, 'agent.sqlite');
  copyFileSync(recorded, file);
  return { directory, file };
}

describe('the database and its directory are left exactly as they were found', () => {
  it('inspect, --json, --build, view --html and a served view write no byte and create no -wal or -shm file', async () => {
    const { directory, file } = walDatabase('side-files');
    const html = join(mkdtempSync(join(tmpdir(), 'ctxkit-inspector-page-')), 'page.html');
    const before = readdirSync(directory);
    const bytes = checksum(file);
    expect(before).toEqual(['agent.sqlite']);
    const runs = [
      ['inspect', file],
      ['inspect', file, '--json'],
      ['inspect', file, '--conversation', CONVERSATION, '--build', '2'],
      ['view', file, '--html', html],
    ];
    for (const args of runs) {
      expect(runCtxkit(args).status).toBe(0);
      expect([args.join(' '), readdirSync(directory)]).toEqual([args.join(' '), before]);
    }
    const view = await startCtxkitView(file);
    expect((await fetch(view.url)).status).toBe(200);
    const report = await fetch(`${view.url}api/conversation?id=${CONVERSATION}`);
    expect(report.status).toBe(200);
    expect(((await report.json()) as ConversationReport).builds).toHaveLength(builds);
    expect((await fetch(`${view.url}api/conversations`, { method: 'POST' })).status).toBe(405);
    // Bound to 127.0.0.1 alone: another loopback address of this machine finds nothing there.
    const elsewhere = new URL(view.url);
    elsewhere.hostname = '127.0.0.2';
    await expect(fetch(elsewhere)).rejects.toMatchObject({
      cause: expect.objectContaining({ code: 'ECONNREFUSED' }),
    });
    expect(await view.stop()).toBe(0);
    expect(readdirSync(directory)).toEqual(before);
    expect(checksum(file)).toBe(bytes);
  });

  it('while the agent has it open: reads its last writes, and leaves its -wal and -shm to it', async () => {
    const { directory, file } = walDatabase('open-writer');
    const provider = createSqliteProvider({ filename: file });
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 4_000, events: provider });
    const fitOnce = async () => {
      await provider.append(CONVERSATION, { role: 'user', content: 'And now?' });
      await manager.fit(await provider.getHistory(CONVERSATION), { conversationId: CONVERSATION });
    };
    try {
      await fitOnce();
      const open = readdirSync(directory).sort();
      expect(open).toEqual(['agent.sqlite', 'agent.sqlite-shm', 'agent.sqlite-wal']);
      const read = (args: string[] = []) => {
        const result = runCtxkit([
          'inspect',
          file,
          '--conversation',
          CONVERSATION,
          '--json',
          ...args,
        ]);
        expect(result.stderr).toBe('');
        return (JSON.parse(result.stdout) as ConversationReport).builds.length;
      };
      expect(read()).toBe(builds + 1);
      expect(readdirSync(directory).sort()).toEqual(open);
      // A served view reads afresh on every request, while the agent goes on writing.
      const view = await startCtxkitView(file);
      const served = async () =>
        (
          (await (
            await fetch(`${view.url}api/conversation?id=${CONVERSATION}`)
          ).json()) as ConversationReport
        ).builds.length;
      expect(await served()).toBe(builds + 1);
      await fitOnce();
      expect(await served()).toBe(builds + 2);
      expect(await view.stop()).toBe(0);
      expect(readdirSync(directory).sort()).toEqual(open);
    } finally {
      await provider.close();
    }
    // The agent's own close removes them, as it would have without the inspector.
    expect(readdirSync(directory)).toEqual(['agent.sqlite']);
  });
});

describe('a file that cannot be opened: its own true cause, one line, exit code 2', () => {
  const base = mkdtempSync(join(tmpdir(), 'ctxkit-inspector-unopenable-'));
  chmodSync(base, 0o755);

  /** Expects exit code 2 and one line on stderr that matches `cause`; nothing left beside the file. */
  function expectCause(
    result: { status: number | null; stdout: string; stderr: string },
    cause: RegExp,
  ) {
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(cause);
    expect(result.status).toBe(2);
  }

  it('a WAL-mode database in a directory this user may not write', () => {
    const directory = join(base, 'read-only');
    mkdirSync(directory);
    const file = join(directory, 'agent.sqlite');
    copyFileSync(recorded, file);
    chmodSync(file, 0o644);
    chmodSync(directory, 0o555);
    expectCause(
      runCtxkitUnprivileged(['inspect', file]),
      /Cannot read .*agent\.sqlite: it is a WAL-mode database, and reading one needs agent\.sqlite-shm and -wal beside it, which this user may not create in .*read-only/,
    );
    expect(readdirSync(directory)).toEqual(['agent.sqlite']);
  });

  it('a WAL-mode database this user may not write, in a directory it may', () => {
    const directory = join(base, 'shared');
    mkdirSync(directory);
    chmodSync(directory, 0o777);
    const file = join(directory, 'agent.sqlite');
    copyFileSync(recorded, file);
    chmodSync(file, 0o444);
    expectCause(
      runCtxkitUnprivileged(['inspect', file]),
      /Cannot read .*agent\.sqlite: it is a WAL-mode database that this user may not write, and reading it would leave agent\.sqlite-shm and -wal files behind/,
    );
    expect(readdirSync(directory)).toEqual(['agent.sqlite']);
  });

  it('a database in another journal mode reads fine from a read-only directory, creating nothing', () => {
    const directory = join(base, 'read-only-rollback');
    mkdirSync(directory);
    const file = join(directory, 'agent.sqlite');
    copyFileSync(recorded, file);
    const db = new Database(file);
    db.pragma('journal_mode = delete');
    db.close();
    chmodSync(file, 0o644);
    chmodSync(directory, 0o555);
    const result = runCtxkitUnprivileged(['inspect', file]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(CONVERSATION);
    expect(readdirSync(directory)).toEqual(['agent.sqlite']);
  });

  it('a file this user may not read', () => {
    const file = join(base, 'secret.sqlite');
    copyFileSync(recorded, file);
    chmodSync(file, 0o000);
    expectCause(
      runCtxkitUnprivileged(['inspect', file]),
      /Cannot read .*secret\.sqlite: this user has no permission to read it \(EACCES\)/,
    );
  });

  it('a file behind a directory this user may not search', () => {
    const directory = join(base, 'closed');
    mkdirSync(directory);
    const file = join(directory, 'agent.sqlite');
    copyFileSync(recorded, file);
    chmodSync(directory, 0o600);
    expectCause(
      runCtxkitUnprivileged(['inspect', file]),
      /Cannot read .*closed\/agent\.sqlite: this user may not search a directory of its path \(EACCES\)/,
    );
  });

  // Causes found before any permission matters: run in this process (bad-input.test.ts runs
  // such a cause as a process, with its exit code).
  it('a directory, an empty file, a file of another kind, a corrupt database', async () => {
    expectCause(
      await runCtxkitHere(['inspect', base]),
      /unopenable-\w+ is a directory, not a SQLite database file/,
    );
    const empty = join(base, 'empty.sqlite');
    writeFileSync(empty, '');
    expectCause(
      await runCtxkitHere(['inspect', empty]),
      /empty\.sqlite is empty, not a SQLite database/,
    );
    const text = join(base, 'notes.sqlite');
    writeFileSync(text, 'these are notes, not a database\n');
    expectCause(
      await runCtxkitHere(['inspect', text]),
      /notes\.sqlite is not a SQLite database: it does not start with SQLite's header/,
    );
    const corrupt = join(base, 'corrupt.sqlite');
    const bytes = Buffer.alloc(8192, 0xa5);
    bytes.write('SQLite format 3\0', 0, 'latin1');
    writeFileSync(corrupt, bytes);
    expectCause(
      await runCtxkitHere(['inspect', corrupt]),
      /corrupt\.sqlite starts like a SQLite database but is corrupt: SQLite says "[^"]+"/,
    );
  });
});
