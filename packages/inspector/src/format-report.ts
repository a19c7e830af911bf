import type { BuildMessage, BuildReport, MessageFate } from './build-report.js';
import type { ConversationReport } from './conversation-report.js';
import type { ConversationSummary } from './conversation-summary.js';
import { type TerminalStyle, terminalStyle } from './terminal-style.js';
import { terminalText } from './terminal-text.js';

/**
 * The conversations of a database as a table, with the command that shows one. Control
 * characters of stored text (ids, times) are escaped.
 *
 * @param target - the database, as opened
 * @param conversations - its conversations
 * @param style - the terminal's styles
 * @returns the text, lines joined with `\n`
 */
export function formatConversationList(
  target: string,
  conversations: readonly ConversationSummary[],
  style: TerminalStyle = terminalStyle(false),
): string {
  const shownTarget = terminalText(target);
  if (conversations.length === 0) return `${style.bold(shownTarget)}: no conversations.`;
  return [
    `${style.bold(shownTarget)}: ${conversations.length} conversation${conversations.length === 1 ? '' : 's'}`,
    '',
    table(
      ['conversation', 'builds', 'active messages', 'archived', 'first build', 'last build'],
      conversations.map((conversation) => [
        conversation.id,
        figure(conversation.builds),
        figure(conversation.activeMessages),
        figure(conversation.archivedMessages),
        conversation.firstBuildAt ?? '',
        conversation.lastBuildAt ?? '',
      ]),
    ),
    '',
    style.dim('One conversation, build by build: ctxkit inspect <database> --conversation <id>'),
  ].join('\n');
}

/**
 * One conversation, one line per build: messages read and sent, tokens of the history, sent,
 * the window, the cached prefix, the predicted cost, what each compressor stage did. Control
 * characters of stored text are escaped.
 *
 * @param report - the conversation's report
 * @param style - the terminal's styles
 * @returns the text, lines joined with `\n`
 */
export function formatConversation(
  report: ConversationReport,
  style: TerminalStyle = terminalStyle(false),
): string {
  const { conversation, builds } = report;
  const id = terminalText(conversation.id);
  return [
    `${style.bold(`Conversation ${id}`)}: ${figure(builds.length)} builds, ` +
      `${figure(conversation.activeMessages)} active messages, ${figure(conversation.archivedMessages)} archived`,
    '',
    builds.length === 0
      ? '(no builds recorded)'
      : table(
          ['turn', 'at', 'messages', 'history', 'sent', 'window', 'cached', 'cost', 'steps'],
          builds.map((build) => [
            String(build.turn),
            build.at,
            `${build.originalCount} → ${build.compressedCount}`,
            build.historyTokens === null ? '' : figure(build.historyTokens),
            figure(build.sentTokens),
            figure(build.windowTokens),
            build.cachedTokens === null ? '' : figure(build.cachedTokens),
            dollars(build.cost?.inputUsd),
            stepsOf(build),
          ]),
        ),
    '',
    style.dim(
      `One build, message by message: ctxkit inspect <database> --conversation ${id} --build <turn>`,
    ),
  ].join('\n');
}

/**
 * One build: its figures, every message with its fate, tokens and reason, the difference from
 * the previous build, where the cached prefix ended and the predicted cost. Control characters
 * of stored text (ids, roles, reasons, previews, stage names, warnings) are escaped.
 *
 * @param conversationId - the build's conversation
 * @param build - the build's report
 * @param style - the terminal's styles
 * @returns the text, lines joined with `\n`
 */
