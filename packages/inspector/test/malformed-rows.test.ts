import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { runCtxkitHere as ctxkit, runCtxkit } from './cli-process.js';
import { CONVERSATION, recordConversation } from './recorded-conversation.js';

// Rows as a hand edit (or another program) leaves them in a real database the pipeline wrote:
// every subcommand that reads such a row gives one line naming it and exit code 2.

const { file } = await recordConversation(3);
const scratch = mkdtempSync(join(tmpdir(), 'ctxkit-inspector-malformed-'));

/** Sets a field of event 2's payload (the conversation's second build) to JSON `value`. */
const payloadField = (path: string, value: string) =>
  `update events set payload = json_set(payload, '${path}', json('${value}')) where id = 2`;

interface MalformedRow {
  /** What the row holds. */
  name: string;
  /** The statement that makes it. */
  edit: string;
  /** The row named: its table and id. */
  row: RegExp;
  /** The problem named. */
  problem: RegExp;
  /** Whether listing the conversations reads it (ids and build times). */
  listed: boolean;
}

const EVENT_2 = /Row 2 of table events/;
const MESSAGE_2 = /Row 2 of table history/;

const MALFORMED: MalformedRow[] = [
  // Payloads that are not a build.
  {
    name: 'a payload that is not JSON',
    edit: `update events set payload = '{"originalCount":' where id = 2`,
    row: EVENT_2,
    problem: /payload is not JSON/,
    listed: false,
  },
  {
    name: 'a payload that is a blob',
    edit: "update events set payload = x'7b7d' where id = 2",
    row: EVENT_2,
    problem: /payload is a blob/,
    listed: false,
  },
  {
    name: 'a payload that is a JSON array',
    edit: "update events set payload = '[]' where id = 2",
    row: EVENT_2,
    problem: /payload is an array, not an object/,
    listed: false,
  },
  {
    name: 'a null where a count is',
    edit: payloadField('$.originalCount', 'null'),
    row: EVENT_2,
    problem: /originalCount is null/,
    listed: false,
  },
  {
    name: 'a negative number of tokens',
    edit: payloadField('$.estimatedTokens', '-5'),
    row: EVENT_2,
    problem: /estimatedTokens is a number \(-5\)/,
    listed: false,
  },
  {
    name: 'a count too big for a number',
    edit: 'update events set payload = replace(payload, \'"compressedCount":3\', \'"compressedCount":1e400\') where id = 2',
    row: EVENT_2,
    problem: /compressedCount is a number \(Infinity\)/,
    listed: false,
  },
  {
    name: 'a string where the steps are',
    edit: payloadField('$.steps', '"trim"'),
    row: EVENT_2,
    problem: /steps is a string/,
    listed: false,
  },
  {
    name: 'a null step',
    edit: payloadField('$.steps[0]', 'null'),
    row: EVENT_2,
    problem: /steps\[0\] is null, not an object/,
    listed: false,
  },
  {
    name: 'a null change',
    edit: payloadField('$.changes[0]', 'null'),
    row: EVENT_2,
    problem: /changes\[0\] is null, not an object/,
    listed: false,
  },
  {
    name: 'a change whose id is a number',
    edit: payloadField('$.changes[1].id', '2'),
    row: EVENT_2,
    problem: /changes\[1\]\.id is a number \(2\)/,
    listed: false,
  },
  {
    name: 'a change of an unknown action',
    edit: payloadField('$.changes[0].action', '"exploded"'),
    row: EVENT_2,
    problem: /changes\[0\]\.action is a string \("exploded"\)/,
    listed: false,
  },
  {
    name: 'a null where a change counts its tokens',
    edit: payloadField('$.changes[0].tokensAfter', 'null'),
    row: EVENT_2,
    problem: /changes\[0\]\.tokensAfter is null/,
    listed: false,
  },
  {
    name: 'a string where the predicted cost is',
    edit: payloadField('$.predictedCost', '"cheap"'),
    row: EVENT_2,
    problem: /predictedCost is a string/,
    listed: false,
  },
  {
    name: 'a predicted cost without its cache writes',
    edit: "update events set payload = json_remove(payload, '$.predictedCost.cacheWriteTokens') where id = 2",
    row: EVENT_2,
    problem: /predictedCost\.cacheWriteTokens is missing/,
    listed: false,
  },
  {
    name: 'a string where the warnings are',
    edit: payloadField('$.predictedCost.warnings', '"none"'),
    row: EVENT_2,
    problem: /predictedCost\.warnings is a string/,
    listed: false,
  },
  {
    name: 'a string where the dollars are',
    edit: payloadField('$.predictedCost.inputUsd', '"0.01"'),
    row: EVENT_2,
    problem: /predictedCost\.inputUsd is a string/,
    listed: false,
  },
  // The columns around the payload.
  {
    name: 'a time that is not a time',
    edit: "update events set created_at = 'yesterday' where id = 2",
    row: EVENT_2,
    problem: /created_at is a string \("yesterday"\), not an ISO 8601 time/,
    listed: true,
  },
  {
    name: 'a time that is a blob',
    edit: "update events set created_at = x'00' where id = 2",
    row: EVENT_2,
    problem: /created_at is a blob/,
    listed: true,
  },
  {
    name: 'a build whose conversation id is a blob',
    edit: "update events set conversation_id = x'6f7073' where id = 2",
    row: EVENT_2,
    problem: /conversation_id is a blob, not text/,
    listed: true,
  },
  // Messages the builds name.
  {
    name: 'a message whose conversation id is a blob',
    edit: "update history set conversation_id = x'6f7073' where id = 2",
    row: MESSAGE_2,
    problem: /conversation_id is a blob, not text/,
    listed: true,
  },
  {
    name: 'a message whose content is a blob',
    edit: "update history set content = x'1b5b324a' where id = 2",
    row: MESSAGE_2,
    problem: /content is a blob, not JSON text/,
    listed: false,
  },
  {
    name: 'a message whose content is not JSON',
    edit: "update history set content = 'plain words' where id = 2",
    row: MESSAGE_2,
    problem: /content is not JSON/,
    listed: false,
  },
  {
    name: 'a message whose content is a number',
    edit: "update history set content = '42' where id = 2",
    row: MESSAGE_2,
    problem: /content is a number \(42\), not a string or a list of parts/,
    listed: false,
  },
  {
    name: 'a message whose parts are not parts',
    edit: `update history set content = '[null]' where id = 2`,
    row: MESSAGE_2,
    problem: /part 0 of its content is null/,
    listed: false,
  },
  {
    name: 'a message whose role is a blob',
    edit: "update history set role = x'75736572' where id = 2",
    row: MESSAGE_2,
    problem: /role is a blob, not text/,
    listed: false,
  },
];

