import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ContextError } from '@ctxkit/context-core';
import { type ConversationReport, readConversationReport } from './conversation-report.js';
import { listConversations } from './conversation-summary.js';
import { formatBuild, formatConversation, formatConversationList } from './format-report.js';
import { InspectorError } from './inspector-error.js';
import { jsonText } from './json-text.js';
import { type InspectedDatabase, openInspectedDatabase } from './open-inspected-database.js';
import { type ProgressStream, progressReporter } from './progress-reporter.js';
import { terminalStyle, wantsColor } from './terminal-style.js';
import { terminalText } from './terminal-text.js';
import { renderViewerPage } from './viewer-page.js';
import { startViewer } from './viewer-server.js';

/** Where the `ctxkit` command reads and writes: the process's, or a test's. */
export interface CliIo {
  /** Results (text, JSON, the viewer's URL). */
  stdout: ProgressStream;
  /** Errors and progress. */
  stderr: ProgressStream;
  /** The environment (`NO_COLOR`). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Resolves when `view` should stop serving.
   *
   * @default `undefined`: on SIGINT or SIGTERM
   */
  untilStopped?: () => Promise<void>;
}

/** The `ctxkit` command's usage, as `--help` prints it. */
export const USAGE = `Usage:
  ctxkit inspect <sqlite file | postgres url> [--conversation <id> [--build <turn>]] [--json]
  ctxkit view <sqlite file | postgres url> [--port <port>] [--html <out.html>]

inspect   lists the conversations; with --conversation, its builds turn by turn; with --build,
          every message kept, changed or dropped, with its tokens and the reason, the difference
          from the previous build, where the cached prefix ended and the billed cost.
          --json prints the same as JSON (without --conversation: every build of every conversation).
view      serves a read-only page on 127.0.0.1 (--port, 0 = any free port) with a chart of tokens
          per turn; click a turn for its messages. --html writes the page as one file instead.
Options:  --page-size <n>  events per read (default 500)   --help
Exit codes: 0 done, 1 failure, 2 bad input (missing, corrupt, foreign or newer database; bad arguments).`;

/**
 * Runs the `ctxkit` command. Bad input (a missing, corrupt, foreign or newer-schema database, an
 * unknown conversation or build, a bad argument) prints one line on stderr and gives exit code 2;
 * any other failure gives 1. Never writes to the database.
 *
 * @param args - the arguments after the command's name
 * @param io - where it reads and writes
 * @returns the exit code
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  let database: InspectedDatabase | undefined;
  try {
    const command = parseCommand(args);
    if (command === 'help') {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    database = await openInspectedDatabase(command.target);
    if (command.name === 'inspect') await inspect(database, command, io);
    else await view(database, command, io);
    return 0;
  } catch (error) {
    if (InspectorError.isInstance(error)) {
      io.stderr.write(`ctxkit: ${oneLine(error.message)}\n`);
      return 2;
    }
    const message =
      ContextError.isInstance(error) || error instanceof Error ? error.message : String(error);
    io.stderr.write(`ctxkit: ${oneLine(message)}\n`);
    return 1;
  } finally {
    await database?.close();
  }
}

// --- internal helpers ---

interface ParsedCommand {
  name: 'inspect' | 'view';
  target: string;
  conversation?: string;
  build?: number;
  json: boolean;
  port: number;
  html?: string;
  pageSize?: number;
}

function parseCommand(args: readonly string[]): ParsedCommand | 'help' {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw badArgument(`${(error as Error).message} (see ctxkit --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help === true || positionals.length === 0) return 'help';
  const [name, target, ...extra] = positionals;
  if (name !== 'inspect' && name !== 'view') {
    throw badArgument(
      `unknown command ${JSON.stringify(name)}: use inspect or view (see ctxkit --help).`,
    );
  }
  if (target === undefined) throw badArgument(`${name} needs a SQLite file or a PostgreSQL URL.`);
  if (extra.length > 0) throw badArgument(`unexpected argument ${JSON.stringify(extra[0])}.`);
  const onlyFor = (option: string, command: string) =>
    badArgument(`--${option} belongs to ctxkit ${command}.`);
  if (
    name === 'view' &&
    (values.conversation !== undefined || values.build !== undefined || values.json)
  ) {
    throw onlyFor(
      values.json ? 'json' : values.conversation !== undefined ? 'conversation' : 'build',
      'inspect',
    );
  }
  if (name === 'inspect' && (values.port !== undefined || values.html !== undefined)) {
    throw onlyFor(values.port !== undefined ? 'port' : 'html', 'view');
  }
  if (values.build !== undefined && values.conversation === undefined) {
    throw badArgument('--build needs --conversation.');
  }
  return {
    name,
    target,
    json: values.json === true,
    port: values.port === undefined ? 0 : integer('port', values.port, 0),
    ...(values.conversation === undefined ? {} : { conversation: values.conversation }),
    ...(values.build === undefined ? {} : { build: integer('build', values.build, 1) }),
    ...(values.html === undefined ? {} : { html: values.html }),
    ...(values['page-size'] === undefined
      ? {}
      : { pageSize: integer('page-size', values['page-size'], 1) }),
  };
}

const OPTIONS = {
  conversation: { type: 'string' },
  build: { type: 'string' },
  json: { type: 'boolean' },
  port: { type: 'string' },
  html: { type: 'string' },
  'page-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function integer(option: string, text: string, minimum: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < minimum || (option === 'port' && value > 65_535)) {
    throw badArgument(
      `--${option} must be an integer of at least ${minimum}, got ${JSON.stringify(text)}.`,
    );
  }
  return value;
}

function badArgument(message: string): InspectorError {
  return new InspectorError({ code: 'invalid_argument', message });
}

/** The text on one line, its control characters escaped: an error may quote stored text. */
function oneLine(text: string): string {
  return terminalText(text.replace(/\s*\n\s*/g, ' '));
}

