import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContextManager } from '@ctxkit/context-manager';
import { createSqliteProvider } from '@ctxkit/provider-sqlite';
import { describe, expect, it } from 'vitest';
import type { ConversationReport, ConversationSummary } from '../src/index.js';
import { runCtxkit, startCtxkitView } from './cli-process.js';

// Names an object used as a map gets wrong: `__proto__` sets the prototype instead of a key,
// `constructor` and `hasOwnProperty` are found on every object without being keys.
const NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'plain'];

const directory = mkdtempSync(join(tmpdir(), 'ctxkit-inspector-names-'));
const file = join(directory, 'names.sqlite');
{
  const provider = createSqliteProvider({ filename: file });
  const manager = createContextManager({ model: 'gpt-4o', events: provider });
  for (const [index, name] of NAMES.entries()) {
    // A different number of builds each, to tell the reports apart.
    for (let turn = 0; turn <= index; turn++) {
      await provider.append(name, { role: 'user', content: `Message ${turn} of ${name}` });
      await manager.fit(await provider.getHistory(name), { conversationId: name });
    }
  }
  await provider.close();
}

/** A report holds its conversation's builds: one more for each name in {@link NAMES}. */
function expectReportOf(name: string, report: ConversationReport | undefined) {
  expect(report?.conversation.id).toBe(name);
  expect(report?.builds).toHaveLength(NAMES.indexOf(name) + 1);
}

describe('conversations named like the properties of every object', () => {
  it('are listed, and shown by inspect --conversation', () => {
    const { stdout } = runCtxkit(['inspect', file, '--json']);
    const { conversations } = JSON.parse(stdout) as { conversations: ConversationReport[] };
    expect(conversations.map((report) => report.conversation.id).sort()).toEqual([...NAMES].sort());
    for (const report of conversations) expectReportOf(report.conversation.id, report);
    const one = runCtxkit(['inspect', file, '--conversation', '__proto__', '--json']);
    expect(one.status).toBe(0);
    expectReportOf('__proto__', JSON.parse(one.stdout) as ConversationReport);
  });

  it('are in the data of the --html page, each under its own key', () => {
    const html = join(directory, 'names.html');
    expect(runCtxkit(['view', file, '--html', html]).status).toBe(0);
    const embedded = /<script type="application\/json" id="ctxkit-data">(.*?)<\/script>/s.exec(
      readFileSync(html, 'utf8'),
    );
    // The page parses its data with JSON.parse and reads only own keys.
    const data = JSON.parse(embedded?.[1] ?? 'null') as {
      conversations: ConversationSummary[];
      reports: Record<string, ConversationReport>;
    };
    expect(data.conversations.map((conversation) => conversation.id).sort()).toEqual(
      [...NAMES].sort(),
    );
    expect(Object.keys(data.reports).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) {
      expect(Object.hasOwn(data.reports, name)).toBe(true);
      expectReportOf(name, data.reports[name]);
    }
  });

  it('are served by ctxkit view', async () => {
    const view = await startCtxkitView(file);
    try {
      const listed = (await (await fetch(`${view.url}api/conversations`)).json()) as {
        conversations: ConversationSummary[];
      };
      expect(listed.conversations.map((conversation) => conversation.id).sort()).toEqual(
        [...NAMES].sort(),
      );
      for (const name of NAMES) {
        const response = await fetch(`${view.url}api/conversation?id=${encodeURIComponent(name)}`);
        expect(response.status).toBe(200);
        expectReportOf(name, (await response.json()) as ConversationReport);
      }
    } finally {
      expect(await view.stop()).toBe(0);
    }
  });
});