/** Starts `ctxkit view` in this process; resolves with its exit code, or with its URL and a stop. */
async function view(database: string) {
  let stdout = '';
  let stderr = '';
  let stop = () => {};
  let listening = (_url: string) => {};
  const url = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const exited = runCli(['view', database, '--port', '0'], {
    stdout: {
      write: (text: string) => {
        stdout += text;
        const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(stdout);
        if (found) listening(found[0]);
      },
    },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    untilStopped: () => stopped,
  });
  const first = await Promise.race([url, exited]);
  if (typeof first === 'number') return { status: first, stderr };
  return {
    url: first,
    stop: async () => {
      stop();
      return { status: await exited, stderr };
    },
  };
}

/** Expects what bad input gives: nothing on stdout, one line naming the row, exit code 2. */
function expectRowNamed(
  result: { status: number | null; stdout?: string; stderr: string },
  malformed: MalformedRow,
) {
  expect(result.stdout ?? '').toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/^ctxkit: /);
  expect(result.stderr).toMatch(malformed.row);
  expect(result.stderr).toMatch(malformed.problem);
  expect(result.status).toBe(2);
}

describe('a malformed row: one line naming it and exit code 2, from every subcommand', () => {
  for (const malformed of MALFORMED) {
    it(malformed.name, async () => {
      const copy = join(scratch, `${MALFORMED.indexOf(malformed)}.sqlite`);
      copyFileSync(file, copy);
      const db = new Database(copy);
      expect(db.prepare(malformed.edit).run().changes).toBe(1);
      db.close();
      const conversation = ['--conversation', CONVERSATION];
      const list = await ctxkit(['inspect', copy]);
      if (malformed.listed) expectRowNamed(list, malformed);
      else expect([list.status, list.stderr]).toEqual([0, '']);
      expectRowNamed(await ctxkit(['inspect', copy, '--json']), malformed);
      expectRowNamed(await ctxkit(['inspect', copy, ...conversation]), malformed);
      expectRowNamed(await ctxkit(['inspect', copy, ...conversation, '--build', '2']), malformed);
      expectRowNamed(await ctxkit(['inspect', copy, ...conversation, '--json']), malformed);
      const html = join(scratch, `${MALFORMED.indexOf(malformed)}.html`);
      expectRowNamed(await ctxkit(['view', copy, '--html', html]), malformed);
      expect(existsSync(html)).toBe(false);
      const served = await view(copy);
      if (served.url === undefined) {
        // The conversations are read before serving: a row they hold stops `view` at once.
        expect(malformed.listed).toBe(true);
        expectRowNamed(served, malformed);
        return;
      }
      // Rows read per request: the page's request gets 422 and the line, the server goes on.
      const response = await fetch(`${served.url}api/conversation?id=${CONVERSATION}`);
      expect(response.status).toBe(422);
      const { error } = (await response.json()) as { error: string };
      expect(error.split('\n')).toHaveLength(1);
      expect(error).toMatch(malformed.row);
      expect(error).toMatch(malformed.problem);
      expect((await fetch(`${served.url}api/conversations`)).status).toBe(200);
      expect(await served.stop()).toEqual({ status: 0, stderr: '' });
    });
  }

  it('an event of a type this release does not know is left out, not an error', async () => {
    const copy = join(scratch, 'unknown-type.sqlite');
    copyFileSync(file, copy);
    const db = new Database(copy);
    db.prepare("update events set type = 'context.teleported' where id = 2").run();
    const builds = db
      .prepare("select count(*) as n from events where type = 'context.compressed'")
      .get() as { n: number };
    db.close();
    const { status, stdout } = await ctxkit([
      'inspect',
      copy,
      '--conversation',
      CONVERSATION,
      '--json',
    ]);
    expect(status).toBe(0);
    expect((JSON.parse(stdout) as { builds: unknown[] }).builds).toHaveLength(builds.n);
  });

  it('as a process: the line and exit code 2, never a stack trace', () => {
    const malformed = MALFORMED.find((row) => row.name === 'a null change') as MalformedRow;
    const copy = join(scratch, 'process.sqlite');
    copyFileSync(file, copy);
    const db = new Database(copy);
    db.prepare(malformed.edit).run();
    db.close();
    const result = runCtxkit(['inspect', copy, '--conversation', CONVERSATION, '--build', '2']);
    expectRowNamed(result, malformed);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
