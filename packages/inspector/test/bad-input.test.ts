import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCtxkit, runCtxkitHere } from './cli-process.js';
import { CONVERSATION, recordConversation } from './recorded-conversation.js';

const { file } = await recordConversation(3);
const scratch = mkdtempSync(join(tmpdir(), 'ctxkit-inspector-bad-'));

/** Expects exit code 2 and exactly one line on stderr, matching `pattern`, from `ctxkit` run as a process. */
function expectBadInput(args: string[], pattern: RegExp) {
  expectOneLine(runCtxkit(args), pattern);
}

/** The same, from `ctxkit` run in this process: for bad input that needs no process to show. */
async function expectBadInputHere(args: string[], pattern: RegExp) {
  expectOneLine(await runCtxkitHere(args), pattern);
}

function expectOneLine(
  { status, stdout, stderr }: { status: number | null; stdout: string; stderr: string },
  pattern: RegExp,
) {
  expect(stdout).toBe('');
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(pattern);
  expect(status).toBe(2);
}

describe('bad input: one line on stderr, exit code 2', () => {
  it('a missing file', () => {
    expectBadInput(
      ['inspect', join(scratch, 'nowhere.sqlite')],
      /No database at .*nowhere\.sqlite/,
    );
    expectBadInput(
      ['view', join(scratch, 'nowhere.sqlite'), '--html', join(scratch, 'x.html')],
      /No database at/,
    );
  });

  it('a file that is not a database, and a corrupt database', () => {
    const text = join(scratch, 'notes.txt');
    writeFileSync(text, 'these are notes, not a database\n');
    expectBadInput(['inspect', text], /notes\.txt is not a SQLite database/);
    const corrupt = join(scratch, 'corrupt.sqlite');
    const bytes = Buffer.alloc(8192, 0xa5);
    bytes.write('SQLite format 3\0', 0, 'latin1');
    writeFileSync(corrupt, bytes);
    expectBadInput(
      ['inspect', corrupt],
      /corrupt\.sqlite starts like a SQLite database but is corrupt/,
    );
  });

  it("another application's database", () => {
    const foreign = join(scratch, 'foreign.sqlite');
    const db = new Database(foreign);
    db.exec('create table users (id integer primary key, name text)');
    db.close();
    expectBadInput(
      ['inspect', foreign],
      /is not a ctxkit database: it has no history, events, ctxkit_migration tables/,
    );
  });

  it('a database a newer release migrated', () => {
    const newer = join(scratch, 'newer.sqlite');
    copyFileSync(file, newer);
    const db = new Database(newer);
    db.prepare('insert into ctxkit_migration (name, timestamp) values (?, ?)').run(
      '9001_from_the_future',
      new Date().toISOString(),
    );
    db.close();
    expectBadInput(['inspect', newer], /newer ctxkit \(migration 9001_from_the_future is unknown/);
  });

  it('an unknown conversation or build, and bad arguments', async () => {
    await expectBadInputHere(
      ['inspect', file, '--conversation', 'nobody'],
      /holds no conversation "nobody"/,
    );
    await expectBadInputHere(
      ['inspect', file, '--conversation', CONVERSATION, '--build', '99'],
      /no build 99/,
    );
    await expectBadInputHere(['inspect', file, '--verbose'], /Unknown option '--verbose'/);
    await expectBadInputHere(['inspect', file, '--port', '80'], /--port belongs to ctxkit view/);
    await expectBadInputHere(['explain', file], /unknown command "explain"/);
  });

  it('a port that is in use', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      expectBadInput(
        ['view', file, '--port', String(port)],
        /Cannot listen on 127\.0\.0\.1:\d+: the port is in use/,
      );
    } finally {
      taken.close();
    }
  });
});
