import { describe, expect, it } from 'vitest';
import {
  type BuildReport,
  type ConversationReport,
  openInspectedDatabase,
  readBuilds,
} from '../src/index.js';
import { runCtxkit } from './cli-process.js';
import { CONVERSATION, recordConversation } from './recorded-conversation.js';

const { file, builds } = await recordConversation();

describe('ctxkit inspect on a database the real pipeline wrote', () => {
  it('--json lists every build with every message the event recorded, and its fate', async () => {
    const { status, stdout, stderr } = runCtxkit(['inspect', file, '--json']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const { conversations } = JSON.parse(stdout) as { conversations: ConversationReport[] };
    expect(conversations.map((report) => report.conversation.id)).toEqual([CONVERSATION]);
    const reported = conversations[0]?.builds ?? [];
    expect(reported.map((build) => build.turn)).toEqual(
      Array.from({ length: builds }, (_, index) => index + 1),
    );
    const database = await openInspectedDatabase(file);
    const recorded = await readBuilds(database, CONVERSATION);
    await database.close();
    for (const [index, build] of reported.entries()) {
      const changes = recorded[index]?.payload.changes ?? [];
      expect(build.messages.map((message) => [message.id, message.action])).toEqual(
        changes.map((change) => [change.id, change.action]),
      );
      expect(build.counts.dropped).toBe(
        changes.filter((change) => change.action === 'dropped').length,
      );
      for (const message of build.messages) {
        expect(message.role).not.toBeNull();
        expect(message.reason).toContain(message.action);
      }
    }
    expect(reported.some((build) => build.counts.dropped > 0)).toBe(true);
  });

  it('--json of one build shows the diff from the previous build and where the cached prefix ended', () => {
    const all = (
      JSON.parse(
        runCtxkit(['inspect', file, '--conversation', CONVERSATION, '--json']).stdout,
      ) as ConversationReport
    ).builds;
    const byTurn = (turn: number) => all[turn - 1] as BuildReport;
    expect(
      JSON.parse(
        runCtxkit([
          'inspect',
          file,
          '--conversation',
          CONVERSATION,
          '--build',
          String(builds),
          '--json',
        ]).stdout,
      ),
    ).toEqual(byTurn(builds));
    const cached = all.filter((build) => (build.cachedTokens ?? 0) > 0);
    expect(cached.length).toBeGreaterThan(0);
    for (const build of cached) {
      const inPrefix = build.messages.filter((message) => message.inCachedPrefix);
      const prefixTokens = inPrefix.reduce((sum, message) => sum + message.tokensAfter, 0);
      const beforeMessages = (build.cost?.inputTokens ?? 0) - build.sentTokens;
      expect(prefixTokens + beforeMessages).toBeLessThanOrEqual(build.cachedTokens ?? 0);
      // What the chart draws beside the tokens sent: the cached part of the messages alone.
      expect(build.cachedMessageTokens).toBe(
        Math.max(0, (build.cachedTokens ?? 0) - beforeMessages),
      );
      expect(build.cachedMessageTokens ?? 0).toBeLessThanOrEqual(build.sentTokens);
      expect(build.cachedMessageTokens ?? 0).toBeGreaterThanOrEqual(prefixTokens);
      expect(build.cachedPrefix?.lastOutputIndex).toBe(inPrefix.at(-1)?.outputIndex ?? null);
    }
    const last = byTurn(builds);
    const previous = byTurn(builds - 1);
    const sentBefore = previous.messages.filter((message) => message.outputIndex !== null);
    const sentNow = new Set(
      last.messages.filter((message) => message.outputIndex !== null).map((message) => message.id),
    );
    expect(last.diff.previousTurn).toBe(builds - 1);
    expect(last.diff.noLongerSent).toEqual(
      sentBefore.filter((message) => !sentNow.has(message.id)).map((message) => message.id),
    );
    expect(last.diff.added.length).toBe(last.originalCount - previous.originalCount);
  });

  it('prints builds turn by turn, and one build message by message, as text without colors off a terminal', () => {
    const conversation = runCtxkit(['inspect', file, '--conversation', CONVERSATION]);
    expect(conversation.status).toBe(0);
    expect(conversation.stdout.split('\n').filter((line) => /^\d+\s{2}/.test(line))).toHaveLength(
      builds,
    );
    const build = runCtxkit([
      'inspect',
      file,
      '--conversation',
      CONVERSATION,
      '--build',
      String(builds),
    ]);
    expect(build.status).toBe(0);
    expect(build.stdout).toMatch(/dropped by \S+/);
    expect(build.stdout).toMatch(/Since build \d+:/);
    expect(build.stdout).toMatch(/Billed cost: .*\$\d/);
    expect(build.stdout).not.toContain('\u001b[');
  });

  it('reports progress on stderr when the read takes more than one page', () => {
    const { status, stderr } = runCtxkit([
      'inspect',
      file,
      '--conversation',
      CONVERSATION,
      '--page-size',
      '2',
    ]);
    expect(status).toBe(0);
    expect(stderr).toContain(`reading the builds of ${CONVERSATION}: ${builds} of ${builds}`);
    expect(runCtxkit(['inspect', file, '--conversation', CONVERSATION]).stderr).toBe('');
  });
});