async function inspect(
  database: InspectedDatabase,
  command: ParsedCommand,
  io: CliIo,
): Promise<void> {
  const style = terminalStyle(wantsColor(io.stdout, io.env));
  const report = (id: string) =>
    readConversationReport(database, id, {
      onProgress: progressReporter(io.stderr, `reading the builds of ${terminalText(id)}`),
      ...(command.pageSize === undefined ? {} : { pageSize: command.pageSize }),
    });
  const print = (text: string) => io.stdout.write(`${text}\n`);
  if (command.conversation === undefined) {
    const conversations = await listConversations(database);
    if (!command.json) {
      print(formatConversationList(database.target, conversations, style));
      return;
    }
    const reports: ConversationReport[] = [];
    for (const conversation of conversations) reports.push(await report(conversation.id));
    print(jsonText({ target: database.target, conversations: reports }));
    return;
  }
  const conversation = await report(command.conversation);
  if (command.build === undefined) {
    print(command.json ? jsonText(conversation) : formatConversation(conversation, style));
    return;
  }
  const build = conversation.builds.find((candidate) => candidate.turn === command.build);
  if (build === undefined) {
    throw new InspectorError({
      code: 'not_found',
      message: `Conversation ${command.conversation} has ${conversation.builds.length} builds: there is no build ${command.build}.`,
      details: { conversationId: command.conversation, build: command.build },
    });
  }
  print(command.json ? jsonText(build) : formatBuild(command.conversation, build, style));
}

async function view(database: InspectedDatabase, command: ParsedCommand, io: CliIo): Promise<void> {
  if (command.html !== undefined) {
    const conversations = await listConversations(database);
    // No prototype: a conversation named `__proto__` is a key like any other.
    const reports: Record<string, ConversationReport> = Object.create(null);
    for (const conversation of conversations) {
      reports[conversation.id] = await readConversationReport(database, conversation.id, {
        onProgress: progressReporter(
          io.stderr,
          `reading the builds of ${terminalText(conversation.id)}`,
        ),
        ...(command.pageSize === undefined ? {} : { pageSize: command.pageSize }),
      });
    }
    writeFileSync(
      command.html,
      renderViewerPage({ target: database.target, conversations, reports }),
    );
    io.stdout.write(`ctxkit view: wrote ${terminalText(command.html)}\n`);
    return;
  }
  // What the page lists first, read once before serving: a row it cannot show is bad input.
  await listConversations(database);
  const viewer = await startViewer(database, { port: command.port });
  io.stdout.write(`ctxkit view: ${viewer.url} (read-only; Ctrl+C stops)\n`);
  await (io.untilStopped ?? untilSignal)();
  await viewer.close();
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