export function formatBuild(
  conversationId: string,
  build: BuildReport,
  style: TerminalStyle = terminalStyle(false),
): string {
  const { counts, diff, cachedPrefix, cost } = build;
  const fateStyle: Record<MessageFate, (text: string) => string> = {
    kept: style.green,
    changed: style.yellow,
    dropped: style.red,
    inserted: style.yellow,
  };
  const lines = [
    `${style.bold(`Conversation ${terminalText(conversationId)}, build ${build.turn}`)} (${terminalText(build.at)})`,
    `${build.originalCount} messages read, ${build.compressedCount} sent: ${counts.kept} kept, ` +
      `${counts.changed} changed, ${counts.dropped} dropped, ${counts.inserted} inserted`,
    `tokens: history ${build.historyTokens === null ? 'not recorded' : figure(build.historyTokens)}, ` +
      `sent ${figure(build.sentTokens)}, window ${figure(build.windowTokens)}`,
    `steps: ${stepsOf(build) || 'none changed anything'}`,
    '',
    table(
      ['#', 'id', 'role', 'fate', 'tokens', 'reason', 'message'],
      build.messages.map((message) => [
        message.outputIndex === null ? '-' : String(message.outputIndex),
        message.id ?? '',
        message.role ?? '',
        message.fate,
        tokensOf(message),
        message.reason,
        `${message.inCachedPrefix ? '[cached] ' : ''}${clip(message.preview ?? '', 60)}`,
      ]),
      (row, text) => {
        const fate = build.messages[row]?.fate;
        return fate === undefined ? text : fateStyle[fate](text);
      },
    ),
    '',
    diff.previousTurn === null
      ? 'Since the previous build: this is the first build.'
      : `Since build ${diff.previousTurn}: ${diff.added.length} new (${list(diff.added)}), ` +
        `${diff.noLongerSent.length} no longer sent (${list(diff.noLongerSent)}), ` +
        `${diff.changed.length} changed (${list(diff.changed.map((change) => `${change.id} ${change.before} → ${change.after}`))}), ` +
        `sent tokens ${diff.sentTokensDelta >= 0 ? '+' : ''}${figure(diff.sentTokensDelta)}`,
    cachedPrefix === null
      ? 'Cached prefix: no cost prediction recorded.'
      : `Cached prefix: ${figure(cachedPrefix.cachedTokens)} tokens, ` +
        (cachedPrefix.lastOutputIndex === null
          ? 'ending before the first message'
          : `ending after message #${cachedPrefix.lastOutputIndex}${cachedPrefix.lastMessageId === null ? '' : ` (id ${terminalText(cachedPrefix.lastMessageId)})`}`),
    cost === null
      ? 'Billed cost: not predicted.'
      : `Billed cost: ${figure(cost.inputTokens)} input tokens (${figure(cost.cachedInputTokens)} cached, ` +
        `${figure(cost.cacheWriteTokens['5m'] + cost.cacheWriteTokens['1h'])} written to the cache, ` +
        `${figure(cost.uncachedInputTokens)} uncached): ${dollars(cost.inputUsd)}` +
        (cost.warnings.length > 0 ? style.dim(` (${terminalText(cost.warnings.join(' '))})`) : ''),
  ];
  return lines.join('\n');
}

// --- internal helpers ---

function figure(value: number): string {
  return value.toLocaleString('en');
}

function dollars(usd: number | null | undefined): string {
  if (usd === undefined) return '';
  return usd === null ? 'unknown' : `$${usd.toFixed(4)}`;
}

function tokensOf(message: BuildMessage): string {
  const before = message.tokensBefore === null ? '?' : figure(message.tokensBefore);
  if (message.fate === 'kept') return figure(message.tokensAfter);
  if (message.fate === 'inserted') return `+${figure(message.tokensAfter)}`;
  return `${before} → ${figure(message.tokensAfter)}`;
}

function stepsOf(build: BuildReport): string {
  return build.steps
    .map((step) => {
      const done = (['truncated', 'masked', 'dropped', 'summarized'] as const)
        .filter((field) => step[field] > 0)
        .map((field) => `${step[field]} ${field}`);
      return done.length === 0 ? '' : `${terminalText(step.name)}: ${done.join(', ')}`;
    })
    .filter((text) => text !== '')
    .join('; ');
}

function list(items: readonly string[]): string {
  if (items.length === 0) return 'none';
  const shown = items.slice(0, 8).map((item) => terminalText(item));
  return items.length <= 8 ? shown.join(', ') : `${shown.join(', ')}, …`;
}

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/**
 * Columns padded to their widest cell; `paint` styles a body row's padded text (so the padding
 * is counted before escape codes are added). Every cell's control characters are escaped first.
 */
function table(
  header: readonly string[],
  cells: readonly string[][],
  paint: (row: number, text: string) => string = (_row, text) => text,
): string {
  const rows = cells.map((row) => row.map((cell) => terminalText(cell)));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map((row, index) => paint(index, line(row))),
  ].join('\n');
}
